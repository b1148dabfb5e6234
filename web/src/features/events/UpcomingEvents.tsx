import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { useUpcomingEvents } from "./events.generated.ts";
import { occurrenceWhen } from "../../lib/occurrenceWhen.ts";

/** The home page's "Next events": the next few occurrences, with a link to the calendar. */
export function UpcomingEvents() {
  const { t, locale } = useI18n();
  const { data } = useUpcomingEvents();
  const items = data?.upcomingOccurrences ?? [];
  if (!items.length) return null;
  return (
    <section className="home-events" aria-labelledby="home-events-title">
      <h2 id="home-events-title">{t("events.next")}</h2>
      <ul>
        {items.map((o) => (
          <li key={o.id}>
            <Link to={o.path}>{o.event.title}</Link>
            <br />
            <span className="small">{occurrenceWhen(o, locale)}</span>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/events">{t("events.all")}</Link>
      </p>
    </section>
  );
}
