import type { ScmApp } from "../../api/schemas/scm";
import { getScmAppDefinition } from "./definitions";
import { invokeFunction, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

/** Arguments of {@link getScmApp}. */
export interface GetScmAppArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** The SCM app request id the app was connected with. */
  requestId: string;
}

/**
 * Reads an SCM app by its request id (operation 4, `GET
 * /api/scm/deployments/{deploymentId}/scm_apps/{requestId}`). **Experimental**.
 *
 * @example
 * ```ts
 * const app = await codesec.getScmApp({ deploymentId: "1001", requestId: "apprq-1001-done" });
 * console.log(app.slug, app.codeAccess);
 * ```
 */
/** Result of {@link getScmApp}. */
export type GetScmAppResult = ScmApp;

export async function getScmApp(args: GetScmAppArgs, opts?: CodeSecInvokeOptions): Promise<GetScmAppResult> {
  return invokeFunction(getScmAppDefinition, args, opts);
}

/**
 * Output form of {@link getScmApp}. **Experimental**.
 *
 * @example
 * ```ts
 * export const appSlug = codesec.getScmAppOutput({ deploymentId, requestId: app.requestId }).slug;
 * ```
 */
export const getScmAppOutput = outputForm(getScmApp);
