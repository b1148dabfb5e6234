import type { MouseEvent } from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";

// The gateway renders embeds as a link plus a validated player address; nothing loads from the
// video site until the reader asks for it (privacy). The address is checked again here.
const PLAYER =
  /^https:\/\/(www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}|player\.vimeo\.com\/video\/\d+)$/;

/**
 * HTML that the gateway rendered from Markdown and sanitized with an allow-list (PRODUCT §2.4);
 * this is the only place the app sets HTML, and it never receives anything else.
 */
export function RichText({ html }: { html: string }) {
  const { t } = useI18n();
  function loadEmbed(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as HTMLElement).closest("a.embed__link");
    const figure = link?.closest<HTMLElement>("figure.embed");
    const src = figure?.dataset.embedSrc;
    if (!figure || !src || !PLAYER.test(src)) return;
    event.preventDefault();
    const frame = document.createElement("iframe");
    // Vimeo: dnt=1 (no tracking); YouTube: the privacy-enhanced host (checked above).
    frame.src = src.startsWith("https://player.vimeo.com/") ? `${src}?autoplay=1&dnt=1` : `${src}?autoplay=1`;
    frame.title =
      figure.querySelector(".embed__title")?.textContent || link?.textContent || t("content.video");
    frame.allow = "autoplay; fullscreen; picture-in-picture";
    frame.allowFullscreen = true;
    frame.className = "embed__frame";
    // The title (figcaption) stays under the player.
    link?.replaceWith(frame);
    frame.focus();
  }
  // The click lands on a real link inside, which the keyboard activates too.
  return <div className="prose" onClick={loadEmbed} dangerouslySetInnerHTML={{ __html: html }} />;
}
