import type { SettingsRecord } from "../pocketbase/records.ts";
import type { PageContent, PageMeta } from "./page-meta.ts";

const FEED_TYPES = { rss: "application/rss+xml", calendar: "text/calendar" } as const;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/**
 * Replace the first match of `pattern` with `text`, taken literally. A string replacement would
 * expand `$&`, `` $` ``, `$'` and `$1` in editors' text (a title ``Harvest $` supper`` pasted the
 * whole template into the head), so the replacement is always a function.
 */
const put = (html: string, pattern: string | RegExp, text: string) => html.replace(pattern, () => text);

/**
 * Put the page's title, description, canonical URL, Open Graph tags, language and brand colour
 * into the built index.html, replacing the `<!--flock:head-->` marker and the default title; and,
 * when the route has it, the page's already-rendered (sanitized) content inside the app's root
 * element, for crawlers and link previews that run no JavaScript. React replaces it on start.
 */
export function renderAppHtml(template: string, meta: PageMeta, settings: SettingsRecord, url: URL): string {
  const canonical = `${url.origin}${url.pathname}`;
  const head = [
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<meta property="og:site_name" content="${escapeHtml(settings.churchName)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:type" content="${meta.type ?? "website"}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    ...(meta.audio
      ? [
          `<meta property="og:audio" content="${escapeHtml(meta.audio.url)}">`,
          `<meta property="og:audio:type" content="${escapeHtml(meta.audio.type)}">`,
        ]
      : []),
    ...(meta.image
      ? [
          `<meta property="og:image" content="${escapeHtml(meta.image)}">`,
          `<meta name="twitter:image" content="${escapeHtml(meta.image)}">`,
        ]
      : []),
    `<meta name="twitter:card" content="${meta.image ? "summary_large_image" : "summary"}">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(settings.churchName)}" href="${escapeHtml(url.origin)}/feeds/news.xml">`,
    ...(meta.feeds ?? []).map(
      (feed) =>
        `<link rel="alternate" type="${FEED_TYPES[feed.kind]}" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}">`,
    ),
    // JSON-LD inside a script element: "<" is escaped so no text can close the element.
    ...(meta.jsonLd
      ? [
          `<script type="application/ld+json">${JSON.stringify(meta.jsonLd).replace(/</g, "\\u003c")}</script>`,
        ]
      : []),
    ...(meta.noindex ? [`<meta name="robots" content="noindex">`] : []),
    ...(settings.brandColor
      ? [`<meta name="theme-color" content="${escapeHtml(settings.brandColor)}">`]
      : []),
  ].join("\n    ");
  const lang = settings.locale || "en";
  let html = put(template, /<html lang="[^"]*"/, `<html lang="${lang}"`);
  html = put(html, /<title>[^<]*<\/title>/, `<title>${escapeHtml(meta.title)}</title>`);
  html = put(html, "<!--flock:head-->", head);
  if (meta.content)
    html = put(html, '<div id="root"></div>', `<div id="root">${renderContent(meta.content)}</div>`);
  return html;
}

function renderContent(content: PageContent): string {
  return [
    // class="prerendered": hidden where scripts run (global.css), so the app's own render shows no flash or layout shift.
    '<main class="prerendered"><article>',
    `<h1>${escapeHtml(content.heading)}</h1>`,
    ...(content.lead ? [`<p>${escapeHtml(content.lead)}</p>`] : []),
    ...(content.html ? [content.html] : []),
    ...(content.links?.length
      ? [
          `<ul>${content.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`).join("")}</ul>`,
        ]
      : []),
    "</article></main>",
  ].join("");
}
