/**
 * Leaves a file as it was found: the demo writes its stack settings (`Pulumi.demo.yaml`) into the
 * repository, where a user may keep a file of that name of their own. Only a file the demo created is
 * removed; one that was there before gets its original bytes back.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

/** Records `file`'s state now; the returned function restores it (removes it when it did not exist). */
export function guardFile(file: string): () => void {
  const before = existsSync(file) ? readFileSync(file) : undefined;
  return () => {
    if (before === undefined) rmSync(file, { force: true });
    else writeFileSync(file, before);
  };
}
