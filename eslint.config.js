// ESLint flat config: the recommended JavaScript and typescript-eslint rules, Prettier owns layout.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "coverage/**",
      "scratch/**",
      ".snippets/**",
      "test-artifacts/**",
      "**/*.bundle.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      // Unused names are an error unless they say they are unused on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Nothing of ours registers or sets anything up on import: a module that needs a registry or
      // options is handed them. The one exception is the Node 20 WebSocket polyfill, which must run
      // before Colyseus loads. (The direction of imports is dependency-cruiser's: .dependency-cruiser.js.)
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[specifiers.length=0][source.value=/^\\.\\.?\\//]:not([source.value=/\\/node20\\.js$/])",
          message:
            "No side-effect-only import of our own modules: import the names you use (nothing registers on import).",
        },
      ],
    },
  },
);
