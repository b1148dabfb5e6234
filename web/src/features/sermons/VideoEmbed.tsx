import { useState } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";

// The gateway rebuilt the embed address from a validated id; checked again before it becomes an iframe.
const PLAYER =
  /^https:\/\/(www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}|player\.vimeo\.com\/video\/\d+)$/;

/** Click-to-load video: nothing is fetched from the video site until the viewer asks for it. */
export function VideoEmbed({ embedUrl, url, title }: { embedUrl: string; url: string; title: string }) {
  const { t } = useI18n();
  const [loaded, setLoaded] = useState(false);
  if (!PLAYER.test(embedUrl)) return null;
  return (
    <figure className="embed sermon-video">
      {loaded ? (
        <iframe
          className="embed__frame"
          src={`${embedUrl}?autoplay=1`}
          title={title}
          allow="autoplay; fullscreen; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <button type="button" className="embed__link sermon-video__load" onClick={() => setLoaded(true)}>
          <span aria-hidden="true">▶</span> {t("sermons.video.load")}
        </button>
      )}
      <figcaption className="small">
        {t("sermons.video.privacy")} <a href={url}>{t("sermons.video.open")}</a>
      </figcaption>
    </figure>
  );
}
