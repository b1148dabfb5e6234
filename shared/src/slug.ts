/**
 * Addresses of pages, posts, sermons, series and speakers ("/news/harvest-supper-2026"): lowercase
 * ASCII letters and digits with single dashes. The gateway decides a record's slug (and appends -2,
 * -3… when it is taken); the web app uses the same rule to show the address a title will get.
 */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 120;

/** "Harvest Supper — 2026!" → "harvest-supper-2026" (accents folded, at most 120 chars). */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, "");
  return slug || "untitled";
}
