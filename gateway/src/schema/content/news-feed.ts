import type PocketBase from "pocketbase";
import type { PostRecord, SettingsRecord } from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { parsePocketBaseDate } from "../../pocketbase/dates.ts";
import { churchLocale, translator } from "../../mail/i18n.ts";
import { cdata, xml } from "../../http/xml.ts";

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
