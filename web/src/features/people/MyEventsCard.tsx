import { useState } from "react";
import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { handleError } from "../../lib/handleError.ts";
import { Alert } from "../../components/Alert.tsx";
import { useMyUpcomingEvents, useResetCalendarToken } from "../events/events.generated.ts";
import { occurrenceWhen } from "../../lib/occurrenceWhen.ts";
import { CalendarSubscribe } from "../../components/CalendarSubscribe.tsx";

/** /me's "Coming up": the member's RSVPs and registrations, and their personal calendar address. */
export function MyEventsCard() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { data, error } = useMyUpcomingEvents({ fetchPolicy: "cache-and-network" });
  const [reset, { loading }] = useResetCalendarToken();
  const [feed, setFeed] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const items = data?.myUpcomingEvents ?? [];
  return (
    <section className="card" aria-labelledby="me-coming-up">
      <h2 id="me-coming-up">{t("me.activityTitle")}</h2>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {items.length ? (
        <ul>
          {items.map((o) => (
            <li key={o.id}>
              <Link to={o.path}>{o.event.title}</Link>
              <br />
              <span className="small">{occurrenceWhen(o, locale)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("events.noneComingUp")}</p>
      )}
      <p>
        <Link to="/events">{t("events.all")}</Link>
      </p>
      {problem && <Alert kind="error">{problem}</Alert>}
      {feed ? (
        <>
          <p className="small">{t("events.myFeed")}</p>
          <CalendarSubscribe url={feed} label={t("events.subscribeMine")} />
        </>
      ) : (
        <button
          type="button"
          className="button button--ghost"
          disabled={loading}
          onClick={() =>
            void reset()
              .then((r) => setFeed(r.data?.resetCalendarToken ?? null))
              .catch((e: unknown) => setProblem(handleError(e, i18n).message))
          }
        >
          {t("events.newFeed")}
        </button>
      )}
      <p className="small muted">{t("events.newFeedHint")}</p>
    </section>
  );
}
