/**
 * Property values between the engine's wire form and plain values. The engine sends properties as a
 * protobuf Struct in which a secret is an object `{ "4dabf18193072939515e22adb298388d":
 * "1b47061264138c4ac30d75fd1eb44270", value }` and a value not known until apply is the string
 * UNKNOWN_VALUE (the plugin says it accepts secrets; it accepts neither resource references nor output
 * values, so the engine sends those as plain values). Coming in, secrets are unwrapped and the top-level
 * properties that held one, at any depth, are remembered; going out, the properties the caller names are
 * wrapped again, whole, so whatever came in secret leaves secret.
 */
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";

/** The key of the engine's special objects, and its value for a secret. */
export const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

/** Properties as the engine sent them: plain values, and which of them held a secret. */
export interface PropertyBag {
  readonly values: Props;
  /** Top-level property names whose value held a secret anywhere inside. */
  readonly secrets: ReadonlySet<string>;
}

/** The plain values of a Struct (none when it is absent), and which properties held a secret. */
export function fromStruct(struct: Struct | undefined): PropertyBag {
  const values: Props = {};
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(struct?.toJavaScript() ?? {})) {
    let secret = false;
    values[name] = unwrap(value, () => (secret = true));
    if (secret) secrets.add(name);
  }
  return { values, secrets };
}

function unwrap(value: unknown, foundSecret: () => void): unknown {
  if (Array.isArray(value)) return value.map((item) => unwrap(item, foundSecret));
  if (value === null || typeof value !== "object") return value;
  const object = value as Props;
  if (object[SIGNATURE_KEY] === SECRET_SIGNATURE) {
    foundSecret();
    return unwrap(object.value, foundSecret);
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, unwrap(item, foundSecret)]));
}

/**
 * A Struct of `values`, each wrapped as a secret when `isSecret(name, value)` says so. Undefined values are
 * left out (a Struct has none).
 */
export function toStruct(
  values: Props,
  isSecret: (name: string, value: unknown) => boolean = () => false,
): Struct {
  const fields: Record<string, JavaScriptValue> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const wire = wireValue(value);
    fields[name] = isSecret(name, value) ? { [SIGNATURE_KEY]: SECRET_SIGNATURE, value: wire } : wire;
  }
  return Struct.fromJavaScript(fields);
}

/** A value a Struct can hold: undefined object fields left out, undefined array items as null. */
function wireValue(value: unknown): JavaScriptValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(wireValue);
  if (typeof value === "object") {
    const fields: Record<string, JavaScriptValue> = {};
    for (const [key, item] of Object.entries(value as Props)) {
      if (item !== undefined) fields[key] = wireValue(item);
    }
    return fields;
  }
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  throw new TypeError(`a property value cannot be sent to the engine: ${typeof value}`);
}
