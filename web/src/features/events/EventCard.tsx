import type { CSSProperties } from "react";
import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { dateTimeFormat } from "../../i18n/format.ts";
import { occurrenceWhen } from "../../lib/occurrenceWhen.ts";
import type { OccurrenceCardFragment } from "./events.generated.ts";
import "./event-card.css";

/**
 * One date of an event as a card: a date badge over the cover image (or the category's colour), the
 * title, when, where, and what a visitor needs to know (cancelled, moved, seats left). Tiles on the
 * home page; rows in the calendar's list.
 */
export function EventCard({ o, headingLevel = 3 }: { o: OccurrenceCardFragment; headingLevel?: 2 | 3 }) {
  const { t, locale } = useI18n();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const cancelled = o.status === "CANCELLED";
  const timeZone = o.event.timezone;
  const start = new Date(o.start);
  const part = (options: Intl.DateTimeFormatOptions) =>
    dateTimeFormat(locale, { ...options, timeZone }).format(start);
  const color = o.event.category?.color;
  return (
    <article className={`event-card${cancelled ? " event-card--cancelled" : ""}`}>
      <div
        className="event-card__media"
        style={color ? ({ "--event-color": color } as CSSProperties) : undefined}
      >
        {o.event.cardImageUrl && (
          <img src={o.event.cardImageUrl} alt="" width={640} height={360} loading="lazy" decoding="async" />
        )}
        {/* The date in words follows in the body; the badge is for the eye. */}
        <span className="event-card__date" aria-hidden="true">
          <span>{part({ month: "short" })}</span>
          <strong>{part({ day: "numeric" })}</strong>
        </span>
      </div>
      <div className="event-card__body">
        <Heading className="event-card__title">
          <Link to={o.path}>{o.event.title}</Link>
        </Heading>
        <p className="event-card__when">{occurrenceWhen(o, locale)}</p>
        <p className="event-card__meta">
          {cancelled && <strong className="event-flag">{t("events.cancelled")}</strong>}
          {o.status === "MOVED" && <strong className="event-flag">{t("events.moved")}</strong>}
          {o.event.category && (
            <span className="event-tag" style={{ borderColor: color ?? undefined }}>
              {o.event.category.name}
            </span>
          )}
          {o.event.locationName && <span>{o.event.locationName}</span>}
          {o.seatsLeft !== null && o.seatsLeft !== undefined && !cancelled && (
            <span>{o.seatsLeft > 0 ? t("events.seatsLeft", { count: o.seatsLeft }) : t("events.full")}</span>
          )}
        </p>
      </div>
    </article>
  );
}
