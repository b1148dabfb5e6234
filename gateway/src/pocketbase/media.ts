import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { pbCall } from "../errors.ts";
import type { MediaRecord } from "./records.ts";

const MEDIA_URL = /^(?:https?:\/\/[^/]+)?\/files\/(?:media|[a-z0-9_]{15})\/([a-z0-9]{15})\/[^/?#]+/i;

/** The media record id in a stable media URL ("/files/media/<id>/<name>"), or null. */
export function mediaIdFromUrl(url: string): string | null {
  return MEDIA_URL.exec(url)?.[1] ?? null;
}

/**
 * Media items by id, read as the caller. One view per item, in parallel: an item is viewable by
 * anyone who has its id (published pages show it), while listing the library is for staff.
 */
export async function mediaByIds(pb: PocketBase, ids: string[]): Promise<Map<string, MediaRecord>> {
  const unique = [...new Set(ids)].slice(0, 100);
  const rows = await Promise.all(
    unique.map((id) =>
      pb
        .collection("media")
        .getOne<MediaRecord>(id)
        .catch((error: unknown) => {
          if (error instanceof ClientResponseError && error.status === 404) return null; // deleted since
          return pbCall(() => Promise.reject(error));
        }),
    ),
  );
  return new Map(rows.filter((m): m is MediaRecord => m !== null).map((m) => [m.id, m]));
}
