/**
 * What a rule of the pack is: a tfsec/checkov-style id, what it checks, its default enforcement, its
 * configuration with defaults, and a check over the codesec resources the stack declares. Rules are plain
 * functions of their inputs (unit-tested without the engine); ./pack.ts turns them into Pulumi policies.
 */
import type { EnforcementLevel, PolicyConfigSchema } from "@pulumi/policy";
import type { KindView } from "pulumi-codesec/review";

/** A codesec resource of the stack: its URN, logical name, kind and inputs. */
export interface Declared {
  readonly urn: string;
  readonly name: string;
  readonly view: KindView;
}

/** One finding: what is wrong and what to do, and the resource it is about (absent: the stack). */
export interface Violation {
  readonly message: string;
  readonly urn?: string;
}

export interface Rule<C extends object = object> {
  /** `codesec-admin-count`: the policy's name, shown in every violation. */
  readonly id: string;
  readonly description: string;
  readonly enforcementLevel: EnforcementLevel;
  /** The rule's settings in the pack's config, each with its default. */
  readonly config: { readonly [K in keyof C]: { readonly schema: object; readonly default: C[K] } };
  readonly check: (resources: readonly Declared[], config: C) => Violation[];
}

/** A rule, its config's type kept for its check. */
export function defineRule<C extends object>(rule: Rule<C>): Rule<C> {
  return rule;
}

/** The rule's defaults, overridden by what the pack's config sets. */
export function configOf<C extends object>(rule: Rule<C>, given: Partial<C> = {}): C {
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries<{ default: unknown }>(rule.config)) {
    config[key] = key in given ? (given as Record<string, unknown>)[key] : setting.default;
  }
  return config as C;
}

/** The JSON schema of the rule's config, as `@pulumi/policy` validates it. */
export function configSchemaOf(rule: Rule): PolicyConfigSchema {
  return {
    properties: Object.fromEntries(
      Object.entries(rule.config as Record<string, { schema: object; default: unknown }>).map(
        ([key, setting]) => [key, { ...setting.schema, default: setting.default }],
      ),
    ) as PolicyConfigSchema["properties"],
  };
}

/** `UserRole "max"`: how messages name a resource. */
export function label(resource: Declared): string {
  return `${resource.view.kind} "${resource.name}"`;
}

/** The resources of one kind, typed. */
export function ofKind<K extends KindView["kind"]>(
  resources: readonly Declared[],
  kind: K,
): (Declared & { view: Extract<KindView, { kind: K }> })[] {
  return resources.filter(
    (resource): resource is Declared & { view: Extract<KindView, { kind: K }> } =>
      resource.view.kind === kind,
  );
}

/** Groups items by a key, keeping their order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
