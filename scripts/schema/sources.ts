/**
 * What codesec's Pulumi schema is made from: the resource kinds, the functions, the provider's
 * configuration, and the names of the types nested in them. scripts/schema.ts turns these into
 * `schema.json`; nothing there reads the provider's modules directly.
 */
import type { TObject } from "@sinclair/typebox";
import { OrgRole as OrgRoleSchema } from "../../api/schemas/common";
import { FeatureFlag, JoinableOrganization, OrganizationFeatures, AuthDetail } from "../../api/schemas/users";
import { FindingsCounts } from "../../api/schemas/scans";
import { GhaOptions, ProvisionError, ProvisionFilters } from "../../api/schemas/provisioning";
import { NotificationRule, NotificationRuleFilters } from "../../api/schemas/notificationRules";
import { ConnectionObject } from "../../provider/connection";
import { OrgRole } from "../../provider/enums";
import { ProviderConfig } from "../../provider/providerConfig";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import {
  inputShape,
  inputsWhoseChange,
  outputShape,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import type { FunctionDefinition } from "../../provider/functions/definition";
import type { NamedTypes } from "./typeboxToSchema";

/** What the schema needs of one resource kind. */
export interface ResourceSource {
  /** `UserRole`: the token `codesec:index:UserRole`, the alias `pulumi-nodejs:dynamic/codesec:UserRole`. */
  readonly name: string;
  /** Markdown. */
  readonly description: string;
  /** The inputs, each with its description. */
  readonly inputs: TObject;
  /** The outputs beyond the inputs, each with its description. */
  readonly outputs: TObject;
  /** The inputs whose change replaces the resource (its identity). */
  readonly replaceOnChanges: readonly string[];
  /** The inputs stored only as secrets, beyond those whose schema is marked `secretValue`. */
  readonly secretInputs: readonly string[];
  /** The inputs used by create only and never kept in the state (no output property). */
  readonly writeOnlyInputs: readonly string[];
}

/** What the schema needs of one function. */
export interface FunctionSource {
  /** `getScan`: the token `codesec:index:getScan`. */
  readonly name: string;
  /** Markdown. */
  readonly description: string;
  /** Absent when the function takes no arguments. */
  readonly args?: TObject;
  readonly result: TObject;
}

export interface SchemaSources {
  readonly resources: readonly ResourceSource[];
  readonly functions: readonly FunctionSource[];
}

/**
 * The one place that reads the definitions: each kind's (provider/resources/<kind>/definition.ts) and
 * each function's (provider/functions/definitions.ts).
 */
export function schemaSources(): SchemaSources {
  const resources = RESOURCE_KIND_NAMES.map((name): ResourceSource => {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[name];
    return {
      name,
      description: `${definition.description}\n\nPlatform: ${definition.operations}.`,
      inputs: inputShape(definition),
      outputs: outputShape(definition),
      replaceOnChanges: inputsWhoseChange(definition, "replace"),
      // Only inputs that are always secret: `connection` holds one only in its deprecated object form, so
      // the `Connection` type's token is marked secret instead and a connection name stays readable.
      secretInputs: Object.entries(definition.inputs)
        .filter(([, field]) => field.secret === true)
        .map(([field]) => field),
      writeOnlyInputs: Object.entries(definition.inputs)
        .filter(([, field]) => field.writeOnly === true)
        .map(([field]) => field),
    };
  });
  const functions = Object.values<FunctionDefinition>(FUNCTION_DEFINITIONS).map(
    ({ name, description, operations, args, result }): FunctionSource => ({
      name,
      description: `${description}\n\nPlatform: ${operations}.`,
      ...(args === undefined || Object.keys(args.properties).length === 0 ? {} : { args }),
      result,
    }),
  );
  return { resources, functions };
}

/** The provider's configuration: `config.variables` and the Provider resource's inputs. */
export const CONFIG_SOURCE: TObject = ProviderConfig;

/** The names of the object and enum types nested in the resources, functions and config. */
export const NAMED_TYPES: NamedTypes = {
  objects: {
    AuthDetail,
    Connection: ConnectionObject,
    FeatureFlag,
    FindingsCounts,
    GhaOptions,
    JoinableOrganization,
    NotificationRule,
    NotificationRuleFilters,
    OrganizationFeatures,
    ProvisionError,
    ProvisionFilters,
  },
  enums: {
    OrgRole: {
      schema: OrgRoleSchema,
      members: OrgRole,
      description: "The organization roles a user can hold in a deployment.",
    },
  },
};
