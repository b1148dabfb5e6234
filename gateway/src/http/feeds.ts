import type PocketBase from "pocketbase";
import type { PageRecord, PostRecord } from "../pocketbase/records.ts";
import { parsePocketBaseDate } from "../pocketbase/dates.ts";
import { xml } from "./xml.ts";

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
    entry("/give"),
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
