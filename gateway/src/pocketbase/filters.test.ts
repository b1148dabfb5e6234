import { describe, expect, it } from "vitest";
import { orChains } from "./filters.ts";

describe("orChains", () => {
  it("keeps each chain within the clause and length limits", () => {
    const clauses = Array.from({ length: 250 }, (_, i) => `person = 'id${String(i).padStart(13, "0")}'`);
    const chains = orChains(clauses);
    expect(chains).toHaveLength(3);
    expect(chains.every((c) => c.split(" || ").length <= 100 && c.length <= 3200)).toBe(true);
    const long = Array.from(
      { length: 100 },
      (_, i) => `person.household = 'id${String(i).padStart(13, "0")}'`,
    );
    expect(orChains(long).every((c) => c.length <= 3200)).toBe(true);
    expect(orChains([])).toEqual([]);
  });
});
