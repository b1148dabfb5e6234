import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import type { TestProject } from "vitest/node";
import { resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "../../scripts/lib/pocketbase.ts";
import { SmtpCatcher } from "../../scripts/lib/smtp-catcher.ts";
import { freePort } from "../../scripts/lib/stack.ts";
import { workerCount } from "../../scripts/lib/test-workers.ts";

/** What one vitest worker tests against: its own PocketBase and its own mail catcher. */
export interface IntegrationWorker {
  pbUrl: string;
  smtpPort: number;
  catcherUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One per worker, indexed by VITEST_POOL_ID - 1 (read through helpers.ts: pbUrl(), catcherUrl()). */
    integrationWorkers: IntegrationWorker[];
    superuser: { email: string; password: string };
    /**
     * A migrated PocketBase data directory with the superuser above, never served: files that need a
     * PocketBase of their own (the realtime ones kill or flood theirs) copy it instead of migrating again.
     */
    pbTemplateDir: string;
  }
}

/**
 * The template made cheaper where no test looks. Passwords: the tests create about two thousand accounts and API clients and sign most of them in: at
 * bcrypt's default cost (10) each hash and each check took 60–200 ms of CPU, a third of the whole
 * integration run. Hashes in the test data are made at cost 4 (bcrypt's minimum): the same checks,
 * the same rules and flows, only the work factor of a hash nobody will attack is lower. Production
 * data keeps the default (the migrations do not set a cost).
 */
async function lightenForTests(url: string, superuser: { email: string; password: string }) {
  const pb = new PocketBase(url);
  await pb.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  for (const collection of await pb.collections.getFullList({ filter: "type = 'auth'" })) {
    const fields = collection.fields.map((field) =>
      field.type === "password" ? { ...field, cost: BCRYPT_MIN_COST } : field,
    );
    await pb.collections.update(collection.id, { fields });
  }
  // The request log (logs.maxDays 0: none kept): no test reads one, and writing a row per request was
  // ~15 % of PocketBase's CPU in an authorization table (19.2 vs 16.3 s, 17.6 vs 14.4 s).
  await pb.settings.update({ logs: { maxDays: 0 } });
}
const BCRYPT_MIN_COST = 4;

/**
 * A real PocketBase (committed migrations, fresh temp data) and a mail catcher per worker, so test
 * files run side by side: files in one worker run one after another, files in different workers never
 * share a record, a settings change or a rate limit. The migrations run once, into a template that
 * each worker's data directory is copied from (a fresh start applies every migration: ~5 s of CPU).
 */
export default async function setup(project: TestProject) {
  const bin = resolvePocketBaseBinary();
  const superuser = { email: "system@test.local", password: "integration-superuser-1" };
  const templateDir = await mkdtemp(join(tmpdir(), "flock-int-template-"));
  await upsertSuperuser(bin, templateDir, superuser.email, superuser.password);
  // Served once so that `serve` itself applies the migrations, then stopped so its files are at rest.
  const template = await startPocketBase({ bin, dataDir: templateDir, port: await freePort(), quiet: true });
  try {
    await lightenForTests(template.url, superuser);
  } finally {
    await template.stop();
  }

  const count = workerCount(project);
  const ports = new Set<number>();
  const started = await Promise.all(
    Array.from({ length: count }, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "flock-int-"));
      await cp(templateDir, dataDir, { recursive: true });
      let port = await freePort();
      while (ports.has(port)) port = await freePort();
      ports.add(port);
      const pocketbase = await startPocketBase({ bin, dataDir, port, quiet: true });
      const catcher = await new SmtpCatcher().start();
      return { dataDir, pocketbase, catcher };
    }),
  );
  project.provide(
    "integrationWorkers",
    started.map(({ pocketbase, catcher }) => ({
      pbUrl: pocketbase.url,
      smtpPort: catcher.smtpPort,
      catcherUrl: `http://127.0.0.1:${catcher.httpPort}`,
    })),
  );
  project.provide("superuser", superuser);
  project.provide("pbTemplateDir", templateDir);
  return async () => {
    await Promise.all(
      started.map(async ({ dataDir, pocketbase, catcher }) => {
        await pocketbase.stop();
        await catcher.stop();
        await rm(dataDir, { recursive: true, force: true });
      }),
    );
    await rm(templateDir, { recursive: true, force: true });
  };
}
