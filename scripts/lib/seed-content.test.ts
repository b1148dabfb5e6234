// The demo church's content must read like a real church's: no placeholder or unrelated video that a
// visitor of a demo install would take for the church's own (issue 12).
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("demo content", () => {
  it("embeds no video it cannot vouch for", async () => {
    const source = await readFile(new URL("./seed-content.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/youtube\.com\/watch|youtu\.be\/|vimeo\.com\/\d/);
  });
});
