import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { useUpcomingEvents } from "./events.generated.ts";
import { EventCard } from "./EventCard.tsx";

/** The home page's "Next events": the next few dates as cards (as the news beside them), and the calendar. */
export function UpcomingEvents() {
  const { t } = useI18n();
  const { data } = useUpcomingEvents();
  const items = data?.upcomingOccurrences ?? [];
  if (!items.length) return null;
  return (
    <section className="home-events" aria-labelledby="home-events-title">
      <div className="section-heading">
        <h2 id="home-events-title">{t("events.next")}</h2>
        <Link to="/events">{t("events.all")} →</Link>
      </div>
      <div className="event-cards">
        {items.map((o) => (
          <EventCard key={o.id} o={o} />
        ))}
      </div>
    </section>
  );
}
