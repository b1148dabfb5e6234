import type PocketBase from "pocketbase";
import type { PageRecord, PostRecord, SettingsRecord } from "../pocketbase/records.ts";
import { markdownPool } from "../markdown/pool.ts";
import { parsePocketBaseDate } from "../pocketbase/dates.ts";
import { churchLocale, translator } from "../mail/i18n.ts";

// XML 1.0 cannot carry most control characters at all, escaped or not: drop them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const xml = (value: string) =>
  value
    .replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
    )
    .replace(XML_INVALID, "");
/** HTML inside CDATA: a "]]>" in the text would end the section, so it is split across two. */
const cdata = (html: string) =>
  `<![CDATA[${html.replace(XML_INVALID, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

/** Sanitized HTML of a post's body, as the site renders it. */
export type RenderPost = (post: PostRecord) => Promise<string>;

/**
 * RSS 2.0 of the latest published news, read as a guest: only what anyone may read (members-only
 * posts never appear). Absolute URLs throughout, as feed readers need.
 */
export async function newsFeed(
  guest: PocketBase,
  settings: SettingsRecord,
  origin: string,
  render: RenderPost,
): Promise<string> {
  const posts = await guest.collection("posts").getList<PostRecord>(1, 20, {
    filter: 'status = "published" && audience = "public"',
    sort: "-publishedAt,-id",
    skipTotal: true,
    expand: "cover",
  });
  // Summaries are parsed by the Markdown workers (a long body takes seconds to parse).
  const summaries = await Promise.all(
    posts.items.map((post) => post.summary || markdownPool.plainText(post.body, 400)),
  );
  const bodies = await Promise.all(posts.items.map(render));
  const items = posts.items.map((post, index) => {
    const url = `${origin}/news/${post.slug}`;
    const cover = post.expand?.cover;
    return [
      "    <item>",
      `      <title>${xml(post.title)}</title>`,
      `      <link>${xml(url)}</link>`,
      // The record id: stays the same when an editor changes the slug, so readers don't show the post again.
      `      <guid isPermaLink="false">urn:flock:post:${xml(post.id)}</guid>`,
      `      <pubDate>${parsePocketBaseDate(post.publishedAt || post.created).toUTCString()}</pubDate>`,
      `      <description>${xml(summaries[index]!)}</description>`,
      `      <content:encoded>${cdata(bodies[index]!)}</content:encoded>`,
      ...(post.authorName ? [`      <dc:creator>${xml(post.authorName)}</dc:creator>`] : []),
      ...(cover?.kind === "image"
        ? [
            `      <enclosure url="${xml(`${origin}/files/media/${cover.id}/${encodeURIComponent(cover.file)}`)}" length="${cover.size || 0}" type="${xml(cover.mimeType || "image/jpeg")}"/>`,
          ]
        : []),
      "    </item>",
    ].join("\n");
  });
  const newest = posts.items[0];
  const t = translator(churchLocale(settings));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    "  <channel>",
    `    <title>${xml(t("feed.news.title", { church: settings.churchName }))}</title>`,
    `    <link>${xml(`${origin}/news`)}</link>`,
    `    <description>${xml(settings.tagline || t("feed.news.description", { church: settings.churchName }))}</description>`,
    `    <language>${settings.locale || "en"}</language>`,
    `    <atom:link href="${xml(`${origin}/feeds/news.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest
      ? [
          `    <lastBuildDate>${parsePocketBaseDate(newest.publishedAt || newest.updated).toUTCString()}</lastBuildDate>`,
        ]
      : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

/**
 * Every public URL worth indexing: home, news, the prayer wall, plan a visit, published pages and public
 * posts, sermons with their series and speakers, public events and public groups. Read as a guest, so
 * drafts (and members-only or hidden groups) never appear.
 */
export async function sitemap(guest: PocketBase, origin: string): Promise<string> {
  const [pages, posts, sermons, series, speakers, events, groups] = await Promise.all([
    guest.collection("pages").getFullList<PageRecord>({
      filter: 'status = "published"',
      fields: "slug,updated",
      sort: "navOrder,title",
    }),
    guest.collection("posts").getFullList<PostRecord>({
      filter: 'status = "published" && audience = "public"',
      fields: "slug,updated",
      sort: "-publishedAt",
      batch: 500,
    }),
    guest.collection("sermons").getFullList<{ slug: string; updated: string }>({
      filter: 'status = "published"',
      fields: "slug,updated",
      sort: "-preachedOn",
      batch: 500,
    }),
    guest
      .collection("sermon_series")
      .getFullList<{ slug: string; updated: string }>({ fields: "slug,updated", sort: "title", batch: 500 }),
    guest
      .collection("speakers")
      .getFullList<{ slug: string; updated: string }>({ fields: "slug,updated", sort: "name", batch: 500 }),
    guest.collection("events").getFullList<{ slug: string; updated: string }>({
      filter: 'status = "published" && visibility = "public"',
      fields: "slug,updated",
      sort: "startsAt",
      batch: 500,
    }),
    guest.collection("groups").getFullList<{ slug: string; updated: string }>({
      filter: 'status = "active" && visibility = "public"',
      fields: "slug,updated",
      sort: "name",
      batch: 500,
    }),
  ]);
  const entry = (path: string, updated?: string) =>
    `  <url><loc>${xml(origin + path)}</loc>${updated ? `<lastmod>${parsePocketBaseDate(updated).toISOString()}</lastmod>` : ""}</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    entry("/"),
    entry("/news"),
    entry("/prayer"),
    entry("/visit"),
    entry("/sermons"),
    entry("/events"),
    entry("/groups"),
    ...pages.map((p) => entry(`/p/${p.slug}`, p.updated)),
    ...posts.map((p) => entry(`/news/${p.slug}`, p.updated)),
    ...sermons.map((s) => entry(`/sermons/${s.slug}`, s.updated)),
    ...series.map((s) => entry(`/series/${s.slug}`, s.updated)),
    ...speakers.map((s) => entry(`/speakers/${s.slug}`, s.updated)),
    ...events.map((e) => entry(`/events/${e.slug}`, e.updated)),
    ...groups.map((g) => entry(`/groups/${g.slug}`, g.updated)),
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /me",
    "Disallow: /graphql",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
