/** WCAG 2.2 relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (n: number) =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, "0");

/**
 * The brand colour, darkened just enough for white text on it (and it as text on white) to reach
 * WCAG AA 4.5:1, so any colour an administrator picks stays readable.
 */
export function accessibleBrandColor(hex: string, fallback = "#2f5d8a"): string {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) return fallback;
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let color = hex.toLowerCase();
  for (let step = 0; step < 100 && contrastRatio(color, "#ffffff") < 4.5; step++) {
    [r, g, b] = [r * 0.95, g * 0.95, b * 0.95];
    color = `#${toHex(r)}${toHex(g)}${toHex(b)}`;
  }
  return color;
}
