import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import jsQR from "jsqr";
import { HouseholdQr } from "./HouseholdQr.tsx";

/** The SVG's dark modules back to pixels (4 per module), as a camera or scanner would see them. */
function pixelsOf(svg: string) {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const scale = 4;
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g))
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const i = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
  return { data, width };
}

describe("a household's QR code", () => {
  it("reads back as the text a station searches by", () => {
    const text = "flock:household:ya1rufmrf2cdfh9";
    const svg = renderToStaticMarkup(<HouseholdQr text={text} label="Your family's check-in code" />);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-label="Your family&#x27;s check-in code"');
    const { data, width } = pixelsOf(svg);
    expect(jsQR(data, width, width)?.data).toBe(text);
  });
});
