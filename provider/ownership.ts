/**
 * Which platform a resource belongs to. Every resource records the platform it was created on (its
 * `platform` output: the normalized base URL of the connection that created it). When the connection now
 * resolves to another platform (stack config `codesec:baseUrl` re-pointed, a named connection edited, the
 * environment changed), the resource is not that platform's: writing to it, reading it back or dropping
 * it on that platform's word would act on another organization. So every step that would reach the
 * platform stops with {@link PlatformMismatchError} until the user moves the stack on purpose: stack config
 * `codesec:movedFrom` set to the recorded platform, then `pulumi up`, which applies each resource again
 * on the new platform and records it there (docs/credentials.md, "Moving to another platform").
 *
 * The dynamic and the native provider both decide with {@link ownershipOf}.
 */
import { canonicalBaseUrl } from "../client/baseUrl";
import { CONFIG_MOVED_FROM, STACK_CONFIG, type ConfigOrigin } from "./configOrigin";
import type { ResolvedConnection } from "./connection";
import { CodeSecConnectionError, PlatformMismatchError, type OwnedResource } from "./errors";

// The key is configOrigin.ts's and the resource's words errors.ts's, which word the mismatch's message.
export { CONFIG_MOVED_FROM } from "./configOrigin";
export type { OwnedResource } from "./errors";

/** The platform of a connection, as resources record it: its normalized base URL. */
export function platformOf(connection: Pick<ResolvedConnection, "baseUrl">): string {
  return canonicalBaseUrl(connection.baseUrl);
}

/**
 * How a resource's recorded platform relates to where its connection points now:
 * - `same`: the platform it was created on;
 * - `unrecorded`: state written before 0.5.0, which recorded no platform: the current one is recorded
 *   at the next `pulumi up` (an update with no API call) or refresh;
 * - `moving`: another platform, and stack config `codesec:movedFrom` names the recorded one: the next
 *   update applies the resource on the new platform and records it.
 */
export type Ownership =
  | { readonly kind: "same"; readonly platform: string }
  | { readonly kind: "unrecorded"; readonly platform: string }
  | { readonly kind: "moving"; readonly platform: string; readonly from: string };

/**
 * The ownership of a resource recorded on `recorded` whose connection is now `connection`, or a thrown
 * {@link PlatformMismatchError}. `movedFrom` is the provider's `codesec:movedFrom`, when set (in the
 * connection's origin: stack config or an explicit Provider's inputs).
 */
export function ownershipOf(
  recorded: unknown,
  connection: ResolvedConnection,
  movedFrom: string | undefined,
  resource: OwnedResource,
): Ownership {
  const platform = platformOf(connection);
  if (typeof recorded !== "string" || recorded === "") return { kind: "unrecorded", platform };
  if (recorded === platform) return { kind: "same", platform };
  if (movedFrom !== undefined && normalizedOrNothing(movedFrom) === recorded) {
    return { kind: "moving", platform, from: recorded };
  }
  throw new PlatformMismatchError(recorded, platform, connection, movedFrom, resource);
}

function normalizedOrNothing(baseUrl: string): string | undefined {
  try {
    return canonicalBaseUrl(baseUrl);
  } catch {
    return undefined;
  }
}

/**
 * `codesec:movedFrom` (stack config, or an explicit Provider's `movedFrom` input: `origin`), checked: a
 * base URL (normalized), or undefined when unset. A value that is not a base URL fails with the setting
 * named, as every other setting does.
 */
export function movedFromSetting(
  value: string | undefined,
  origin: ConfigOrigin = STACK_CONFIG,
): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  try {
    return canonicalBaseUrl(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodeSecConnectionError(
      origin.setting(CONFIG_MOVED_FROM),
      `${origin.subject(CONFIG_MOVED_FROM)}: ${reason}`,
    );
  }
}
