import { Link } from "react-router";
import type { SermonCardFragment } from "./sermons.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatClock } from "./clock.ts";

/** A sermon in a list: title, date, speakers, scripture and length. */
export function SermonCard({
  sermon,
  headingLevel = 2,
}: {
  sermon: SermonCardFragment;
  headingLevel?: 2 | 3;
}) {
  const { locale } = useI18n();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const date = sermon.preachedOn
    ? new Date(sermon.preachedOn).toLocaleDateString(locale, { timeZone: "UTC", dateStyle: "medium" })
    : null;
  return (
    <article className="sermon-card">
      {sermon.series?.artworkUrl ? (
        <img
          className="sermon-card__art"
          src={sermon.series.artworkUrl}
          alt=""
          width={96}
          height={96}
          loading="lazy"
        />
      ) : (
        <span className="sermon-card__art sermon-card__art--blank" aria-hidden="true" />
      )}
      <div>
        <Heading className="sermon-card__title">
          <Link to={sermon.path}>{sermon.title}</Link>
        </Heading>
        <p className="muted small">
          {date && <time dateTime={sermon.preachedOn!.slice(0, 10)}>{date}</time>}
          {sermon.speakers.length > 0 && <> · {sermon.speakers.map((s) => s.name).join(", ")}</>}
          {sermon.audio?.durationSeconds ? <> · {formatClock(sermon.audio.durationSeconds)}</> : null}
        </p>
        {sermon.scriptureText && <p className="sermon-card__scripture">{sermon.scriptureText}</p>}
        {sermon.series && <p className="small">{sermon.series.title}</p>}
      </div>
    </article>
  );
}
