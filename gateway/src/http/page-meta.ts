import type PocketBase from "pocketbase";
import type { MediaRecord, SettingsRecord } from "../pocketbase/records.ts";
import { fromPocketBaseDate } from "../pocketbase/dates.ts";
import { churchLocale, translator, type Translate } from "../mail/i18n.ts";
import type { ServerMessageKey } from "@flock/shared/i18n/server";

// What the gateway says about a page before any JavaScript runs: the types every feature's page meta
// uses (schema/<feature>/routes.ts) and the helpers they share.

/** What the served HTML says about a page before any JavaScript runs (title, description, links). */
export interface PageMeta {
  title: string;
  description: string;
  /** false: answer 404 (the app still renders its not-found page). */
  found: boolean;
  noindex?: boolean;
  /** Open Graph type. */
  type?: "website" | "article";
  /** Absolute URL of a preview image. */
  image?: string;
  /** schema.org data for the page, serialised as JSON-LD. */
  jsonLd?: Record<string, unknown>;
  /** The page's text for readers without JavaScript (crawlers, link previews). */
  content?: PageContent;
  /** Open Graph audio (a sermon's recording): absolute URL and MIME type. */
  audio?: { url: string; type: string };
  /** The page's own feeds, advertised for feed readers and podcast apps (the news feed is on every page). */
  feeds?: Feed[];
}

/** A feed a page offers: `<link rel="alternate">` in the served HTML. */
export interface Feed {
  kind: "rss" | "calendar";
  title: string;
  /** Absolute URL. */
  href: string;
}

/** A resolver's page with feeds added (when it found its page). */
export const withFeeds =
  (
    resolve: MetaResolver,
    feeds: (ctx: MetaContext, params: Record<string, string>) => Feed[],
  ): MetaResolver =>
  async (ctx, params) => {
    const meta = await resolve(ctx, params);
    return meta.found ? { ...meta, feeds: [...(meta.feeds ?? []), ...feeds(ctx, params)] } : meta;
  };

export interface MetaContext {
  settings: SettingsRecord;
  /** PocketBase as a guest: the served HTML must only describe what anyone may read. */
  guest: PocketBase;
  /** The app's public origin, for absolute URLs. */
  origin: string;
}

export type MetaResolver = (ctx: MetaContext, params: Record<string, string>) => PageMeta | Promise<PageMeta>;

/** What a crawler reads before the app starts: the heading, a short text, and the page's HTML. */
export interface PageContent {
  heading: string;
  /** Plain text under the heading (a summary, a tagline). */
  lead?: string;
  /** Sanitized HTML from the Markdown renderer (the same HTML the app shows). */
  html?: string;
  /** Links to follow, e.g. the newest posts on the home page. */
  links?: Array<{ href: string; text: string }>;
}

/** A path pattern (named groups become params) and what to say about the page it matches. */
export type PageRoute = [pattern: RegExp, resolve: MetaResolver];

/** The served page's words are in the church's language (the page's `lang`). */
export const churchT = (settings: SettingsRecord): Translate => translator(churchLocale(settings));

export const titled =
  (page: ServerMessageKey, options: { noindex?: boolean } = {}): MetaResolver =>
  ({ settings }) => ({
    title: churchT(settings)("page.title", { page: churchT(settings)(page), church: settings.churchName }),
    description: settings.tagline || settings.churchName,
    found: true,
    ...options,
  });

export const notFound = (settings: SettingsRecord): PageMeta => ({
  title: churchT(settings)("page.title", {
    page: churchT(settings)("page.notFound"),
    church: settings.churchName,
  }),
  description: settings.tagline || settings.churchName,
  found: false,
  noindex: true,
});

export async function guestFind<T>(
  pb: PocketBase,
  collection: string,
  filter: string,
  expand?: string,
): Promise<T | null> {
  const page = await pb
    .collection(collection)
    .getList<T>(1, 1, { filter, skipTotal: true, ...(expand ? { expand } : {}) });
  return page.items[0] ?? null;
}

export const iso = (pbDate: string) => (pbDate ? fromPocketBaseDate(pbDate) : undefined);
/** Widest preview image we ask for; PocketBase generates this thumb (pb_migrations: media.file thumbs). */
export const PREVIEW_WIDTH = 1600;
/**
 * A cover's preview image: the original when it is no wider than the preview width (a thumb would
 * upscale it: 1200 → 1600 px, six times the bytes), else the 1600 px wide thumb.
 */
export function previewImageOf(origin: string, media: MediaRecord | undefined): string | undefined {
  if (media?.kind !== "image") return undefined;
  const original = `${origin}/files/media/${media.id}/${encodeURIComponent(media.file)}`;
  return media.width && media.width <= PREVIEW_WIDTH ? original : `${original}?thumb=${PREVIEW_WIDTH}x0`;
}
