import type { GatewayContext } from "../context.ts";
import { serviceUnavailable } from "../errors.ts";
import { mediaByIds, mediaIdFromUrl } from "../pocketbase/media.ts";
import type { ImageInfo } from "./render.ts";
import { MarkdownTimeoutError, markdownPool } from "./pool.ts";

// Rendered HTML by record and version: bodies change only with `updated`.
const htmlCache = new Map<string, string>();
const HTML_CACHE_MAX = 500;
// Renders under way, by the same key: concurrent readers of one body share one render.
const rendering = new Map<string, Promise<string>>();
// Versions that ran out of time are not tried again for a while (each try holds a worker that long).
const timedOut = new Map<string, number>();
const TIMED_OUT_RETRY_MS = 10 * 60_000;

/**
 * Root-relative `src` and `href` values ("/files/…", "/p/about") made absolute on `origin`: integrators
 * show Post.html, Page.html and the RSS content:encoded on other sites and in feed readers, where a
 * path resolves against the wrong host. The renderer writes every attribute double-quoted, so the
 * attribute's start is unambiguous; protocol-relative values ("//host") are left alone.
 */
export function absoluteLinks(html: string, origin: string): string {
  return html.replace(/(\s(?:src|href)=")\/(?!\/)/g, (_, attribute: string) => `${attribute}${origin}/`);
}

/**
 * The sanitized HTML of a body, with image sizes and alt text from the media library, its links and
 * images absolute on the public origin (absoluteLinks). Rendered by
 * the worker pool (markdown/pool.ts), never on the request thread; past its time limit the field
 * fails with SERVICE_UNAVAILABLE (reason render_timeout) and the rest of the answer is unaffected.
 */
export async function renderBody(
  ctx: Pick<GatewayContext, "pb"> & { config: Pick<GatewayContext["config"], "publicUrl"> },
  key: string,
  markdown: string,
): Promise<string> {
  // Cached as rendered (paths): gateways of one process may serve different origins (tests do).
  const origin = new URL(ctx.config.publicUrl).origin;
  return absoluteLinks(await renderRelative(ctx, key, markdown), origin);
}

async function renderRelative(
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
