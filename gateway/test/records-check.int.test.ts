// npm run records:check in CI boots its own PocketBase; here this worker's (same migrations) is read:
// records.ts agrees with it, and a copy with a deliberately wrong field is caught.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { liveCollections, RECORDS_FILE } from "../../scripts/check-records.ts";
import { compareRecords, readRecordTypes, type LiveCollection } from "../../scripts/lib/records-drift.ts";
import { pbUrl } from "./helpers.ts";

let live: LiveCollection[];
const dir = mkdtempSync(join(tmpdir(), "flock-records-int-"));
beforeAll(async () => {
  live = await liveCollections(pbUrl(), inject("superuser"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("records.ts against the migrated collections", () => {
  it("agrees: every field of every collection, with its type", () => {
    expect(compareRecords(live, readRecordTypes(RECORDS_FILE))).toEqual([]);
  });

  it("reports a field of the wrong type, a field left out and a select value the schema lacks", () => {
    const source = readFileSync(RECORDS_FILE, "utf8");
    const edits: Array<[string, string]> = [
      ["  prayerExpiryDays: number;\n", "  prayerExpiryDays: string;\n"],
      ["  pinned: boolean;\n", ""],
      [
        '  status: "draft" | "scheduled" | "published" | "archived";',
        '  status: "draft" | "scheduled" | "published" | "archived" | "deleted";',
      ],
    ];
    let wrong = source;
    for (const [from, to] of edits) {
      expect(wrong).toContain(from);
      wrong = wrong.replace(from, to);
    }
    const file = join(dir, "records.ts");
    writeFileSync(file, wrong);
    expect(compareRecords(live, readRecordTypes(file)).sort()).toEqual([
      "posts.pinned: a bool field, missing from PostRecord",
      "posts.status: select values draft, scheduled, published, archived; PostRecord adds deleted",
      "settings.prayerExpiryDays: a number field, but SettingsRecord declares string",
    ]);
  });
});
