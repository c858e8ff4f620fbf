"""Rewrites an sdist (.tar.gz) so that the same files give the same bytes: entries sorted, every mtime
SOURCE_DATE_EPOCH, owner root with no names, modes 0644 or 0755, gzip header without name or time.
setuptools writes the files' own owner and mode, and gzip's time of writing."""
import gzip
import io
import os
import sys
import tarfile

def main(path: str) -> None:
    epoch = int(os.environ["SOURCE_DATE_EPOCH"])
    with tarfile.open(path, "r:gz") as source:
        members = [(m, source.extractfile(m).read() if m.isfile() else None) for m in source.getmembers()]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as target:
        for member, content in sorted(members, key=lambda pair: pair[0].name):
            member.mtime = epoch
            member.uid = member.gid = 0
            member.uname = member.gname = ""
            member.mode = 0o755 if member.isdir() or member.mode & 0o111 else 0o644
            member.pax_headers = {}
            target.addfile(member, io.BytesIO(content) if content is not None else None)
    with open(path, "wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as zipped:
            zipped.write(buffer.getvalue())

if __name__ == "__main__":
    main(sys.argv[1])
