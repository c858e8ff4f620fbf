/**
 * The one reading of a Pulumi URN in the reports: `urn:pulumi:<stack>::<project>::<qualified type>::<name>`.
 * Stack, project and type hold no `::`, a resource's name may: the name is everything after the third `::`
 * (as the engine reads it), so a name cannot pass itself off as another type or as the stack.
 */

/** The type of the stack's own resource: a result about it is about the stack as a whole. */
export const STACK_TYPE = "pulumi:pulumi:Stack";

export interface ParsedUrn {
  readonly stack: string;
  readonly project: string;
  /** The parent types and the type, joined by `$`. */
  readonly qualifiedType: string;
  /** The resource's own type (the qualified type's last part). */
  readonly type: string;
  readonly name: string;
}

/** The parts of `urn`, or undefined when it is no Pulumi URN. */
export function parseUrn(urn: string): ParsedUrn | undefined {
  const prefix = "urn:pulumi:";
  if (!urn.startsWith(prefix)) return undefined;
  const parts: string[] = [];
  let rest = urn.slice(prefix.length);
  for (let i = 0; i < 3; i++) {
    const at = rest.indexOf("::");
    if (at < 0) return undefined;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 2);
  }
  const [stack, project, qualifiedType] = parts;
  return { stack, project, qualifiedType, type: qualifiedType.split("$").pop() ?? "", name: rest };
}

/** `max` from `urn:pulumi:stack::project::type::max` (the whole URN when it is none). */
export function nameOfUrn(urn: string): string {
  return parseUrn(urn)?.name ?? urn;
}

/** The resource's own type, "" when the URN is none. */
export function typeOfUrn(urn: string): string {
  return parseUrn(urn)?.type ?? "";
}

/** `prod` from `urn:pulumi:prod::project::...`. */
export function stackOfUrn(urn: string): string {
  return parseUrn(urn)?.stack ?? "";
}

/** Whether a result about `urn` is about the stack as a whole (its own resource, or no resource). */
export function isStackWide(urn: string): boolean {
  return urn === "" || typeOfUrn(urn) === STACK_TYPE;
}
