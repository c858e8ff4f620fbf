/**
 * The stacks of a file's parts, made at once in the enclosing suite's `before`: each set-up's `pulumi up`
 * mostly waits on its CLI, its program and its provider, so three side by side take little more than one.
 * No part starts before every set-up has ended: a part's steps block this process at times (an install,
 * `pulumi plugin install`), which serves every emulator, and would stall another set-up's calls. A failed
 * set-up fails its own part only. Every part's emulator is closed after the suite.
 */
import type { EmulatorHandle } from "../../../emulator/index";

export function partsMadeAtOnce<Name extends string, Part extends { readonly emulator: EmulatorHandle }>(
  makers: Record<Name, () => Promise<Part>>,
): (name: Name) => Promise<Part> {
  const made = new Map<Name, Promise<Part>>();

  before(async function () {
    for (const name of Object.keys(makers) as Name[]) {
      const part = makers[name]();
      part.catch(() => undefined); // the part's own `before` awaits it and reports its failure
      made.set(name, part);
    }
    await Promise.allSettled(made.values());
  });

  after(async () => {
    for (const part of made.values()) await (await part.catch(() => undefined))?.emulator.close();
  });

  return (name) => {
    const part = made.get(name);
    if (part === undefined) throw new Error(`no part named ${name} was made`);
    return part;
  };
}
