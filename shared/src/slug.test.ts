import { describe, expect, it } from "vitest";
import { SLUG_MAX, SLUG_PATTERN, slugify } from "./slug.ts";

describe("slugify", () => {
  it("folds accents, lowercases and joins words with single dashes", () => {
    expect(slugify("Harvest Supper — 2026!")).toBe("harvest-supper-2026");
    expect(slugify("¿Quiénes somos?")).toBe("quienes-somos");
    expect(slugify("  --Crème   brûlée--  ")).toBe("creme-brulee");
  });

  it("gives 'untitled' when nothing is left", () => {
    expect(slugify("")).toBe("untitled");
    expect(slugify("🙏 ¡¿?!")).toBe("untitled");
  });

  it("stays within the maximum and never ends with a dash", () => {
    const long = slugify("word ".repeat(100));
    expect(long.length).toBeLessThanOrEqual(SLUG_MAX);
    expect(long.endsWith("-")).toBe(false);
    expect(slugify("a".repeat(SLUG_MAX - 1) + " b")).toBe("a".repeat(SLUG_MAX - 1));
  });

  it("always produces a slug the pattern accepts", () => {
    for (const title of [
      "Harvest Supper — 2026!",
      "",
      "x",
      "Año nuevo 2027",
      "<script>alert(1)</script>",
      "a".repeat(500),
    ]) {
      expect(slugify(title)).toMatch(SLUG_PATTERN);
    }
    expect(SLUG_PATTERN.test("harvest--supper")).toBe(false);
    expect(SLUG_PATTERN.test("-harvest")).toBe(false);
    expect(SLUG_PATTERN.test("Harvest")).toBe(false);
  });
});
