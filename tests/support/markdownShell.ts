/**
 * The shell command blocks of a markdown page (fenced `sh`, `bash`, `shell` or `console`), with what the
 * page says about running them. An HTML comment on the line before a block's fence says it:
 *
 *   (none)                                   the block runs as written, as one shell session
 *   <!-- not run: <reason> -->               it cannot run in CI; the reason is required
 *   <!-- each line runs until stopped -->    each line starts a server: it must start, then is stopped
 *
 * Used by tests/e2e/docsCommands.test.ts, which runs them, and tests/e2e/readme.test.ts.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

const SHELL_FENCES = new Set(["sh", "bash", "shell", "console"]);

export type BlockMode = { run: "asWritten" } | { run: "no"; reason: string } | { run: "serverPerLine" };

export interface ShellBlock {
  /** The page, relative to the repository's root. */
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  code: string;
  mode: BlockMode;
}

/** The mode a marker comment gives, or a problem with the marker. */
function modeOf(marker: string | undefined): BlockMode | { problem: string } {
  if (marker === undefined) return { run: "asWritten" };
  const text = marker.trim();
  if (/^each line runs until stopped$/i.test(text)) return { run: "serverPerLine" };
  const notRun = /^not run\b:?\s*(.*)$/i.exec(text);
  if (notRun) {
    const reason = notRun[1].trim();
    if (reason.split(/\s+/).length < 4) return { problem: `"not run" needs a reason (got "${text}")` };
    return { run: "no", reason };
  }
  return { run: "asWritten" }; // a comment about something else
}

/** Every shell block of `file` (relative to `root`), and the problems of their markers. */
export function shellBlocks(root: string, file: string): { blocks: ShellBlock[]; problems: string[] } {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const blocks: ShellBlock[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
    if (end < 0) break;
    if (SHELL_FENCES.has(fence[1])) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === "") before--;
      const marker = before >= 0 ? /^<!--(.*)-->\s*$/.exec(lines[before].trim())?.[1] : undefined;
      const mode = modeOf(marker);
      if ("problem" in mode) problems.push(`${file}:${i + 1}: ${mode.problem}`);
      else blocks.push({ file, line: i + 1, code: lines.slice(i + 1, end).join("\n"), mode });
    }
    i = end;
  }
  return { blocks, problems };
}

/** One command line of a block: continuation lines joined, with its line number in the page. */
export interface CommandLine {
  line: number;
  text: string;
}

/** The command lines of a block (comments and blank lines left out; `\`-continued lines joined). */
export function commandLines(block: ShellBlock): CommandLine[] {
  const out: CommandLine[] = [];
  const lines = block.code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i];
    while (/\\\s*$/.test(text) && i + 1 < lines.length)
      text = `${text.replace(/\\\s*$/, "")} ${lines[++i].trim()}`;
    if (text.trim() === "" || text.trim().startsWith("#")) continue;
    out.push({ line: block.line + 1 + start, text });
  }
  return out;
}

/** Whether a command line runs in the background (`... &`, a trailing comment aside). */
export function inBackground(text: string): boolean {
  return /(^|[^&])&\s*(#.*)?$/.test(text);
}

/** Whether the page says the command fails (its comment starts with "fails"). */
export function expectedToFail(text: string): boolean {
  return /\s#\s*fails\b/.test(text);
}
