// Flat config: typescript-eslint's recommended type-aware rules (they read the types through the
// TypeScript project service, so they catch unsafe `any`, floating promises and needless assertions),
// with Prettier owning formatting.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

export default tseslint.config(
  {
    ignores: [
      "**/dist/",
      "node_modules/",
      "coverage/",
      ".tools/",
      ".bench-tmp/",
      "examples/*/node_modules/",
      // Generated (npm run generate), with its own tsconfig: lint compiles it with that.
      "sdk/nodejs/",
      // Generated docs examples (npm run generate): type-checked by tests/unit/docs.examples.test.ts.
      "docs/examples/",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
      "no-console": "off",
      // An async function turns a synchronous throw into a rejection: the dynamic providers' methods and
      // handlers rely on that, whether or not they await anything.
      "@typescript-eslint/require-await": "off",
      // Resource classes take their output properties from the shape by interface merging.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
  prettier,
);
