import type PocketBase from "pocketbase";
import { badUserInput } from "../../errors.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { mediaByIds, mediaIdFromUrl } from "../../pocketbase/media.ts";

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
