/**
 * Invoke: the package's functions by token (`codesec:index:getScan`), each from its one definition
 * (provider/functions/definitions.ts), with the provider's connection and client settings. Arguments are
 * checked as the program's forms check them (provider/functions/arguments.ts): a bad one answers as a
 * failure naming it, before any call. A function only reads, so a preview calls it too. Arguments and
 * results carry the schema's field names (`configError`), the platform's (`config_error`) only inside
 * (../schemaNames.ts).
 */
import { quotedText } from "../../api/messageText";
import * as grpc from "@grpc/grpc-js";
import { CodeSecInputError } from "../../client/errors";
import { functionArguments } from "../functions/arguments";
import type { FunctionDefinition } from "../functions/definition";
import { FUNCTION_DEFINITIONS, NoArguments } from "../functions/definitions";
import { clientOf } from "../providerContext";
import { toSchemaNames, toWireNames, withSchemaNames } from "../schemaNames";
import { ConfigNotKnownError, withCallContext } from "./callContext";
import type { PluginState } from "./pluginState";
import { fromStruct, toStruct } from "./properties";
import { provider } from "./protocol";
import { StatusError, unary } from "./rpcErrors";

const TOKEN_PREFIX = "codesec:index:";

function functionOf(token: string): FunctionDefinition {
  const name = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  if (!Object.hasOwn(FUNCTION_DEFINITIONS, name)) {
    throw new StatusError({
      name: "Error",
      message: `pulumi-codesec has no function ${quotedText(token)}`,
      code: grpc.status.INVALID_ARGUMENT,
    });
  }
  return FUNCTION_DEFINITIONS[name as keyof typeof FUNCTION_DEFINITIONS];
}

/** The definition with its arguments named as the schema names them, to check them in those names. */
function schemaNamedForm(definition: FunctionDefinition): FunctionDefinition {
  return definition.args === undefined
    ? definition
    : { ...definition, args: withSchemaNames(definition.args) };
}

export function functionHandlers(plugin: PluginState) {
  return {
    invoke: unary(async (request: provider.InvokeRequest) => {
      const definition = functionOf(request.getTok());
      const args = fromStruct(request.getArgs());
      const response = new provider.InvokeResponse();
      let input: Record<string, unknown>;
      try {
        const named = functionArguments(schemaNamedForm(definition), args.values);
        input = toWireNames(definition.args ?? NoArguments, named) as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof CodeSecInputError)) throw error;
        const property = Object.hasOwn(args.values, error.field) ? error.field : "";
        response.addFailures(new provider.CheckFailure().setProperty(property).setReason(error.message));
        return response;
      }
      let result: Awaited<ReturnType<typeof definition.invoke>>;
      try {
        result = await withCallContext(plugin, { urn: "", name: definition.name }, (ctx) =>
          definition.invoke(clientOf(ctx, {}), input as never),
        );
      } catch (error) {
        // A provider configured with a setting still unknown (an explicit Provider at preview): nothing to
        // call with. The engine usually answers such an invoke itself; this is the plugin's own answer.
        if (!(error instanceof ConfigNotKnownError)) throw error;
        response.addFailures(new provider.CheckFailure().setReason(error.message));
        return response;
      }
      // A result computed from a secret argument stays secret.
      const named = toSchemaNames(definition.result, result) as Record<string, unknown>;
      response.setReturn(toStruct(named, () => args.secrets.size > 0));
      return response;
    }),
  };
}
