/**
 * What a kind implements beside its definition: the calls to the platform. Both providers (the dynamic
 * resources and the native plugin) call these, through the generic check, diff and lifecycle steps
 * (provider/resources/lifecycle.ts), so one implementation serves both.
 */
import type { TObject } from "@sinclair/typebox";
import type { InputField } from "./definition";
import type { ProviderContext } from "../providerContext";
import type { Ownership } from "../ownership";

/**
 * What a kind's calls get: the provider's context, how messages name the kind, and its input fields, from
 * which the arguments of its operations follow (./operationArguments.ts).
 */
export interface KindContext extends ProviderContext {
  /** `codesec:UserRole`: the type label of the kind's definition (its `name`). */
  readonly type: string;
  /** The definition's inputs. */
  readonly inputFields: Readonly<Record<string, InputField>>;
}

/** What the generic update decided before calling the kind. */
export interface UpdatePlan {
  /**
   * Whether to apply the resource again on the platform: an input whose change applies again (`update`)
   * changed, the resource is moving to another platform, or the state asks for it (a failed apply).
   */
  readonly reapply: boolean;
  /** Where the resource belongs (provider/ownership.ts). */
  readonly ownership: Ownership;
}

/** What a read found. */
export type ReadOutcome<State> =
  | {
      readonly state: State;
      /**
       * The inputs the engine should keep, when they must change with the state (a UserRole's role read
       * back: the plan then reads `~ role: "read" => "declared"`).
       */
      readonly inputs?: Record<string, unknown>;
    }
  /** Gone from the platform (its own answer): refresh drops it. */
  | { readonly gone: true };

export interface KindImplementation<Inputs, State> {
  /**
   * The arguments schemas of the operations that send the resource's inputs: each call takes its arguments
   * from the inputs with `operationArguments` (./operationArguments.ts), so the inputs these name (by their
   * own name or the one they are sent as) are the ones sent.
   */
  readonly sentArguments: readonly TObject[];
  /**
   * After a valid `check` (both providers): e.g. UserRole records the users the program declares. What it
   * returns are more check failures (a user declared by both a UserRole and a UserRoles).
   */
  checked?(inputs: Inputs, ctx: KindContext): { path: string; reason: string }[] | void;
  /**
   * Problems the field schemas cannot express (a map's keys, a limit across fields), found at `check` with
   * the same rules the client applies at apply: the path of each (`roles["a/b"]`) and what is wrong.
   */
  inputProblems?(inputs: Inputs): { path: string; reason: string }[];
  /** Request bodies to check for size at `check`, as the client will at apply (WorkflowProvisioning). */
  requestBodies?(inputs: Inputs, ctx: KindContext): [import("../../api/operations").OperationKey, unknown][];
  /**
   * A change the state itself asks for, whatever the inputs: drift recorded by refresh that `up` records
   * (ScmApp), an older state's shape, a failed apply to apply again. Listed under these property names.
   */
  pendingChanges?(state: State, news: Inputs): string[];
  create(inputs: Inputs, ctx: KindContext): Promise<{ id: string; state: Omit<State, "platform"> }>;
  update(
    id: string,
    olds: State,
    news: Inputs,
    plan: UpdatePlan,
    ctx: KindContext,
  ): Promise<Omit<State, "platform">>;
  /** `state` is undefined for an import (a lookup by id), which the kind's import rule allows. */
  read(id: string, state: State | undefined, ctx: KindContext): Promise<ReadOutcome<Omit<State, "platform">>>;
  delete(id: string, state: State, ctx: KindContext): Promise<void>;
}
