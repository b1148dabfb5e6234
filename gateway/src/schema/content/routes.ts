import type PocketBase from "pocketbase";
import type { PageRecord, PostRecord } from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { renderBody } from "../../markdown/body.ts";
import type { FeatureHttp } from "../../http/route-table.ts";
import { guestFind, iso, notFound, previewImageOf, titled, type MetaResolver } from "../../http/page-meta.ts";
import { newsFeed } from "./news-feed.ts";

// Content's entry in the gateway's route table: the news feed, and the meta of news and pages.

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

export const contentHttp: FeatureHttp = {
  routes: ({ config, services, guest, publicOrigin, serveDocument }) => [
    {
      match: (url) => url.pathname === "/feeds/news.xml",
      async handle(req, res, url) {
        const pb = guest();
        const render = (post: PostRecord) =>
          renderBody({ pb, config }, `posts:${post.id}:${post.updated}`, post.body ?? "");
        await serveDocument(
          req,
          res,
          url.pathname,
          "application/rss+xml; charset=utf-8",
          services.publicSettings.get().then((settings) => newsFeed(pb, settings, publicOrigin, render)),
        );
      },
    },
  ],
  pages: [
    [/^\/news$/, titled("page.news")],
    [/^\/news\/(?<slug>[a-z0-9-]{1,120})$/, newsPost],
    [/^\/p\/(?<slug>[a-z0-9-]{1,120})$/, contentPage],
  ],
};
