import { createHash } from "node:crypto";
import type PocketBase from "pocketbase";
import sharp from "sharp";
import type { SermonRecord, SermonSeriesRecord, SettingsRecord } from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { parsePocketBaseDate } from "../../pocketbase/dates.ts";
import { churchLocale, translator } from "../../mail/i18n.ts";
import { xml } from "../../http/xml.ts";
import { storeOnce } from "../../pocketbase/records-io.ts";

/**
 * The sermon podcast: RSS 2.0 with the iTunes and Podcasting 2.0 tags Apple Podcasts and Spotify
 * require, read as a guest (only published sermons with audio). /feeds/sermons.xml has every
 * sermon; /feeds/series/<slug>.xml one series. URLs are absolute; enclosures point at /files, which
 * answers Range requests; their length is the audio file's real size, recorded when it was attached.
 */

const SERIES_FEED = /^\/feeds\/series\/([a-z0-9]+(?:-[a-z0-9]+)*)\.xml$/;
export const PODCAST_ARTWORK_PATH = "/feeds/podcast-artwork.png";
/** Apple's category list: "Religion & Spirituality" › "Christianity". */
const CATEGORY = { name: "Religion & Spirituality", sub: "Christianity" };
const MAX_ITEMS = 300;

export function seriesFeedSlug(pathname: string): string | null {
  return SERIES_FEED.exec(pathname)?.[1] ?? null;
}

/** Podcasting 2.0 `podcast:guid`: UUIDv5 of the feed URL without its scheme, in the podcast namespace. */
export function podcastGuid(feedUrl: string): string {
  const namespace = Buffer.from("ead4c236bf5858c6a2c6a6b28d128cb6", "hex");
  const name = feedUrl.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, "");
  const hash = createHash("sha1").update(namespace).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** 3725.4 → "01:02:05" (itunes:duration). */
export function itunesDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/**
 * The feed, or null when the series does not exist. Its podcast:guid is the one stored (settings or the
 * series); the first time, the one computed from the address published until now is stored (with the
 * `system` client), so the guid stays when the church moves to another domain.
 */
export async function sermonsFeed(
  guest: PocketBase,
  system: () => Promise<PocketBase>,
  settings: SettingsRecord,
  origin: string,
  seriesSlug: string | null,
): Promise<string | null> {
  let series: SermonSeriesRecord | null = null;
  if (seriesSlug) {
    const rows = await guest.collection("sermon_series").getList<SermonSeriesRecord>(1, 1, {
      filter: guest.filter("slug = {:slug}", { slug: seriesSlug }),
      skipTotal: true,
    });
    series = rows.items[0] ?? null;
    if (!series) return null;
  }
  const filter = series
    ? guest.filter('status = "published" && audio != "" && series = {:s}', { s: series.id })
    : 'status = "published" && audio != ""';
  const sermons = await guest.collection("sermons").getList<SermonRecord>(1, MAX_ITEMS, {
    filter,
    sort: "-preachedOn,-id",
    skipTotal: true,
    expand: "series,speakers",
  });
  const church = settings.churchName || "Our church";
  const feedUrl = series ? `${origin}/feeds/series/${series.slug}.xml` : `${origin}/feeds/sermons.xml`;
  const guid =
    (series ? series.podcastGuid : settings.podcastGuid) ||
    (await storeOnce(
      await system(),
      series ? "sermon_series" : "settings",
      series ? series.id : settings.id,
      "podcastGuid",
      podcastGuid(feedUrl),
    ));
  const link = series ? `${origin}/series/${series.slug}` : `${origin}/sermons`;
  const t = translator(churchLocale(settings));
  const title = series ? `${church}: ${series.title}` : t("feed.sermons.title", { church });
  const description = (
    series?.description ||
    settings.tagline ||
    t("feed.sermons.description", { church })
  ).slice(0, 4000);
  const artwork = (s: SermonSeriesRecord | null | undefined) =>
    s?.artwork
      ? `${origin}/files/sermon_series/${s.id}/${encodeURIComponent(s.artwork)}?thumb=1400x1400`
      : `${origin}${PODCAST_ARTWORK_PATH}`;
  const language = settings.locale || "en";

  // Summaries are parsed by the Markdown workers (a long body takes seconds to parse).
  const summaries = await Promise.all(
    sermons.items.map((sermon) => sermon.summary || markdownPool.plainText(sermon.notes ?? "", 600)),
  );
  const items = sermons.items.map((sermon, index) => {
    const url = `${origin}/sermons/${sermon.slug}`;
    const speakers = (sermon.expand?.speakers ?? []).map((s) => s.name).join(", ");
    const summary = summaries[index] || sermon.title;
    const when = parsePocketBaseDate(sermon.preachedOn || sermon.publishedAt || sermon.created);
    return [
      "    <item>",
      `      <title>${xml(sermon.title)}</title>`,
      `      <link>${xml(url)}</link>`,
      // Stable across renames and domain moves: the record id never changes.
      `      <guid isPermaLink="false">flock-sermon-${xml(sermon.id)}</guid>`,
      `      <pubDate>${when.toUTCString()}</pubDate>`,
      `      <description>${xml(summary)}</description>`,
      `      <enclosure url="${xml(`${origin}/files/sermons/${sermon.id}/${encodeURIComponent(sermon.audio)}`)}" length="${Math.max(0, Math.round(sermon.audioSize || 0))}" type="${xml(sermon.audioType || "audio/mpeg")}"/>`,
      `      <itunes:duration>${itunesDuration(sermon.durationSeconds || 0)}</itunes:duration>`,
      `      <itunes:explicit>false</itunes:explicit>`,
      `      <itunes:episodeType>full</itunes:episodeType>`,
      ...(speakers ? [`      <itunes:author>${xml(speakers)}</itunes:author>`] : []),
      `      <itunes:image href="${xml(artwork(sermon.expand?.series ?? series))}"/>`,
      "    </item>",
    ].join("\n");
  });
  const newest = sermons.items[0];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    "  <channel>",
    `    <title>${xml(title)}</title>`,
    `    <link>${xml(link)}</link>`,
    `    <description>${xml(description)}</description>`,
    `    <language>${xml(language)}</language>`,
    `    <atom:link href="${xml(feedUrl)}" rel="self" type="application/rss+xml"/>`,
    `    <itunes:author>${xml(church)}</itunes:author>`,
    `    <itunes:owner><itunes:name>${xml(church)}</itunes:name>${settings.email ? `<itunes:email>${xml(settings.email)}</itunes:email>` : ""}</itunes:owner>`,
    `    <itunes:image href="${xml(artwork(series))}"/>`,
    `    <itunes:category text="${xml(CATEGORY.name)}"><itunes:category text="${xml(CATEGORY.sub)}"/></itunes:category>`,
    "    <itunes:explicit>false</itunes:explicit>",
    "    <itunes:type>episodic</itunes:type>",
    `    <podcast:guid>${xml(guid)}</podcast:guid>`,
    // "no": other platforms may import the feed. The owner is the address a platform writes to to
    // confirm a move or a claim (Podcasting 2.0); a church without an email leaves it out.
    `    <podcast:locked${settings.email ? ` owner="${xml(settings.email)}"` : ""}>no</podcast:locked>`,
    ...(newest
      ? [`    <lastBuildDate>${parsePocketBaseDate(newest.updated).toUTCString()}</lastBuildDate>`]
      : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

const ARTWORK_SIZE = 1400;
let artworkCache: { key: string; png: Buffer } | null = null;

/**
 * The podcast's square artwork when no series artwork exists (Apple: JPEG or PNG, 1400–3000 px):
 * the church's brand colour with its logo centred, made with sharp and kept until settings change.
 */
export async function podcastArtwork(guest: PocketBase, settings: SettingsRecord): Promise<Buffer> {
  const key = `${settings.id}:${settings.updated}`;
  if (artworkCache?.key === key) return artworkCache.png;
  const background = /^#[0-9a-f]{6}$/i.test(settings.brandColor ?? "") ? settings.brandColor : "#1f6feb";
  const layers: sharp.OverlayOptions[] = [];
  if (settings.logo) {
    try {
      const response = await fetch(guest.files.getURL(settings, settings.logo));
      if (response.ok) {
        const logo = await sharp(Buffer.from(await response.arrayBuffer()))
          .resize(Math.round(ARTWORK_SIZE * 0.6), Math.round(ARTWORK_SIZE * 0.6), { fit: "inside" })
          .png()
          .toBuffer();
        layers.push({ input: logo, gravity: "centre" });
      }
    } catch {
      // An unreadable logo: the plain coloured square is still valid artwork.
    }
  }
  if (!layers.length) {
    // No logo: a simple mark drawn with shapes (no fonts needed on the server).
    const mark = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${ARTWORK_SIZE}" height="${ARTWORK_SIZE}">` +
        `<circle cx="700" cy="700" r="420" fill="none" stroke="#ffffff" stroke-width="48"/>` +
        `<rect x="670" y="420" width="60" height="560" fill="#ffffff"/><rect x="520" y="560" width="360" height="60" fill="#ffffff"/></svg>`,
    );
    layers.push({ input: mark, gravity: "centre" });
  }
  const png = await sharp({ create: { width: ARTWORK_SIZE, height: ARTWORK_SIZE, channels: 3, background } })
    .composite(layers)
    .png()
    .toBuffer();
  artworkCache = { key, png };
  return png;
}
