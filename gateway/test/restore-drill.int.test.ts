// The restore drill (QUALITY.md R2, docs/DEPLOYMENT.md "Backups"): back up a church's data with
// PocketBase's backup API as docker/backup.sh does, change records and files, restore with
// docker/restore-data.sh (the step docker/restore.sh runs in a one-off container), and compare every
// collection and every stored file with the state at backup time. Its own PocketBase: the drill
// stops it and replaces its data folder.
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import PocketBase, { type RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  resolvePocketBaseBinary,
  startPocketBase,
  upsertSuperuser,
  type PocketBaseProcess,
} from "../../scripts/lib/pocketbase.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "../../scripts/lib/seed.ts";
import { freePort } from "../../scripts/lib/stack.ts";
import { fileOf, pngBytes } from "./helpers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const superuser = { email: "system@restore.test", password: "restore-superuser-7781" };
const bin = resolvePocketBaseBinary();
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let dataDir: string;
let hostBackups: string;
let port: number;
let pocketbase: PocketBaseProcess | null = null;

async function start(): Promise<PocketBase> {
  pocketbase = await startPocketBase({ bin, dataDir, port, quiet: true });
  const pb = new PocketBase(pocketbase.url);
  pb.autoCancellation(false);
  await pb.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  return pb;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "flock-restore-pb-"));
  hostBackups = await mkdtemp(join(tmpdir(), "flock-restore-host-"));
  port = await freePort();
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
  await seedDemo(await start());
});
afterAll(async () => {
  await pocketbase?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(hostBackups, { recursive: true, force: true });
});

interface Snapshot {
  /** Every record of every collection, as the superuser reads it, by collection name. */
  records: Record<string, RecordModel[]>;
  /** sha256 of every file a record names, downloaded through PocketBase ("collection/id/field/name"). */
  files: Record<string, string>;
  /** sha256 of every stored file on disk (generated thumbnails aside), by path under storage/. */
  storage: Record<string, string>;
}

async function storageFiles(dir: string, root = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith("thumbs_")) Object.assign(out, await storageFiles(path, root));
    } else out[relative(root, path)] = sha256(await readFile(path));
  }
  return out;
}

async function snapshot(pb: PocketBase): Promise<Snapshot> {
  const token = await pb.files.getToken();
  const records: Snapshot["records"] = {};
  const files: Snapshot["files"] = {};
  for (const collection of await pb.collections.getFullList({ sort: "name" })) {
    const rows = await pb.collection(collection.name).getFullList({ sort: "id" });
    // PocketBase touches the superuser's sign-in origin each time the drill itself signs in (after
    // the restart too): that timestamp is the drill's own footprint, not the church's data.
    records[collection.name] =
      collection.name === "_authOrigins" ? rows.map(({ updated: _, ...row }) => row as RecordModel) : rows;
    const fileFields = collection.fields.filter((field) => field.type === "file").map((field) => field.name);
    for (const row of rows) {
      for (const field of fileFields) {
        for (const name of ([] as string[])
          .concat((row[field] as string | string[] | undefined) ?? [])
          .filter(Boolean)) {
          const response = await fetch(pb.files.getURL(row, name, { token }));
          expect(response.status, `${collection.name}/${row.id}/${name}`).toBe(200);
          files[`${collection.name}/${row.id}/${field}/${name}`] = sha256(
            new Uint8Array(await response.arrayBuffer()),
          );
        }
      }
    }
  }
  return { records, files, storage: await storageFiles(join(dataDir, "storage")) };
}

const signsIn = async (pb: PocketBase, email: string, password: string) => {
  const client = new PocketBase(pb.baseURL);
  client.autoCancellation(false);
  return client
    .collection("users")
    .authWithPassword(email, password)
    .then(
      () => true,
      () => false,
    );
};

describe("backup and restore (QUALITY.md R2)", () => {
  it("restores every collection and every file exactly as they were at backup time", async () => {
    let pb = new PocketBase(pocketbase!.url);
    pb.autoCancellation(false);
    await pb.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    const before = await snapshot(pb);
    // The drill covers real content: people with photos, media files, posts, prayer, accounts.
    for (const name of ["users", "people", "media", "posts", "pages", "prayer_requests", "settings"])
      expect(before.records[name]!.length, name).toBeGreaterThan(0);
    expect(Object.keys(before.files).length).toBeGreaterThan(5);
    // On disk: each file and PocketBase's metadata next to it (<name>.attrs).
    expect(Object.keys(before.storage).filter((path) => !path.endsWith(".attrs")).length).toBe(
      Object.keys(before.files).length,
    );

    // Back up as docker/backup.sh does: PocketBase writes the zip, which is then copied off the data
    // folder (there: `docker compose cp`) and removed from it.
    const name = "flock-drill.zip";
    await pb.backups.create(name);
    await copyFile(join(dataDir, "backups", name), join(hostBackups, name));
    await pb.backups.delete(name);

    // Life goes on: records and files change, appear and disappear.
    const member = DEMO_ACCOUNTS[3];
    const settings = before.records.settings![0]!;
    await pb.collection("settings").update(settings.id, { churchName: "Renamed after the backup" });
    const [firstPost, secondPost] = before.records.posts!;
    await pb.collection("posts").delete(firstPost!.id);
    await pb.collection("posts").update(secondPost!.id, { title: "Edited after the backup" });
    await pb
      .collection("pages")
      .create({ title: "New page", slug: "new-after-backup", status: "draft", revision: 1 });
    const media = before.records.media![0]!;
    await pb.collection("media").update(media.id, { file: fileOf(pngBytes(), "replaced.png", "image/png") });
    // Another stored file (a photo or avatar) removed.
    const [collection, id, field] = Object.keys(before.files)
      .find((key) => !key.startsWith("media/"))!
      .split("/");
    await pb.collection(collection!).update(id!, { [field!]: null });
    const memberUser = before.records.users!.find((user) => user.email === member.email)!;
    await pb.collection("users").update(memberUser.id, {
      password: "changed-after-backup-1",
      passwordConfirm: "changed-after-backup-1",
    });
    const changed = await snapshot(pb);
    expect(changed.records).not.toEqual(before.records);
    expect(changed.files).not.toEqual(before.files);
    expect(await signsIn(pb, member.email, "changed-after-backup-1")).toBe(true);

    // Restore: PocketBase stopped, the data folder replaced by the backup (docker/restore-data.sh), started.
    await pocketbase!.stop();
    await promisify(execFile)("sh", [join(ROOT, "docker/restore-data.sh"), dataDir, join(hostBackups, name)]);
    pb = await start();

    const after = await snapshot(pb);
    expect(after.records).toEqual(before.records);
    expect(after.files).toEqual(before.files);
    expect(after.storage).toEqual(before.storage);
    // Accounts are as they were too: the password from before the backup works again.
    expect(await signsIn(pb, member.email, DEMO_PASSWORD)).toBe(true);
    expect(await signsIn(pb, member.email, "changed-after-backup-1")).toBe(false);
  });

  it("refuses a file that is not a backup and leaves the data alone", async () => {
    const bogus = join(hostBackups, "not-a-backup.zip");
    await writeFile(bogus, "not a zip");
    const storageBefore = await storageFiles(join(dataDir, "storage"));
    await expect(
      promisify(execFile)("sh", [join(ROOT, "docker/restore-data.sh"), dataDir, bogus]),
    ).rejects.toThrow(/not a readable zip file/);
    expect(await storageFiles(join(dataDir, "storage"))).toEqual(storageBefore);
  });
});
