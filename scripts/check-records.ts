// npm run records:check — fails when gateway/src/pocketbase/records.ts disagrees with the collections the
// migrations produce (a field missing, of another type, select values apart, a property that is no field).
// Boots a throwaway PocketBase on a temp data dir with pb_migrations, reads its collections, stops it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { ROOT, resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "./lib/pocketbase.ts";
import { compareRecords, readRecordTypes, type LiveCollection } from "./lib/records-drift.ts";
import { freePort } from "./lib/stack.ts";

export const RECORDS_FILE = join(ROOT, "gateway/src/pocketbase/records.ts");

/** The collections of a running PocketBase, read as its superuser. */
export async function liveCollections(
  pbUrl: string,
  superuser: { email: string; password: string },
): Promise<LiveCollection[]> {
  const pb = new PocketBase(pbUrl);
  await pb.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  return pb.collections.getFullList<LiveCollection>({ batch: 200 });
}

/** The collections `pb_migrations` produce, from a PocketBase started for the purpose. */
export async function migratedCollections(): Promise<LiveCollection[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "flock-records-"));
  const superuser = {
    email: "records-check@flock.local",
    password: `check-${Math.random().toString(36).slice(2)}-records`,
  };
  try {
    const bin = resolvePocketBaseBinary();
    await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
    const pocketbase = await startPocketBase({ bin, dataDir, port: await freePort(), quiet: true });
    try {
      return await liveCollections(pocketbase.url, superuser);
    } finally {
      await pocketbase.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const problems = compareRecords(await migratedCollections(), readRecordTypes(RECORDS_FILE));
  if (problems.length) {
    console.error(
      `records.ts disagrees with the migrated collections (${problems.length}):\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    process.exitCode = 1;
    return;
  }
  console.log("records.ts agrees with the migrated collections.");
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
