import type PocketBase from "pocketbase";
import type {
  PageRecord,
  PostRecord,
  SettingsRecord,
  MediaRecord,
  SermonRecord,
  SermonSeriesRecord,
  SpeakerRecord,
} from "../pocketbase/records.ts";
import { markdownPool } from "../markdown/pool.ts";
import { renderBody } from "../markdown/body.ts";
import type { PageContent } from "./app-html.ts";
import { fromPocketBaseDate } from "../pocketbase/dates.ts";
import { churchLocale, translator, type Translate } from "../mail/i18n.ts";
import type { ServerMessageKey } from "@flock/shared/i18n/server";
import { Temporal } from "temporal-polyfill";
import { occurrencesOf } from "../schema/events/occurrences.ts";
import type { EventExceptionRecord, EventRecord, GroupRecord } from "../pocketbase/records.ts";

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
}

export interface MetaContext {
  settings: SettingsRecord;
  /** PocketBase as a guest: the served HTML must only describe what anyone may read. */
  guest: PocketBase;
  /** The app's public origin, for absolute URLs. */
  origin: string;
}

type MetaResolver = (ctx: MetaContext, params: Record<string, string>) => PageMeta | Promise<PageMeta>;

/** The served page's words are in the church's language (the page's `lang`). */
const churchT = (settings: SettingsRecord): Translate => translator(churchLocale(settings));

const titled =
  (page: ServerMessageKey, options: { noindex?: boolean } = {}): MetaResolver =>
  ({ settings }) => ({
    title: churchT(settings)("page.title", { page: churchT(settings)(page), church: settings.churchName }),
    description: settings.tagline || settings.churchName,
    found: true,
    ...options,
  });

const notFound = (settings: SettingsRecord): PageMeta => ({
  title: churchT(settings)("page.title", {
    page: churchT(settings)("page.notFound"),
    church: settings.churchName,
  }),
  description: settings.tagline || settings.churchName,
  found: false,
  noindex: true,
});

async function guestFind<T>(
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

const iso = (pbDate: string) => (pbDate ? fromPocketBaseDate(pbDate) : undefined);
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
/** The server's render of a body (sanitized, cached per version like the GraphQL `html` field). */
const renderedBody = (
  guest: PocketBase,
  origin: string,
  collection: string,
  record: { id: string; updated: string; body: string },
) =>
  renderBody(
    { pb: guest, config: { publicUrl: origin } },
    `${collection}:${record.id}:${record.updated}`,
    record.body ?? "",
  );

/** A published page: its title and SEO description, and an Article for search engines. */
const contentPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const page = await guestFind<PageRecord>(
    guest,
    "pages",
    guest.filter('slug = {:slug} && status = "published"', { slug }),
  );
  if (!page) return notFound(settings);
  const description =
    page.seoDescription || (await markdownPool.plainText(page.body, 200)) || settings.tagline;
  return {
    title: `${page.title} · ${settings.churchName}`,
    description,
    found: true,
    type: "article",
    content: { heading: page.title, html: await renderedBody(guest, origin, "pages", page) },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Article",
      headline: page.title,
      description,
      url: `${origin}/p/${page.slug}`,
      dateModified: iso(page.updated),
      ...(page.publishedAt ? { datePublished: iso(page.publishedAt) } : {}),
      publisher: { "@type": "Organization", name: settings.churchName },
    },
  };
};

/** A published public post: Open Graph article with its cover, and a NewsArticle. */
const newsPost: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const post = await guestFind<PostRecord>(
    guest,
    "posts",
    guest.filter('slug = {:slug} && status = "published"', { slug }),
    "cover",
  );
  if (!post) return notFound(settings);
  const description = post.summary || (await markdownPool.plainText(post.body, 200)) || settings.tagline;
  const image = previewImageOf(origin, post.expand?.cover);
  return {
    title: `${post.title} · ${settings.churchName}`,
    description,
    found: true,
    type: "article",
    content: {
      heading: post.title,
      ...(post.summary ? { lead: post.summary } : {}),
      html: await renderedBody(guest, origin, "posts", post),
    },
    ...(image ? { image } : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: post.title,
      description,
      url: `${origin}/news/${post.slug}`,
      ...(image ? { image: [image] } : {}),
      datePublished: iso(post.publishedAt),
      dateModified: iso(post.updated),
      ...(post.authorName ? { author: { "@type": "Person", name: post.authorName } } : {}),
      publisher: { "@type": "Organization", name: settings.churchName },
    },
  };
};

/** The home page's text without JavaScript: who the church is, where, and the latest public news. */
async function homeContent(guest: PocketBase, settings: SettingsRecord): Promise<PageContent> {
  const news = await guest.collection("posts").getList<PostRecord>(1, 4, {
    filter: 'status = "published" && audience = "public"',
    sort: "-pinned,-publishedAt,-id",
    fields: "title,slug",
    skipTotal: true,
  });
  const about = [settings.tagline, settings.address.replace(/\n/g, ", ")].filter(Boolean).join(" · ");
  return {
    heading: settings.churchName,
    ...(about ? { lead: about } : {}),
    links: [
      { href: "/visit", text: churchT(settings)("page.home.planVisit") },
      { href: "/news", text: churchT(settings)("page.home.news") },
      ...news.items.map((post) => ({ href: `/news/${post.slug}`, text: post.title })),
    ],
  };
}
// --- Sermons ---

/** A published sermon: Open Graph audio and a schema.org PodcastEpisode (with its series as the PodcastSeries). */
const sermonPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const sermon = await guestFind<SermonRecord>(
    guest,
    "sermons",
    guest.filter('slug = {:slug} && status = "published"', { slug }),
    "series,speakers",
  );
  if (!sermon) return notFound(settings);
  const description =
    sermon.summary ||
    (await markdownPool.plainText(sermon.notes ?? "", 200)) ||
    settings.tagline ||
    sermon.title;
  const url = `${origin}/sermons/${sermon.slug}`;
  const series = sermon.expand?.series;
  const image = series?.artwork
    ? `${origin}/files/sermon_series/${series.id}/${encodeURIComponent(series.artwork)}?thumb=1400x1400`
    : undefined;
  const audio = sermon.audio
    ? {
        url: `${origin}/files/sermons/${sermon.id}/${encodeURIComponent(sermon.audio)}`,
        type: sermon.audioType || "audio/mpeg",
      }
    : undefined;
  const duration = sermon.durationSeconds ? `PT${Math.round(sermon.durationSeconds)}S` : undefined;
  return {
    title: `${sermon.title} · ${settings.churchName}`,
    description,
    found: true,
    type: "article",
    ...(image ? { image } : {}),
    ...(audio ? { audio } : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "PodcastEpisode",
      name: sermon.title,
      description,
      url,
      ...(sermon.preachedOn ? { datePublished: sermon.preachedOn.slice(0, 10) } : {}),
      ...(duration ? { timeRequired: duration } : {}),
      ...(image ? { image } : {}),
      ...(audio
        ? {
            associatedMedia: {
              "@type": "MediaObject",
              contentUrl: audio.url,
              encodingFormat: audio.type,
              ...(duration ? { duration } : {}),
            },
          }
        : {}),
      ...(sermon.expand?.speakers?.length
        ? { author: sermon.expand.speakers.map((s) => ({ "@type": "Person", name: s.name })) }
        : {}),
      partOfSeries: {
        "@type": "PodcastSeries",
        name: series
          ? `${settings.churchName}: ${series.title}`
          : churchT(settings)("feed.sermons.title", { church: settings.churchName }),
        url: series ? `${origin}/series/${series.slug}` : `${origin}/sermons`,
        webFeed: series ? `${origin}/feeds/series/${series.slug}.xml` : `${origin}/feeds/sermons.xml`,
      },
      publisher: { "@type": "Organization", name: settings.churchName },
    },
  };
};

const seriesPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const series = await guestFind<SermonSeriesRecord>(
    guest,
    "sermon_series",
    guest.filter("slug = {:slug}", { slug }),
  );
  if (!series) return notFound(settings);
  const image = series.artwork
    ? `${origin}/files/sermon_series/${series.id}/${encodeURIComponent(series.artwork)}?thumb=1400x1400`
    : undefined;
  return {
    title: `${series.title} · ${settings.churchName}`,
    description: series.description || settings.tagline || series.title,
    found: true,
    ...(image ? { image } : {}),
  };
};

const speakerPage: MetaResolver = async ({ settings, guest }, { slug = "" }) => {
  const speaker = await guestFind<SpeakerRecord>(guest, "speakers", guest.filter("slug = {:slug}", { slug }));
  if (!speaker) return notFound(settings);
  return {
    title: `${speaker.name} · ${settings.churchName}`,
    description: speaker.bio
      ? await markdownPool.plainText(speaker.bio, 200)
      : settings.tagline || speaker.name,
    found: true,
  };
};

const SERMON_ROUTES: Array<[pattern: RegExp, resolve: MetaResolver]> = [
  [/^\/sermons$/, titled("page.sermons")],
  [/^\/sermons\/(?<slug>[a-z0-9-]{1,120})$/, sermonPage],
  [/^\/series\/(?<slug>[a-z0-9-]{1,120})$/, seriesPage],
  [/^\/speakers\/(?<slug>[a-z0-9-]{1,120})$/, speakerPage],
];
// --- end sermons ---
// --- Events ---

/** A public event: Open Graph and a schema.org Event for its next (or last) occurrence. */
const eventPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const event = await guestFind<EventRecord>(
    guest,
    "events",
    guest.filter("slug = {:slug} && status != 'draft' && visibility = 'public'", { slug }),
  );
  if (!event) return notFound(settings);
  const description =
    event.summary ||
    (await markdownPool.plainText(event.description ?? "", 200)) ||
    settings.tagline ||
    event.title;
  let when: { start: string; end: string; cancelled: boolean } = {
    start: iso(event.startsAt)!,
    end: iso(event.endsAt)!,
    cancelled: event.status === "cancelled",
  };
  try {
    const now = Temporal.Now.instant();
    const exceptions = await guest
      .collection("event_exceptions")
      .getFullList<EventExceptionRecord>({ filter: guest.filter("event = {:e}", { e: event.id }) });
    const next = occurrencesOf(event, exceptions, now, now.add({ hours: 24 * 400 }))[0];
    if (next)
      when = {
        start: next.start.toInstant().toString(),
        end: next.end.toInstant().toString(),
        cancelled: next.status === "CANCELLED",
      };
  } catch {
    // A rule that does not parse: describe the first occurrence.
  }
  const image = event.image
    ? `${origin}/files/events/${event.id}/${encodeURIComponent(event.image)}?thumb=1200x630`
    : undefined;
  return {
    title: `${event.title} · ${settings.churchName}`,
    description,
    found: true,
    ...(image ? { image } : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Event",
      name: event.title,
      description,
      url: `${origin}/events/${event.slug}`,
      startDate: when.start,
      endDate: when.end,
      eventStatus: when.cancelled ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      ...(event.locationName || event.locationAddress
        ? {
            location: {
              "@type": "Place",
              name: event.locationName || settings.churchName,
              address: event.locationAddress || settings.address?.replace(/\n/g, ", ") || "",
            },
          }
        : {}),
      ...(image ? { image } : {}),
      organizer: { "@type": "Organization", name: settings.churchName, url: origin },
    },
  };
};

const EVENT_ROUTES: Array<[pattern: RegExp, resolve: MetaResolver]> = [
  [/^\/events$/, titled("page.events")],
  [/^\/events\/registration\/[A-Za-z0-9_-]{1,64}$/, titled("page.eventRegistration", { noindex: true })],
  [/^\/events\/(?<slug>[a-z0-9-]{1,120})$/, eventPage],
];
// --- end events ---
// --- Groups ---

/** A public group: its name and description (members-only and hidden groups answer 404 here, as to a visitor). */
const groupPage: MetaResolver = async ({ settings, guest }, { slug = "" }) => {
  const group = await guestFind<GroupRecord>(
    guest,
    "groups",
    guest.filter("slug = {:slug} && status = 'active' && visibility = 'public'", { slug }),
  );
  if (!group) return notFound(settings);
  const description =
    (await markdownPool.plainText(group.description ?? "", 200)) ||
    group.schedule ||
    settings.tagline ||
    group.name;
  return { title: `${group.name} · ${settings.churchName}`, description, found: true };
};

const GROUP_ROUTES: Array<[pattern: RegExp, resolve: MetaResolver]> = [
  [/^\/groups$/, titled("page.groups")],
  [/^\/groups\/(?<slug>[a-z0-9-]{1,120})$/, groupPage],
];
// --- end groups ---

/**
 * The app's routes as the server knows them (later features add theirs). Anything unmatched, and
 * any slug that names nothing a visitor may read, is served with status 404.
 */
export const ROUTES: Array<[pattern: RegExp, resolve: MetaResolver]> = [
  [
    /^\/$/,
    async ({ settings, origin, guest }) => ({
      title: settings.tagline ? `${settings.churchName} · ${settings.tagline}` : settings.churchName,
      description: settings.tagline || settings.churchName,
      found: true,
      content: await homeContent(guest, settings),
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "Church",
        name: settings.churchName,
        url: origin,
        ...(settings.address ? { address: settings.address.replace(/\n/g, ", ") } : {}),
        ...(settings.phone ? { telephone: settings.phone } : {}),
        ...(settings.email ? { email: settings.email } : {}),
      },
    }),
  ],
  [/^\/news$/, titled("page.news")],
  [/^\/news\/(?<slug>[a-z0-9-]{1,120})$/, newsPost],
  [/^\/p\/(?<slug>[a-z0-9-]{1,120})$/, contentPage],
  [/^\/login$/, titled("page.signIn")],
  [/^\/signup$/, titled("page.signUp")],
  [/^\/forgot-password$/, titled("page.forgotPassword", { noindex: true })],
  [/^\/reset-password$/, titled("page.resetPassword", { noindex: true })],
  [/^\/verify-email$/, titled("page.verifyEmail", { noindex: true })],
  [/^\/visit$/, titled("page.visit")],
  [/^\/prayer$/, titled("page.prayer")],
  [/^\/prayer\/[a-z0-9]{1,30}$/, titled("page.prayerRequest", { noindex: true })],
  [/^\/me(\/.*)?$/, titled("page.me", { noindex: true })],
  [/^\/directory(\/[a-z0-9]{1,30})?$/, titled("page.directory", { noindex: true })],
  [/^\/admin(\/.*)?$/, titled("page.admin", { noindex: true })],
  ...SERMON_ROUTES,
  ...EVENT_ROUTES,
  ...GROUP_ROUTES,
];

export async function metaForPath(path: string, ctx: MetaContext): Promise<PageMeta> {
  for (const [pattern, resolve] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return resolve(ctx, match.groups ?? {});
  }
  return notFound(ctx.settings);
}
