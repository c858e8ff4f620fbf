/**
 * The `platform` output every resource kind has: where it was created (provider/ownership.ts). Absent
 * from state written before 0.5.0 until the next `pulumi up` or refresh records it, hence optional in
 * the kinds' state types.
 */
import { Type } from "../../api/typeBuilder";
import { described } from "../../api/schemaIssues";
import { PLATFORM_DESCRIPTION } from "./fieldDescriptions";

/** The `platform` output property, to spread into a kind's outputs shape. */
export const PLATFORM_OUTPUT = { platform: described(Type.String(), PLATFORM_DESCRIPTION) };

/** The recorded platform in a kind's state type (a type, not an interface: states are used as records). */
export type RecordedPlatform = { platform?: string };
