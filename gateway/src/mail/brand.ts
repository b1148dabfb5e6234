import type { SettingsRecord } from "../pocketbase/records.ts";
import { formatClock, TIME_OF_DAY } from "@flock/shared/i18n/time";

/** What every mail shows of the church: its name, logo, colour, address and the site's time format. */
export interface Brand {
  churchName: string;
  /** Absolute URL of the logo (header size), or null when the church has none. */
  logoUrl: string | null;
  /** The brand colour, darkened until white text on it reaches WCAG AA 4.5:1 (as on the site). */
  color: string;
  /** The public site, for links and the footer. */
  siteUrl: string;
  address: string;
  /** The site's language, which decides the time format ("9:00 AM" in English). */
  locale: "en" | "es";
  timezone: string;
}

const DEFAULT_COLOR = "#2f5d8a";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);
const toHex = (n: number) =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, "0");

/** The same rule as the web app's accessibleBrandColor (web/src/lib/color.ts). */
export function accessibleColor(hex: string | undefined): string {
  if (!hex || !/^#[0-9a-fA-F]{6}$/.test(hex)) return DEFAULT_COLOR;
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let color = hex.toLowerCase();
  for (let step = 0; step < 100 && contrastWithWhite(color) < 4.5; step++) {
    [r, g, b] = [r * 0.95, g * 0.95, b * 0.95];
    color = `#${toHex(r)}${toHex(g)}${toHex(b)}`;
  }
  return color;
}

export function brandFrom(settings: SettingsRecord, publicUrl: string): Brand {
  const siteUrl = publicUrl.replace(/\/+$/, "");
  return {
    churchName: settings.churchName,
    logoUrl: settings.logo
      ? `${siteUrl}/files/${settings.collectionId}/${settings.id}/${encodeURIComponent(settings.logo)}?thumb=0x96`
      : null,
    color: accessibleColor(settings.brandColor),
    siteUrl,
    address: settings.address ?? "",
    locale: settings.locale === "es" ? "es" : "en",
    timezone: settings.timezone || "UTC",
  };
}

/** "18:30" → "6:30 PM" (English) / "18:30" (Spanish): the wall-clock format the site shows. */
export function formatWallTime(time: string, locale: Brand["locale"]): string {
  const [h, m] = time.split(":").map(Number) as [number, number];
  if (!Number.isFinite(h) || !Number.isFinite(m)) return time;
  return formatClock(h, m, locale);
}

/** An instant in the church's zone, in the site's format ("Nov 23, 2026, 9:00 AM"). */
export function formatDateTime(iso: string, brand: Pick<Brand, "locale" | "timezone">): string {
  return new Intl.DateTimeFormat(brand.locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...TIME_OF_DAY,
    timeZone: brand.timezone,
  }).format(new Date(iso));
}
