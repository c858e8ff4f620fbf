/** What every codesec resource class hands to `pulumi.dynamic.Resource`. */
import * as pulumi from "@pulumi/pulumi";

/** Inputs that are credentials or one-time codes: secret in inputs and outputs alike. */
const SECRET_INPUTS = ["connection", "code"] as const;

/**
 * The props: the args with secrets wrapped (so the engine encrypts them in the inputs it stores too),
 * plus every output-only property as `undefined`, which is how a dynamic resource declares its outputs.
 */
export function resourceProps(args: object, outputKeys: readonly string[]): pulumi.Inputs {
  const props: pulumi.Inputs = { ...args };
  for (const key of SECRET_INPUTS) {
    if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
  }
  for (const key of outputKeys) props[key] = undefined;
  return props;
}

/** The options, with the secret inputs also listed as secret outputs. */
export function resourceOptions(
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.CustomResourceOptions {
  return {
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...SECRET_INPUTS],
  };
}
