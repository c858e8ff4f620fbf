import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import { scmAppDefinition, type ScmAppInputs, type ScmAppState } from "./definition";
import { declaredProps, resourceOptions, warnAboutArguments } from "../../dynamic/resourceProps";
import { stubProvider } from "../../dynamic/stubProvider";

/** Arguments of {@link ScmApp}. */
export type ScmAppArgs = PulumiArgs<ScmAppInputs>;

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface ScmApp extends PulumiOutputs<Omit<ScmAppState, "code" | "appliedApp">> {}

/**
 * An SCM app connected to a deployment: create completes the SCM app request with its one-time `code`
 * (operation 3, `PUT /api/scm/app_request_complete`); refresh and import read it (operation 4, `GET
 * /api/scm/deployments/{deploymentId}/scm_apps/{requestId}`). **Experimental** platform operations.
 *
 * - `deploymentId` and `requestId` identify it; there is nothing to update in place.
 * - `code` is secret and write-once: a new code alone is no change, and it is not kept in the outputs.
 * - Outputs are the connected app's fields, flat: `scmAppId` (the API's `id`), `slug`, `appId`,
 *   `scmType`, `baseUrl`, `scmName`, `codeAccess`, `tenantId` (`requestId` is the input).
 * - Refresh shows drift in those fields (a change made in the platform's UI), and the resource then
 *   shows as an update naming the changed fields, so `pulumi preview --refresh --expect-no-changes`
 *   fails; `pulumi up` records the change (the platform cannot change an app back). An app removed on the platform leaves the
 *   stack on refresh. Destroy only removes the resource from the stack.
 * - Without `code`, create adopts (imports) the app already connected under `requestId`: it reads it
 *   (operation 4) and completes nothing. The engine's `import` resource option and `pulumi import` do not
 *   work for dynamic resources (pulumi/pulumi#16175); declaring the resource without a code is the way.
 *
 * @example
 * ```ts
 * const cfg = new pulumi.Config();
 * const app = new codesec.ScmApp("github", {
 *   deploymentId: "1001",
 *   requestId: "apprq-1001-a",
 *   code: cfg.requireSecret("scmAppCode"),
 * });
 * export const appSlug = app.slug;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ScmApp extends pulumi.dynamic.Resource {
  /**
   * Looks up an existing ScmApp by its id (`<deploymentId>/<key>`), as generated SDKs' `get` does:
   * the engine reads it and records it in the stack as a resource this program does not manage
   * (`pulumi destroy` forgets it and changes nothing). **Experimental**.
   *
   * The lookup uses the stack's default connection (stack config `codesec:baseUrl` and `codesec:token`,
   * else `CODESEC_BASE_URL` and `CODESEC_TOKEN`). It yields the connected app, read with operation 4.
   *
   * @example
   * ```ts
   * const found = codesec.ScmApp.get("github", "1001/<requestId>");
   * ```
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ScmApp {
    return new ScmApp(name, undefined, { ...opts, id });
  }

  constructor(name: string, args: ScmAppArgs, opts?: pulumi.CustomResourceOptions);
  /** @internal A lookup by id: see {@link ScmApp.get}. */
  constructor(
    name: string,
    args: undefined,
    opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> },
  );
  constructor(name: string, args: ScmAppArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider("ScmApp"),
      name,
      declaredProps(scmAppDefinition, args),
      resourceOptions(scmAppDefinition, opts),
      "codesec",
      "ScmApp",
    );
    warnAboutArguments(this, args, opts);
  }
}
