/**
 * The folder of a resource kind under provider/resources (and dist/provider/resources), where its
 * definition, docs, examples, generated class and entry module are: the kind's name with a lower-case
 * first letter (`UserRole` -> `userRole`). It imports nothing, so the program side (the stub,
 * provider/dynamic/stubProvider.ts) uses it without loading the registry's definitions.
 *
 * @example
 * `provider/resources/${kindFolder("ScmApp")}/docs.md`; // provider/resources/scmApp/docs.md
 */
export function kindFolder(kind: string): string {
  return `${kind[0].toLowerCase()}${kind.slice(1)}`;
}
