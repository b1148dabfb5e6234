import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The import rules of .dependency-cruiser.cjs (`npm run lint:imports`) bite: dependency-cruiser runs
// with the project's own config on a tiny tree that breaks each rule once, next to imports the rules
// allow, and must report exactly the broken ones (a circle once, from its first file).

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const config = join(root, ".dependency-cruiser.cjs");

/** file → its imports (relative specifiers); every file is an ES module. */
const FIXTURE: Record<string, string[]> = {
  "web/src/gql/types.ts": [],
  "web/src/lib/ok.ts": ["../gql/types.ts"],
  // shared layers never import upward
  "web/src/lib/upward.ts": ["../features/prayer/PrayerPage.ts"],
  "web/src/components/Shell.ts": ["../app/guards.ts"],
  "web/src/app/guards.ts": [],
  // app composes features: allowed
  "web/src/app/routes.ts": [
    "../features/prayer/PrayerPage.ts",
    "../features/prayer/admin/AdminPrayerPage.ts",
  ],
  // a circle inside one feature
  "web/src/features/prayer/PrayerPage.ts": ["./PrayerCard.ts", "../../lib/ok.ts"],
  "web/src/features/prayer/PrayerCard.ts": ["./PrayerPage.ts"],
  "web/src/features/prayer/prayer.generated.ts": ["../../gql/types.ts"],
  // staff screens may import their feature's public files; the reverse is refused
  "web/src/features/prayer/admin/AdminPrayerPage.ts": ["../PrayerCard.ts", "../../../app/guards.ts"],
  "web/src/features/prayer/MyRequests.ts": ["./admin/AdminPrayerPage.ts"],
  // another feature: its operations and the error screens are allowed, its internals are not
  "web/src/features/errors/NotFoundPage.ts": [],
  "web/src/features/notifications/Bell.ts": [
    "../prayer/prayer.generated.ts",
    "../errors/NotFoundPage.ts",
    "../prayer/PrayerCard.ts",
  ],
  // the front page shows other features' public screens, never their staff screens
  "web/src/features/home/HomePage.ts": ["../prayer/PrayerCard.ts", "../prayer/admin/AdminPrayerPage.ts"],
  // gateway layers
  "gateway/src/schema/prayer/resolvers.ts": ["../../mail/mailer.ts"],
  "gateway/src/mail/mailer.ts": ["../schema/prayer/resolvers.ts"],
  "gateway/src/web-peek.ts": ["../../web/src/gql/types.ts"],
  // gateway features: their own files, the schema's modules, the lower layers and the declared shared
  // modules are allowed; another feature's internals are not
  "gateway/src/schema/events/loaders.ts": [],
  "gateway/src/schema/events/resolvers.ts": [
    "./loaders.ts",
    "../pagination.ts",
    "../__generated__/types.ts",
    "../../pocketbase/write.ts",
    "../groups/own-rows.ts",
    "../groups/resolvers.ts",
  ],
  "gateway/src/schema/pagination.ts": [],
  "gateway/src/schema/__generated__/types.ts": [],
  "gateway/src/schema/groups/own-rows.ts": [],
  "gateway/src/schema/groups/resolvers.ts": [],
  "gateway/src/schema/groups/routes.ts": ["../../http/route-table.ts"],
  "gateway/src/pocketbase/write.ts": [],
  // http/ is feature-free: features reach it through the route table that server.ts composes
  "gateway/src/http/route-table.ts": [],
  "gateway/src/http/feeds.ts": ["../schema/events/loaders.ts"],
  "gateway/src/schema/routes.ts": ["./groups/routes.ts"],
  "gateway/src/server.ts": ["./schema/routes.ts", "./http/route-table.ts"],
  // the layers below the features never import them
  "gateway/src/markdown/body.ts": ["../schema/groups/resolvers.ts"],
  "shared/src/limits.ts": ["../../gateway/src/web-peek.ts"],
};

type Violation = { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] };
type Report = { summary: { violations: Violation[]; error: number } };

let dir: string;
let report: Report;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flock-import-rules-"));
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }),
  );
  for (const [file, imports] of Object.entries(FIXTURE)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(
      join(dir, file),
      imports.map((spec, i) => `import * as m${i} from "${spec}";\nconsole.log(m${i});\n`).join("") +
        "export const here = 1;\n",
    );
  }
  // Exit code 1 means "violations found", which is what this fixture is for.
  const run = await promisify(execFile)(
    process.execPath,
    [bin, "web/src", "gateway/src", "shared/src", "--config", config, "--output-type", "json"],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  ).catch((failed: { stdout?: string; code?: number }) => {
    if (failed.code !== 1 && failed.code !== 2 && !failed.stdout) throw failed;
    return { stdout: failed.stdout ?? "" };
  });
  report = JSON.parse(run.stdout) as Report;
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const found = () => report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

describe("import rules (.dependency-cruiser.cjs)", () => {
  it("reports exactly the imports that break a rule", () => {
    expect(found()).toEqual(
      [
        "features-not-app: web/src/features/prayer/admin/AdminPrayerPage.ts → web/src/app/guards.ts",
        "feature-isolation: web/src/features/notifications/Bell.ts → web/src/features/prayer/PrayerCard.ts",
        "gateway-lower-layers-not-schema: gateway/src/mail/mailer.ts → gateway/src/schema/prayer/resolvers.ts",
        "gateway-not-web: gateway/src/web-peek.ts → web/src/gql/types.ts",
        "gateway-feature-isolation: gateway/src/schema/events/resolvers.ts → gateway/src/schema/groups/resolvers.ts",
        "gateway-http-through-route-table: gateway/src/http/feeds.ts → gateway/src/schema/events/loaders.ts",
        "gateway-lower-layers-not-schema: gateway/src/markdown/body.ts → gateway/src/schema/groups/resolvers.ts",
        "public-not-admin: web/src/features/home/HomePage.ts → web/src/features/prayer/admin/AdminPrayerPage.ts",
        "no-circular: gateway/src/mail/mailer.ts → gateway/src/schema/prayer/resolvers.ts",
        "no-circular: web/src/features/prayer/PrayerCard.ts → web/src/features/prayer/PrayerPage.ts",
        "public-not-admin: web/src/features/prayer/MyRequests.ts → web/src/features/prayer/admin/AdminPrayerPage.ts",
        "shared-layers-not-upward: web/src/components/Shell.ts → web/src/app/guards.ts",
        "shared-layers-not-upward: web/src/lib/upward.ts → web/src/features/prayer/PrayerPage.ts",
        "shared-stands-alone: shared/src/limits.ts → gateway/src/web-peek.ts",
      ].sort(),
    );
    expect(report.summary.error).toBe(report.summary.violations.length);
  });

  it("allows what the architecture allows", () => {
    const fromAllowed = report.summary.violations.filter((v) =>
      ["web/src/lib/ok.ts", "web/src/app/routes.ts", "web/src/features/prayer/prayer.generated.ts"].includes(
        v.from,
      ),
    );
    expect(fromAllowed).toEqual([]);
    const targets = report.summary.violations.map((v) => v.to);
    expect(targets).not.toContain("web/src/features/errors/NotFoundPage.ts");
    expect(targets).not.toContain("web/src/features/prayer/prayer.generated.ts");
    for (const allowed of [
      "gateway/src/schema/pagination.ts",
      "gateway/src/schema/__generated__/types.ts",
      "gateway/src/pocketbase/write.ts",
      "gateway/src/schema/groups/own-rows.ts",
      "gateway/src/schema/routes.ts",
      "gateway/src/http/route-table.ts",
    ])
      expect(targets).not.toContain(allowed);
    expect(report.summary.violations.filter((v) => v.from === "gateway/src/server.ts")).toEqual([]);
  });
});
