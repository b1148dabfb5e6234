import type PocketBase from "pocketbase";
import type { PostRecord, SettingsRecord } from "../pocketbase/records.ts";
import {
  churchT,
  notFound,
  titled,
  type MetaContext,
  type PageContent,
  type PageMeta,
  type PageRoute,
} from "./page-meta.ts";
import { developerGuideHtml } from "./developer-guide.ts";

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

/**
 * The app's pages that belong to no feature's entry (the front page, sign-in, the member and staff
 * areas); each feature adds its own (schema/<feature>/routes.ts). Anything unmatched, and any slug that
 * names nothing a visitor may read, is served with status 404.
 */
export const CORE_PAGES: PageRoute[] = [
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
  [
    /^\/developers$/,
    async ({ settings, origin }) => ({
      title: churchT(settings)("page.title", {
        page: churchT(settings)("page.developers"),
        church: settings.churchName,
      }),
      description: churchT(settings)("page.developersDescription", { church: settings.churchName }),
      found: true,
      content: { heading: churchT(settings)("page.developers"), html: await developerGuideHtml(origin) },
    }),
  ],
];

/** The meta of the first page route `path` matches (CORE_PAGES, then each feature's), else "not found". */
export async function metaForPath(path: string, ctx: MetaContext, routes: PageRoute[]): Promise<PageMeta> {
  for (const [pattern, resolve] of routes) {
    const match = pattern.exec(path);
    if (match) return resolve(ctx, match.groups ?? {});
  }
  return notFound(ctx.settings);
}
