// The slug rule is written once, in @flock/shared/slug: the gateway decides an address (and appends
// -2, -3… when it is taken); the editors use the same rule only to *show* the address a title will get.
import { slugify } from "@flock/shared/slug";

export { slugify };

/**
 * Whether the slug still follows the title: never published, and the gateway's own choice for that
 * title (possibly with -2, -3…), or no address yet (a new document, before its first save). Then the
 * editor keeps it in step with the title; once an editor types an address, or the item was ever
 * public (links may exist), it stays as it is.
 */
export function slugFollowsTitle(slug: string, title: string, everPublished: boolean): boolean {
  if (everPublished) return false;
  if (slug === "") return true;
  const base = slugify(title);
  return slug === base || new RegExp(`^${base}-\\d+$`).test(slug);
}
