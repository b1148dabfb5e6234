// The gateway's slug rule (gateway/src/schema/content/shared.ts), repeated here only to *show* the
// address a title will get; the gateway decides (and appends -2, -3… when the address is taken).

export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 120)
    .replace(/-+$/g, "");
  return slug || "untitled";
}

/**
 * Whether the slug still follows the title: never published, and the gateway's own choice for that
 * title (possibly with -2, -3…). Then the editor keeps it in step with the title; once an editor
 * types an address, or the item was ever public (links may exist), it stays as it is.
 */
export function slugFollowsTitle(slug: string, title: string, everPublished: boolean): boolean {
  if (everPublished) return false;
  const base = slugify(title);
  return slug === base || new RegExp(`^${base}-\\d+$`).test(slug);
}
