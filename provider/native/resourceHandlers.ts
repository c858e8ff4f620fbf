/**
 * The resource methods of the ResourceProvider service: Check, Diff, Create, Read, Update and Delete. Like
 * the dynamic provider (provider/dynamic/dynamicProvider.ts), this only translates: the engine's wire
 * form (properties.ts), its preview flag and timeouts, and the state the dynamic provider wrote (with
 * `__provider`), which the schema's aliases hand to this plugin once. Every step is the kinds' generic
 * lifecycle (provider/resources/lifecycle.ts).
 */
import { quotedText } from "../../api/messageText";
import * as grpc from "@grpc/grpc-js";
import { holdsEngineKeys, withoutEngineKeys } from "../dynamic/engineKeys";
import { isLookup } from "../dynamic/lookup";
import { isSecretValue, type ResourceDefinition } from "../resources/definition";
import { ResourceInitError } from "../errors";
import {
  checkResource,
  createResource,
  deleteResource,
  diffResource,
  readResource,
  updateResource,
} from "../resources/lifecycle";
import { plannedCreate, plannedUpdate } from "../resources/plannedState";
import { resourceDefinition } from "../resources/registry";
import { withCallContext } from "./callContext";
import type { PluginState } from "./pluginState";
import { fromStruct, toStruct, type PropertyBag } from "./properties";
import { Empty, provider } from "./protocol";
import { StatusError, initFailureStatus, unary } from "./rpcErrors";

/** The package's resource tokens: `codesec:index:UserRole`. */
const TOKEN_PREFIX = "codesec:index:";

/** The kind of a request, by its type (or, from an older engine, its URN's type). */
function definitionOf(type: string, urn: string): ResourceDefinition {
  const token = type !== "" ? type : (urn.split("::")[2]?.split("$").pop() ?? "");
  const definition = token.startsWith(TOKEN_PREFIX)
    ? resourceDefinition(token.slice(TOKEN_PREFIX.length))
    : undefined;
  if (definition === undefined) {
    throw new StatusError({
      name: "Error",
      message: `pulumi-codesec has no resource type ${quotedText(token)}`,
      code: grpc.status.INVALID_ARGUMENT,
    });
  }
  return definition;
}

/**
 * Which properties leave secret: every one the kind declares secret (for its value: the object form of
 * `connection` holds a token), and every one that came in secret in `bags`.
 */
function secretRule(definition: ResourceDefinition, ...bags: ReadonlySet<string>[]) {
  return (name: string, value: unknown) =>
    bags.some((secrets) => secrets.has(name)) || isSecretValue(definition, name, value);
}

/** The secrets of a stored state that are outputs only: an input's secrecy follows its new value. */
function outputSecrets(definition: ResourceDefinition, state: PropertyBag): Set<string> {
  return new Set([...state.secrets].filter((name) => !Object.hasOwn(definition.inputs, name)));
}

const PropertyDiffKind = provider.PropertyDiff.Kind;

/** The detailed diff's kind of one changed input, from its value before and after. */
function propertyDiffKind(replace: boolean, old: unknown, next: unknown): provider.PropertyDiff.Kind {
  if (old === undefined) return replace ? PropertyDiffKind.ADD_REPLACE : PropertyDiffKind.ADD;
  if (next === undefined) return replace ? PropertyDiffKind.DELETE_REPLACE : PropertyDiffKind.DELETE;
  return replace ? PropertyDiffKind.UPDATE_REPLACE : PropertyDiffKind.UPDATE;
}

export function resourceHandlers(plugin: PluginState) {
  return {
    check: unary(async (request: provider.CheckRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const news = fromStruct(request.getNews());
      const outcome = await withCallContext(
        plugin,
        { urn: request.getUrn(), name: "Check", plansOnly: true },
        (ctx) => checkResource(definition, news.values, ctx),
      );
      const response = new provider.CheckResponse();
      response.setInputs(toStruct(outcome.inputs, secretRule(definition, news.secrets)));
      for (const failure of outcome.failures ?? []) {
        response.addFailures(
          new provider.CheckFailure().setProperty(failure.property).setReason(failure.reason),
        );
      }
      return response;
    }),

    diff: unary(async (request: provider.DiffRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const olds = fromStruct(request.getOlds()).values;
      const news = fromStruct(request.getNews()).values;
      const plan = await withCallContext(
        plugin,
        { urn: request.getUrn(), name: "Diff", plansOnly: true },
        async (ctx) =>
          diffResource(definition, request.getId(), withoutEngineKeys(olds), withoutEngineKeys(news), ctx),
      );
      // A state the dynamic provider wrote holds its `__provider`: one update, with no call, drops it.
      const fromDynamicProvider =
        holdsEngineKeys(olds) || holdsEngineKeys(fromStruct(request.getOldInputs()).values);
      const response = new provider.DiffResponse();
      response.setChanges(
        plan.changes || fromDynamicProvider
          ? provider.DiffResponse.DiffChanges.DIFF_SOME
          : provider.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setReplacesList(plan.replaces);
      response.setStablesList(plan.stables);
      response.setDeletebeforereplace(plan.replaces.length > 0 && definition.deleteBeforeReplace === true);
      // Per property, only differences between the state and the new inputs: a change the state asks for
      // (drift to record, an older state's shape) is an update with no input to show.
      const detailed = response.getDetaileddiffMap();
      for (const change of plan.changed) {
        if (change.fromState) continue;
        const kind = propertyDiffKind(change.kind === "replace", olds[change.name], news[change.name]);
        detailed.set(change.name, new provider.PropertyDiff().setKind(kind).setInputdiff(false));
      }
      response.setDiffsList([...detailed.keys()]);
      response.setHasdetaileddiff(true);
      return response;
    }),

    create: unary(async (request: provider.CreateRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const inputs = fromStruct(request.getProperties());
      const secret = secretRule(definition, inputs.secrets);
      const response = new provider.CreateResponse();
      const call = {
        urn: request.getUrn(),
        name: "Create",
        timeoutSeconds: request.getTimeout(),
        plansOnly: request.getPreview(),
      };
      await withCallContext(plugin, call, async (ctx) => {
        if (request.getPreview()) {
          response.setProperties(toStruct(plannedCreate(definition, inputs.values, ctx), secret));
          return;
        }
        const { id, state } = await recordingInitFailure(
          () => createResource(definition, inputs.values, ctx),
          secret,
        );
        response.setId(id);
        response.setProperties(toStruct(state, secret));
      });
      return response;
    }),

    read: unary(async (request: provider.ReadRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const stored = fromStruct(request.getProperties());
      const storedInputs = fromStruct(request.getInputs());
      const state = withoutEngineKeys(stored.values);
      // `pulumi import`, the `import` option and a lookup by id (`X.get`) send no state.
      const lookup = isLookup(state);
      const id = request.getId();
      const found = await withCallContext(plugin, { urn: request.getUrn(), name: "Read" }, (ctx) =>
        readResource(definition, id, lookup ? undefined : state, ctx),
      );
      const response = new provider.ReadResponse();
      // Gone from the platform: an empty id tells the engine to drop it.
      if ("gone" in found) return response;
      const secret = secretRule(definition, stored.secrets, storedInputs.secrets);
      response.setId(id);
      response.setProperties(toStruct(found.state, secret));
      // The inputs to keep: the kind's, or else the stored ones without the dynamic provider's key.
      const inputs =
        found.inputs ?? (request.hasInputs() ? withoutEngineKeys(storedInputs.values) : undefined);
      if (inputs !== undefined) response.setInputs(toStruct(inputs, secret));
      return response;
    }),

    update: unary(async (request: provider.UpdateRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const olds = fromStruct(request.getOlds());
      const news = fromStruct(request.getNews());
      const secret = secretRule(definition, news.secrets, outputSecrets(definition, olds));
      const [state, inputs] = [withoutEngineKeys(olds.values), withoutEngineKeys(news.values)];
      const id = request.getId();
      const response = new provider.UpdateResponse();
      const call = {
        urn: request.getUrn(),
        name: "Update",
        timeoutSeconds: request.getTimeout(),
        plansOnly: request.getPreview(),
      };
      await withCallContext(plugin, call, async (ctx) => {
        const updated = request.getPreview()
          ? plannedUpdate(definition, id, state, inputs, ctx)
          : await recordingInitFailure(() => updateResource(definition, id, state, inputs, ctx), secret);
        response.setProperties(toStruct(updated, secret));
      });
      return response;
    }),

    delete: unary(async (request: provider.DeleteRequest) => {
      const definition = definitionOf(request.getType(), request.getUrn());
      const state = withoutEngineKeys(fromStruct(request.getProperties()).values);
      const call = { urn: request.getUrn(), name: "Delete", timeoutSeconds: request.getTimeout() };
      await withCallContext(plugin, call, (ctx) => deleteResource(definition, request.getId(), state, ctx));
      return new Empty();
    }),
  };
}

/** Runs a create or update; a failure after part of it applied answers with what to record. */
async function recordingInitFailure<T>(
  step: () => Promise<T>,
  secret: (name: string, value: unknown) => boolean,
) {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ResourceInitError) {
      // `instanceof` leaves the kind's properties type open (any): they are a record of state values.
      const failure = error as ResourceInitError;
      throw initFailureStatus(failure, toStruct(failure.properties, secret));
    }
    throw error;
  }
}
