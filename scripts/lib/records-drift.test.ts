import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareRecords, readRecordTypes, type LiveCollection } from "./records-drift.ts";

const dir = mkdtempSync(join(tmpdir(), "flock-records-drift-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A records.ts of its own, written to a temp file. */
function recordsFile(source: string): string {
  const file = join(dir, `records-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  return file;
}

const BASE = `
export interface BaseRecord { id: string; collectionId: string; collectionName: string; created: string; updated: string }
`;
const baseFields = [
  { name: "id", type: "text" },
  { name: "created", type: "autodate" },
  { name: "updated", type: "autodate" },
];

const posts: LiveCollection = {
  name: "posts",
  fields: [
    ...baseFields,
    { name: "title", type: "text" },
    { name: "pinned", type: "bool" },
    { name: "revision", type: "number" },
    { name: "status", type: "select", maxSelect: 1, values: ["draft", "published"] },
    { name: "tags", type: "select", maxSelect: 5, values: ["news", "events"] },
    { name: "cover", type: "file", maxSelect: 1 },
    { name: "speakers", type: "relation", maxSelect: 99 },
    { name: "fields", type: "json" },
    { name: "secret", type: "text", hidden: true },
  ],
};

describe("compareRecords", () => {
  it("finds nothing when every field is declared with its type", () => {
    const types = readRecordTypes(
      recordsFile(`${BASE}
type Status = "draft" | "published";
export interface PostRecord extends BaseRecord {
  title: string;
  pinned: boolean;
  revision: number;
  status: "" | Status;
  tags: Array<"news" | "events">;
  cover: string;
  speakers: string[];
  fields: Record<string, unknown> | null;
  expand?: { cover?: unknown };
  /** @gateway attached, not stored */
  working?: unknown;
}
export interface Collections { posts: PostRecord }
`),
    );
    expect(compareRecords([posts, { name: "_superusers", system: true, fields: [] }], types)).toEqual([]);
  });

  it("reports a deliberately wrong field, a missing one, an extra one, select values apart and collections on one side only", () => {
    const types = readRecordTypes(
      recordsFile(`${BASE}
export interface PostRecord extends BaseRecord {
  title: string;
  pinned: string;
  status: "draft" | "archived";
  tags: string;
  cover: string;
  speakers: string[];
  fields: unknown;
  subtitle: string;
}
export interface GoneRecord extends BaseRecord { name: string }
export interface Collections { posts: PostRecord; gone: GoneRecord }
`),
    );
    const problems = compareRecords([posts, { name: "roles", fields: baseFields }], types);
    expect(problems).toEqual([
      "posts.pinned: a bool field, but PostRecord declares string",
      "posts.revision: a number field, missing from PostRecord",
      "posts.status: select values draft, published; PostRecord lacks published and adds archived",
      "posts.tags: a select (multiple) field, but PostRecord declares string",
      "posts.subtitle: declared by PostRecord, not a field of the collection",
      "roles: a collection with no record type in records.ts (add it to Collections)",
      "gone: named in Collections (GoneRecord) but no such collection",
    ]);
  });

  it("needs the Collections interface", () => {
    expect(() =>
      readRecordTypes(
        recordsFile(`${BASE}\nexport interface PostRecord extends BaseRecord { title: string }\n`),
      ),
    ).toThrow(/Collections/);
  });
});
