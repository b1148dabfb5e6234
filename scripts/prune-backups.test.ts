// Backup retention (docker/backup.sh keeps the newest FLOCK_BACKUP_KEEP zips): the pruning step,
// docker/prune-backups.sh, run on a folder of backups as backup.sh leaves them.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, "../docker/prune-backups.sh");
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function folder(names: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "flock-backups-"));
  dirs.push(dir);
  for (const name of names) await writeFile(join(dir, name), name);
  return dir;
}

describe("docker/prune-backups.sh", () => {
  it("keeps the newest N backups by their names' time, and nothing else is touched", async () => {
    const backups = [
      "flock-20260101031500.zip",
      "flock-20260102031500.zip",
      "flock-20251231031500.zip",
      "flock-20260103031500.zip",
      "flock-20260104031500.zip",
    ];
    const others = ["notes.txt", "flock-manual-copy.zip", "pb_data-20260101-0315.tar.gz"];
    const dir = await folder([...backups, ...others]);
    const { stdout } = await run("sh", [SCRIPT, dir, "2"]);
    expect((await readdir(dir)).sort()).toEqual(
      ["flock-20260103031500.zip", "flock-20260104031500.zip", ...others].sort(),
    );
    expect(stdout).toContain(
      `Removed the old backup ${dir}/flock-20251231031500.zip (keeping the newest 2).`,
    );
    // Fewer backups than N: nothing to do.
    await run("sh", [SCRIPT, dir, "14"]);
    expect(await readdir(dir)).toHaveLength(5);
  });

  it("refuses a keep that is not a whole number of at least 1, before deleting anything", async () => {
    const dir = await folder(["flock-20260101031500.zip"]);
    for (const keep of ["0", "-1", "two", ""]) {
      const failure = await run("sh", [SCRIPT, dir, keep]).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr.trim()).toBe(
        `FLOCK_BACKUP_KEEP must be a whole number of backups to keep, 1 or more (it is "${keep}").`,
      );
    }
    expect(await readdir(dir)).toEqual(["flock-20260101031500.zip"]);
    await run("sh", [SCRIPT, "--check", "3"]);
  });
});
