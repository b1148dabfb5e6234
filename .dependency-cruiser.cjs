/* global module */
// The import rules of the web app and the gateway (docs/ARCHITECTURE.md, "Import rules").
// `npm run lint:imports` checks them (part of `npm run lint`, so CI does); scripts/import-rules.test.ts
// proves each rule reports a violation on a small fixture.
//
// Layers of web/src, lowest first: gql, i18n, lib, components, editor → features → app → main.tsx.
// A lower layer never imports a higher one. A feature imports only its own files and the lower
// layers, with the exceptions listed in ALLOWED_CROSS_FEATURE below. The gateway's features
// (gateway/src/schema/<feature>/) follow the same rule, with GATEWAY_ALLOWED_CROSS_FEATURE.

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
 * The gateway's features (gateway/src/schema/<feature>/) likewise import only their own files, the
 * schema's own modules (schema/*.ts, __generated__/) and the lower layers, with these exceptions. What
 * several features need otherwise lives in its own home below schema/: writeAsCaller in
 * pocketbase/write.ts, slugs in pocketbase/slugs.ts, OR-chained filters in pocketbase/filters.ts, media
 * reads in pocketbase/media.ts, renderBody in markdown/body.ts, the CSV writer in @flock/shared/csv.
 * - users/mappers.ts: the permission check (hasPermission) several features' guards still use; the
 *   per-feature policies in access/ take its place.
 * - users/sessions.ts: ending a person's sessions; a password change (auth) ends the others, as a
 *   suspension (users) ends all.
 * - people/loaders.ts: the batched reads of people (names, households, photos); a prayer request's
 *   requester and a visit request's match are shown from them, under the same rules.
 * - people/mappers.ts: how a person's name and photo are shown (a group's roster and leaders).
 * - people/person-mutations.ts: creating a person; a visit request becomes a person as staff create one.
 * - people/invitations.ts: a sign-up with a household invitation joins that household (auth).
 * - groups/own-rows.ts: a person's own group memberships; their personal calendar feed (events)
 *   carries their groups' events.
 * - serving/calendar.ts: the places a person serves; their personal calendar feed (events) carries them.
 * - events/reads.ts: an event's occurrence as the caller may see it; a serving plan links the occurrence
 *   it serves (checked to exist, shown as events show it).
 */
const GATEWAY_ALLOWED_CROSS_FEATURE = [
  "^gateway/src/schema/users/(mappers|sessions)\\.ts$",
  "^gateway/src/schema/people/(loaders|mappers|person-mutations|invitations)\\.ts$",
  "^gateway/src/schema/groups/own-rows\\.ts$",
  "^gateway/src/schema/serving/calendar\\.ts$",
  "^gateway/src/schema/events/reads\\.ts$",
];

/** Circles that exist and are not ours to break yet; only files named here may sit on a circle. */
const KNOWN_CIRCLES = [];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import circles make load order matter and hide which module owns what; break the circle by moving the shared part down.",
      from: KNOWN_CIRCLES.length ? { pathNot: KNOWN_CIRCLES } : {},
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
      comment:
        "pocketbase/, validation/, mail/, markdown/, session/, realtime/ and system/ are used by the features: they never import schema/ (move the needed part down).",
      from: { path: "^gateway/src/(pocketbase|validation|mail|markdown|session|realtime|system)/" },
      to: { path: "^gateway/src/schema/" },
    },
    {
      name: "gateway-http-through-route-table",
      severity: "error",
      comment:
        "http/ is the gateway's feature-free HTTP layer: a feature declares its routes and page meta in schema/<feature>/routes.ts, and server.ts composes them (schema/routes.ts); http/ never imports schema/.",
      from: { path: "^gateway/src/http/" },
      to: { path: "^gateway/src/schema/" },
    },
    {
      name: "gateway-feature-isolation",
      severity: "error",
      comment:
        "A gateway feature imports another feature only through GATEWAY_ALLOWED_CROSS_FEATURE (.dependency-cruiser.cjs); move what both need below schema/ (pocketbase/, markdown/, …) or declare it there with a reason.",
      from: { path: "^gateway/src/schema/([^/]+)/" },
      to: {
        path: "^gateway/src/schema/[^/]+/",
        pathNot: [
          "^gateway/src/schema/$1/",
          "^gateway/src/schema/__generated__/",
          ...GATEWAY_ALLOWED_CROSS_FEATURE,
        ],
      },
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
