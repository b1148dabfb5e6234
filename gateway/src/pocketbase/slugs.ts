import type PocketBase from "pocketbase";
import { badUserInput, fieldTaken, pbCall } from "../errors.ts";
import { SLUG_MAX, SLUG_PATTERN, slugify } from "@flock/shared/slug";

/**
 * The slug to store: the editor's own (validated; CONFLICT if taken) or one generated from the title
 * with -2, -3… appended until free. PocketBase's unique index has the last word under a race.
 */
export async function chooseSlug(
  pb: PocketBase,
  collection: "pages" | "posts" | "sermons" | "sermon_series" | "speakers" | "events" | "event_categories",
  requested: string | null | undefined,
  title: string,
  excludeId?: string,
): Promise<string> {
  const taken = async (slug: string) =>
    (
      await pbCall(() =>
        pb.collection(collection).getList(1, 1, {
          filter: excludeId
            ? pb.filter("slug = {:slug} && id != {:id}", { slug, id: excludeId })
            : pb.filter("slug = {:slug}", { slug }),
          fields: "id",
          skipTotal: true,
        }),
      )
    ).items.length > 0;
  const own = requested?.trim();
  if (own) {
    if (!SLUG_PATTERN.test(own) || own.length > SLUG_MAX) {
      throw badUserInput({
        slug: {
          code: "invalid_slug",
          message: "Use lowercase letters, digits and single dashes, like harvest-supper.",
        },
      });
    }
    if (await taken(own)) throw slugTaken();
    return own;
  }
  const base = slugify(title);
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, SLUG_MAX - String(n).length - 1)}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw slugTaken();
}

export const slugTaken = () =>
  fieldTaken(
    "slug",
    "This address is already used by another item. Choose another.",
    "This address is already in use.",
  );
