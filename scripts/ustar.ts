/**
 * A gzipped ustar archive of a few regular files, written by Node alone (no `tar` binary: GNU tar's
 * reproducibility flags do not exist in macOS's bsdtar). Every header field that could differ between
 * machines is fixed: mtime 0, uid/gid 0, no owner names, the mode given (not the file's, so the umask
 * does not matter), entries in the order given; gzip's header carries no name or time.
 */
import { gzipSync } from "node:zlib";

/** One regular file of the archive. */
export interface ArchiveEntry {
  /** Its path in the archive (at most 100 bytes: no prefix field is written). */
  readonly name: string;
  readonly content: Buffer;
  /** Its permission bits, e.g. 0o755. */
  readonly mode: number;
}

const BLOCK = 512;
/** tar's record: archives are padded to a multiple of it, as tar writes them. */
const RECORD = 20 * BLOCK;

/** An octal field of `width` bytes: zero-padded digits and a NUL. */
function octal(value: number, width: number): string {
  const digits = value.toString(8);
  if (digits.length > width - 1) throw new Error(`${value} does not fit a ${width}-byte tar field`);
  return `${digits.padStart(width - 1, "0")}\0`;
}

function header(entry: ArchiveEntry): Buffer {
  const name = Buffer.from(entry.name, "utf8");
  if (name.length > 100) throw new Error(`tar entry name over 100 bytes: ${entry.name}`);
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0);
  block.write(octal(entry.mode & 0o7777, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii"); // uid
  block.write(octal(0, 8), 116, "ascii"); // gid
  block.write(octal(entry.content.length, 12), 124, "ascii");
  block.write(octal(0, 12), 136, "ascii"); // mtime
  block.write("        ", 148, "ascii"); // the checksum counts its own field as spaces
  block.write("0", 156, "ascii"); // a regular file
  block.write("ustar\u000000", 257, "ascii");
  block.write(octal(0, 8), 329, "ascii"); // devmajor
  block.write(octal(0, 8), 337, "ascii"); // devminor
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/** The uncompressed ustar archive of `entries`, in their order. */
function ustarArchive(entries: readonly ArchiveEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), entry.content);
    const pad = (BLOCK - (entry.content.length % BLOCK)) % BLOCK;
    parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const length = parts.reduce((total, part) => total + part.length, 0);
  parts.push(Buffer.alloc((RECORD - (length % RECORD)) % RECORD));
  return Buffer.concat(parts);
}

/**
 * The gzipped archive (`.tar.gz`): zlib's gzip header holds no name and mtime 0, and its OS byte (3 on
 * Linux, another value elsewhere) is set to 255, "unknown", so every machine writes the same bytes.
 */
export function gzippedUstar(entries: readonly ArchiveEntry[]): Buffer {
  const gzipped = gzipSync(ustarArchive(entries), { level: 9 });
  gzipped[9] = 255;
  return gzipped;
}
