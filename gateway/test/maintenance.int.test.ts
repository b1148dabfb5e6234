/**
 * PocketBase's own upkeep (pb_hooks/maintenance.pb.js): the hourly `PRAGMA optimize` is registered and
 * runs without error (run through PocketBase's cron API, as a superuser would from the dashboard).
 */
import { describe, expect, it } from "vitest";
import { system } from "./helpers.ts";

describe("database upkeep", () => {
  it("registers an hourly PRAGMA optimize that runs", async () => {
    const su = await system();
    const jobs = await su.crons.getFullList();
    expect(jobs).toContainEqual(
      expect.objectContaining({ id: "flock_sqlite_optimize", expression: "17 * * * *" }),
    );
    await expect(su.crons.run("flock_sqlite_optimize")).resolves.toBe(true);
  });
});
