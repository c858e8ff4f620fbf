/**
 * The platform's API, defined once (`pulumi-codesec/api`): the catalogue of the ten operations, the
 * request and response schemas (TypeBox), and the one formatter of schema failures. The client
 * (`pulumi-codesec/sdk`), the provider's resource shapes and the emulator package (`codesec-emulator`)
 * all build on these definitions, so the three can never disagree on what the API accepts.
 */
export * from "./operations";
export * from "./schemas";
export * from "./schemaIssues";
export * from "./nestingDepth";
