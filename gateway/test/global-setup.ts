import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "../../scripts/lib/pocketbase.ts";
import { SmtpCatcher } from "../../scripts/lib/smtp-catcher.ts";
import { freePort } from "../../scripts/lib/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pbUrl: string;
    superuser: { email: string; password: string };
    smtpPort: number;
    catcherUrl: string;
  }
}

/** A real PocketBase (fresh temp data dir, committed migrations) and a mail catcher for the suite. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), "flock-int-"));
  const bin = resolvePocketBaseBinary();
  const superuser = { email: "system@test.local", password: "integration-superuser-1" };
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
  const pocketbase = await startPocketBase({ bin, dataDir, port: await freePort(), quiet: true });
  const catcher = await new SmtpCatcher().start();
  project.provide("pbUrl", pocketbase.url);
  project.provide("superuser", superuser);
  project.provide("smtpPort", catcher.smtpPort);
  project.provide("catcherUrl", `http://127.0.0.1:${catcher.httpPort}`);
  return async () => {
    await pocketbase.stop();
    await catcher.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
