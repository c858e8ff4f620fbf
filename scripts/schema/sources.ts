/**
 * What codesec's Pulumi schema is made from: the resource kinds, the functions, the provider's
 * configuration, and the names of the types nested in them. scripts/schema.ts turns these into
 * `schema.json`; nothing there reads the provider's modules directly.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TObject } from "@sinclair/typebox";
import { OrgRole as OrgRoleSchema } from "../../api/schemas/common";
import { FeatureFlag, JoinableOrganization, OrganizationFeatures, AuthDetail } from "../../api/schemas/users";
import { FindingsCounts } from "../../api/schemas/scans";
import { GhaOptions, ProvisionError, ProvisionFilters } from "../../api/schemas/provisioning";
import { NotificationRule, NotificationRuleFilters } from "../../api/schemas/notificationRules";
import { ConnectionObject } from "../../provider/connection";
import { OrgRole } from "../../provider/enums";
import { ProviderConfig } from "../../provider/providerConfig";
import { RESOURCE_KINDS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { SECRET_INPUTS } from "../../provider/secretInputs";
import { FUNCTION_DOCS } from "../docs";
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

// ------------------------------------------------------------------------------------------------------
// ADAPTER: the one place that reads the registry of resource kinds and the functions' schemas
// (FUNCTION_DOCS). When the kinds become one definition each, point this function at the definitions
// (name, description, inputs and outputs with their `onChange` and `secret`); nothing else changes.
// ------------------------------------------------------------------------------------------------------
export function schemaSources(root: string = REPOSITORY_ROOT): SchemaSources {
  const resources = RESOURCE_KIND_NAMES.map((name): ResourceSource => {
    const kind = RESOURCE_KINDS[name];
    return {
      name,
      description: summaryOf(path.join(root, `provider/resources/${lowerFirst(name)}/docs.md`)),
      inputs: kind.inputs,
      outputs: kind.outputs,
      replaceOnChanges: kind.changes.replace,
      // `connection` holds a secret only in its deprecated object form: the `Connection` type's token is
      // marked secret instead, so that a connection name stays readable.
      secretInputs: SECRET_INPUTS.filter(
        (field) => field !== "connection" && field in kind.inputs.properties,
      ),
    };
  });
  const functions = Object.entries(FUNCTION_DOCS).map(([name, { args, result }]): FunctionSource => ({
    name,
    description: summaryOf(path.join(root, `provider/functions/${name}.md`)),
    ...(args === undefined ? {} : { args }),
    result,
  }));
  return { resources, functions };
}
// ------------------------------------------------------------------------------------------------------ end of the adapter

const REPOSITORY_ROOT = path.resolve(__dirname, "../..");

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

/**
 * The first paragraph of a reference doc's source (after its title), on one line, without the sentence
 * that gives the dynamic resource's type token: the native resource has its own.
 */
function summaryOf(file: string): string {
  const [, paragraph = ""] = fs.readFileSync(file, "utf8").split(/\n\s*\n/);
  return paragraph
    .replace(/\s*\n\s*/g, " ")
    .split(/(?<=\.)\s+(?=[A-Z])/)
    .filter((sentence) => !sentence.startsWith("Type token "))
    .join(" ")
    .trim();
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
