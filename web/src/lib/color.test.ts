import { describe, expect, it } from "vitest";
import { accessibleBrandColor, contrastRatio } from "./color.ts";

describe("accessibleBrandColor", () => {
  it("keeps a colour that already has 4.5:1 contrast with white", () => {
    expect(accessibleBrandColor("#2f5d8a")).toBe("#2f5d8a");
  });

  it.each(["#ffff00", "#7fd1ff", "#ffffff", "#f4a261"])(
    "darkens %s until white text on it reaches AA",
    (hex) => {
      const color = accessibleBrandColor(hex);
      expect(contrastRatio(color, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    },
  );

  it("falls back for a malformed colour", () => {
    expect(accessibleBrandColor("red")).toBe("#2f5d8a");
    expect(accessibleBrandColor("")).toBe("#2f5d8a");
  });
});
