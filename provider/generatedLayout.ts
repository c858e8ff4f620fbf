/**
 * Where `npm run generate` writes the dynamic package's TypeScript: under provider/generated/, apart from
 * the hand-written code, one file per kind or function, named after it. It imports nothing, so the program
 * side (the stub, provider/dynamic/stubProvider.ts) uses it without loading the definitions.
 *
 * @example
 * engineEntryFile("ScmApp"); // provider/generated/engineEntries/ScmApp.ts
 */
export const GENERATED_DIR = "provider/generated";

/** A kind's `pulumi.dynamic.Resource` class with its Args interface. */
export function resourceClassFile(kind: string): string {
  return `${GENERATED_DIR}/resources/${kind}.ts`;
}

/** A kind's entry module, what the engine loads: the package subpath `pulumi-codesec/dynamic/<Kind>`. */
export function engineEntryFile(kind: string): string {
  return `${GENERATED_DIR}/engineEntries/${kind}.ts`;
}

/** A function's Promise and Output forms with their argument and result types. */
export function functionFile(name: string): string {
  return `${GENERATED_DIR}/functions/${name}.ts`;
}

/** Where the build compiles a source file of the package (`tsconfig.build.json`): `dist/<file>.js`. */
export function compiledFile(file: string): string {
  return `dist/${file.replace(/\.ts$/, ".js")}`;
}
