import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import type { GraphQLError } from "graphql";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, conflict, fieldTaken, forbidden, pbCall, serviceUnavailable } from "../../errors.ts";
import type { MediaRecord } from "../../pocketbase/records.ts";
import type { ImageInfo } from "../../markdown/render.ts";
import { MarkdownTimeoutError, markdownPool } from "../../markdown/pool.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
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

/**
 * Write as the caller; when PocketBase refuses the write by rule (404 for a record the caller can
 * read, a bare 400 for a create), the caller lacks the right (e.g. live content without
 * publishContent): FORBIDDEN.
 */
export async function writeAsCaller<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) throw forbidden();
    // A create refused by the rule is a 400 without field errors ("Failed to create record.").
    if (
      error instanceof ClientResponseError &&
      error.status === 400 &&
      !Object.keys((error.response?.data as object) ?? {}).length
    )
      throw forbidden();
    if (
      error instanceof ClientResponseError &&
      error.status === 400 &&
      (error.response?.data as Record<string, { code?: string }>)?.slug?.code === "validation_not_unique"
    ) {
      throw slugTaken();
    }
    return pbCall(() => Promise.reject(error));
  }
}

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

// Rendered HTML by record and version: bodies change only with `updated`.
const htmlCache = new Map<string, string>();
const HTML_CACHE_MAX = 500;
// Renders under way, by the same key: concurrent readers of one body share one render.
const rendering = new Map<string, Promise<string>>();
// Versions that ran out of time are not tried again for a while (each try holds a worker that long).
const timedOut = new Map<string, number>();
const TIMED_OUT_RETRY_MS = 10 * 60_000;

/**
 * The sanitized HTML of a body, with image sizes and alt text from the media library. Rendered by
 * the worker pool (markdown/pool.ts), never on the request thread; past its time limit the field
 * fails with SERVICE_UNAVAILABLE (reason render_timeout) and the rest of the answer is unaffected.
 */
export async function renderBody(
  ctx: Pick<GatewayContext, "pb"> & { config: Pick<GatewayContext["config"], "publicUrl"> },
  key: string,
  markdown: string,
): Promise<string> {
  const cached = htmlCache.get(key);
  if (cached !== undefined) return cached;
  const failedAt = timedOut.get(key);
  if (failedAt !== undefined && Date.now() - failedAt < TIMED_OUT_RETRY_MS) throw renderTimeout();
  let render = rendering.get(key);
  if (!render) {
    render = markdownPool
      .render(markdown, {
        siteOrigin: new URL(ctx.config.publicUrl).origin,
        resolveImages: async (urls) => {
          const byUrl = new Map<string, ImageInfo>();
          const media = await mediaByIds(
            ctx.pb,
            urls.map(mediaIdFromUrl).filter((id): id is string => !!id),
          );
          for (const url of urls) {
            const item = media.get(mediaIdFromUrl(url) ?? "");
            if (item?.width && item.height)
              byUrl.set(url, { width: item.width, height: item.height, alt: item.alt });
          }
          return byUrl;
        },
      })
      .then((html) => {
        if (htmlCache.size >= HTML_CACHE_MAX) htmlCache.delete(htmlCache.keys().next().value!);
        htmlCache.set(key, html);
        return html;
      })
      .finally(() => rendering.delete(key));
    rendering.set(key, render);
  }
  try {
    return await render;
  } catch (error) {
    if (error instanceof MarkdownTimeoutError) {
      if (timedOut.size >= HTML_CACHE_MAX) timedOut.delete(timedOut.keys().next().value!);
      timedOut.set(key, Date.now());
      throw renderTimeout();
    }
    throw error;
  }
}

const renderTimeout = () =>
  serviceUnavailable(
    "This text took too long to format and was not shown. Try again later; if it keeps happening, an editor should shorten or simplify it.",
    "render_timeout",
  );

export { conflict };
