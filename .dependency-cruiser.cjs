/* global module */
// The import rules of the web app and the gateway (docs/ARCHITECTURE.md, "Import rules").
// `npm run lint:imports` checks them (part of `npm run lint`, so CI does); scripts/import-rules.test.ts
// proves each rule reports a violation on a small fixture.
//
// Layers of web/src, lowest first: gql, i18n, lib, components, editor → features → app → main.tsx.
// A lower layer never imports a higher one. A feature imports only its own files and the lower
// layers, with the exceptions listed in ALLOWED_CROSS_FEATURE below.

/**
 * The only ways one feature may reach into another, each for a reason:
 * - features/errors/: the shared error screens (not found, the error boundary) every feature renders.
 * - features/<f>/<name>.generated.ts: another feature's GraphQL operations (typed documents, hooks).
 *   Operations are the feature's public contract with the gateway; reusing one keeps a single
 *   definition (e.g. the member's "resend verification" from auth).
 * - features/home/ → another feature's public and member screens (features/<f>/*, never <f>/admin/):
 *   the front page shows a piece of each feature (the latest news, the latest sermon).
 * Everything else a second feature needs moves down into components/, lib/ or i18n/.
 */
const ALLOWED_CROSS_FEATURE = [
  "^web/src/features/errors/",
  "^web/src/features/[^/]+/[^/]+\\.generated\\.ts$",
];

/**
 * Circles that exist and are not ours to break in this change (the gateway's http/ layer); remove an
 * entry when its circle is gone. Only files named here may sit on a circle.
 */
const KNOWN_CIRCLES = ["^gateway/src/http/(app-html|route-meta)\\.ts$"];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import circles make load order matter and hide which module owns what; break the circle by moving the shared part down.",
      from: { pathNot: KNOWN_CIRCLES },
      to: { circular: true },
    },
    {
      name: "shared-layers-not-upward",
      severity: "error",
      comment:
        "components/, lib/, i18n/, gql/ and editor/ are used by every feature: they never import app/ or features/ (move the needed part down, or the importer up).",
      from: { path: "^web/src/(components|lib|i18n|gql|editor)/" },
      to: { path: "^web/src/(app|features)/|^web/src/main\\.tsx$" },
    },
    {
      name: "features-not-app",
      severity: "error",
      comment:
        "app/ composes the features (routes, guards, layout); a feature never imports app/ or main.tsx.",
      from: { path: "^web/src/features/" },
      to: { path: "^web/src/app/|^web/src/main\\.tsx$" },
    },
    {
      name: "feature-isolation",
      severity: "error",
      comment:
        "A feature imports another feature only through the paths in ALLOWED_CROSS_FEATURE (.dependency-cruiser.cjs); move shared code down to components/, lib/ or i18n/.",
      from: { path: "^web/src/features/([^/]+)/", pathNot: "^web/src/features/home/" },
      to: { path: "^web/src/features/", pathNot: ["^web/src/features/$1/", ...ALLOWED_CROSS_FEATURE] },
    },
    {
      name: "public-not-admin",
      severity: "error",
      comment:
        "Staff screens (features/<f>/admin/) ship in their own lazy chunks: a public or member screen (home included) never imports them, so visitors never download staff code.",
      from: { path: "^web/src/features/[^/]+/[^/]+$" },
      to: { path: "^web/src/features/[^/]+/admin/" },
    },
    {
      name: "web-not-gateway",
      severity: "error",
      comment: "The web app and the gateway share code only through @flock/shared (shared/src).",
      from: { path: "^web/" },
      to: { path: "^gateway/" },
    },
    {
      name: "gateway-not-web",
      severity: "error",
      comment: "The web app and the gateway share code only through @flock/shared (shared/src).",
      from: { path: "^gateway/" },
      to: { path: "^web/" },
    },
    {
      name: "shared-stands-alone",
      severity: "error",
      comment: "@flock/shared is imported by both sides and imports neither.",
      from: { path: "^shared/" },
      to: { path: "^(web|gateway)/" },
    },
    {
      name: "gateway-lower-layers-not-schema",
      severity: "error",
      comment: "pocketbase/, validation/ and mail/ are used by the resolvers: they never import schema/.",
      from: { path: "^gateway/src/(pocketbase|validation|mail)/" },
      to: { path: "^gateway/src/schema/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|__generated__)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
