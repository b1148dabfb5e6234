import { describe, expect, it } from "vitest";
import { countWords, readingMinutes } from "./Canvas.tsx";

describe("word count and reading time", () => {
  it("counts what a reader reads: not image addresses, link targets or Markdown markers", () => {
    expect(
      countWords(
        "## Harvest supper\n\n- Bring **soup**\n- [Map](https://maps.example/x)\n\n![Tables set](/files/media/abc/t.png)\n",
      ),
    ).toBe(5);
    expect(countWords("")).toBe(0);
    expect(countWords("¿Vienes el sábado? Sí, a las 6.")).toBe(7);
  });
  it("reads about 230 words a minute, at least one minute", () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(460)).toBe(2);
  });
});

describe("the title is one line", () => {
  it("turns pasted line breaks into spaces", async () => {
    const { oneLine } = await import("./Canvas.tsx");
    expect(oneLine("Harvest supper:\r\n  thank you!")).toBe("Harvest supper: thank you!");
    expect(oneLine("Carols")).toBe("Carols");
  });
});
