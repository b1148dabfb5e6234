import type PocketBase from "pocketbase";
import type { GraphQLError } from "graphql";
import { badUserInput, conflict } from "../../errors.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import { mediaByIds, mediaIdFromUrl } from "../../pocketbase/media.ts";

/** A save that started from an older revision than the stored one: refuse, and send the newer text along. */
export function staleRevision(current: {
  revision: number;
  title: string;
  body: string;
  updated: string;
}): GraphQLError {
  // The web app's autosave matches this reason (web/src/features/admin/content/autosave.ts).
  return conflict(
    "Someone saved a newer version while you were editing. Choose which text to keep.",
    "stale_revision",
    {
      currentRevision: current.revision,
      currentTitle: current.title,
      currentBody: current.body,
      currentUpdated: fromPocketBaseDate(current.updated),
    },
  );
}

/** Publishing rule: every image the Markdown uses must have alt text in the media library. */
export async function requireAltText(pb: PocketBase, markdown: string): Promise<void> {
  const ids = (await markdownPool.imageUrls(markdown)).map(mediaIdFromUrl).filter((id): id is string => !!id);
  const media = await mediaByIds(pb, ids);
  const missing = [...media.values()].filter((m) => m.kind === "image" && !m.alt.trim());
  if (missing.length) {
    throw badUserInput(
      {
        body: {
          code: "image_alt_missing",
          message: `Add alt text to these images before publishing: ${missing.map((m) => m.filename || m.id).join(", ")}.`,
        },
      },
      "Some images have no alt text yet.",
    );
  }
}
