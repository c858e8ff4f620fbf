/**
 * The folder of a resource kind under provider/resources (and dist/provider/resources), where its
 * definition, implementation, docs and examples are: the kind's name with a lower-case first letter
 * (`UserRole` -> `userRole`). What is generated for the kind is apart (provider/generatedLayout.ts).
 *
 * @example
 * `provider/resources/${kindFolder("ScmApp")}/docs.md`; // provider/resources/scmApp/docs.md
 */
export function kindFolder(kind: string): string {
  return `${kind[0].toLowerCase()}${kind.slice(1)}`;
}
