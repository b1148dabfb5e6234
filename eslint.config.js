import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/__generated__/**",
      "web/src/gql/**",
      "web/src/**/*.generated.ts",
      "pb_data/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    // What Node runs as it is in production (the gateway image has no TypeScript loader: Node 24 strips
    // the types): only TypeScript syntax that erasing types leaves valid JavaScript. Parameter
    // properties, enums, namespaces and `import x = require()` need a compiler (Node refuses them with
    // ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX; gateway/test/docker-image.int.test.ts starts the image's files).
    files: [
      "gateway/src/**/*.ts",
      "shared/src/**/*.ts",
      "scripts/ensure-admin.ts",
      "scripts/lib/accounts.ts",
    ],
    rules: {
      "@typescript-eslint/parameter-properties": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSEnumDeclaration",
          message: "Node's type stripping cannot run an enum: use a union of strings.",
        },
        {
          selector: "TSModuleDeclaration[declare!=true]",
          message: "Node's type stripping cannot run a namespace.",
        },
        {
          selector: "TSImportEqualsDeclaration",
          message: "Node's type stripping cannot run `import x = require()`.",
        },
      ],
    },
  },
  {
    // PocketBase's JS migrations and hooks run inside PocketBase (goja), with its globals.
    files: ["pb_migrations/**/*.js", "pb_hooks/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: Object.fromEntries(
        [
          "migrate",
          "Collection",
          "Record",
          "RelationField",
          "SelectField",
          "TextField",
          "FileField",
          "NumberField",
          "JSONField",
          "BoolField",
          "DateField",
          "$os",
          "$app",
          "$apis",
          "$security",
          "$dbx",
          "__hooks",
          "require",
          "module",
          "cronAdd",
          "routerAdd",
          "onRecordCreate",
          "onRecordUpdate",
          "onRecordDelete",
          "onRecordCreateRequest",
          "onRecordUpdateRequest",
          "onMailerRecordVerificationSend",
          "onMailerRecordPasswordResetSend",
          "onMailerRecordAuthAlertSend",
          "DynamicModel",
          "DateTime",
          "BadRequestError",
          "NotFoundError",
          "ForbiddenError",
          "ValidationError",
          "arrayOf",
          "Command",
          "toString",
        ].map((name) => [name, "readonly"]),
      ),
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { caughtErrors: "none" }],
      "@typescript-eslint/triple-slash-reference": "off",
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // The integrators' examples: plain Node ES modules, run as they are.
    files: ["examples/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
  {
    files: ["scripts/codegen/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
