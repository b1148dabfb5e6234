import { describe, expect, it } from "vitest";
import { lineDiff } from "./lineDiff.ts";

describe("lineDiff", () => {
  it("marks the lines only in the old text and only in the new one", () => {
    expect(
      lineDiff("Candles at six.\n\nBring a friend.", "Candles at seven.\n\nBring a friend.\nAll welcome."),
    ).toEqual([
      { kind: "removed", text: "Candles at six." },
      { kind: "added", text: "Candles at seven." },
      { kind: "same", text: "" },
      { kind: "same", text: "Bring a friend." },
      { kind: "added", text: "All welcome." },
    ]);
  });
  it("same text: nothing changed", () => {
    expect(lineDiff("a\nb", "a\nb").every((line) => line.kind === "same")).toBe(true);
  });
});
