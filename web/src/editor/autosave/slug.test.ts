import { describe, expect, it } from "vitest";
import { slugFollowsTitle } from "./slug.ts";

describe("the address follows the title", () => {
  it("while the document has none yet (a new post before its first save)", () => {
    expect(slugFollowsTitle("", "", false)).toBe(true);
  });
  it("while it is the gateway's choice for the title, possibly numbered", () => {
    expect(slugFollowsTitle("harvest-supper", "Harvest supper", false)).toBe(true);
    expect(slugFollowsTitle("harvest-supper-2", "Harvest supper", false)).toBe(true);
  });
  it("not once an editor typed one, nor once the document was ever public", () => {
    expect(slugFollowsTitle("supper", "Harvest supper", false)).toBe(false);
    expect(slugFollowsTitle("harvest-supper", "Harvest supper", true)).toBe(false);
  });
});
