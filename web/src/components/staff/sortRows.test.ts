import { describe, expect, it } from "vitest";
import { sortRows } from "./sortRows.ts";

describe("sortRows", () => {
  const rows = [
    { name: "youth 10", when: "2026-12-06", n: 3 },
    { name: "Choir", when: "", n: 12 },
    { name: "youth 9", when: "2026-11-29", n: 3 },
    { name: "élan", when: "2026-12-01", n: 0 },
  ];
  it("sorts text as a reader expects (case, accents, numbers), stably, either way", () => {
    expect(sortRows(rows, (r) => r.name, "ascending", "en").map((r) => r.name)).toEqual([
      "Choir",
      "élan",
      "youth 9",
      "youth 10",
    ]);
    expect(sortRows(rows, (r) => r.name, "descending", "en").map((r) => r.name)).toEqual([
      "youth 10",
      "youth 9",
      "élan",
      "Choir",
    ]);
  });
  it("sorts numbers by size and keeps equal ones in their order", () => {
    expect(sortRows(rows, (r) => r.n, "descending", "en").map((r) => r.name)).toEqual([
      "Choir",
      "youth 10",
      "youth 9",
      "élan",
    ]);
  });
  it("puts empty values last in both directions", () => {
    expect(sortRows(rows, (r) => r.when, "ascending", "en").map((r) => r.when)).toEqual([
      "2026-11-29",
      "2026-12-01",
      "2026-12-06",
      "",
    ]);
    expect(
      sortRows(rows, (r) => r.when, "descending", "en")
        .map((r) => r.when)
        .at(-1),
    ).toBe("");
  });
});
