import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { dateTimeFormat, formatWhen, todayIn } from "../../i18n/format.ts";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useEventsCalendar, type OccurrenceCardFragment } from "./events.generated.ts";
import { addDays, monthGrid, monthOf, shiftMonth, startOfWeek, type Ymd } from "./calendar.ts";
import { CalendarSubscribe } from "../../components/CalendarSubscribe.tsx";
import { EventCard } from "./EventCard.tsx";
import "./events.css";

type View = "list" | "month" | "week";

/** The local date (YYYY-MM-DD) an occurrence starts on, in its event's zone. */
const dayOf = (o: Pick<OccurrenceCardFragment, "start" | "event">): Ymd =>
  todayIn(o.event.timezone, new Date(o.start));

/** The list shows this many weeks from its first day, and this many more with each "More events". */
const LIST_WEEKS = 6;
/** The API's longest range (occurrences: 18 months). */
const LIST_MAX_DAYS = 540;

/**
 * /events: the list of the coming weeks (cards, "More events" for the weeks after), month and week
 * views paged by month or week, a category filter and "today".
 */
export function EventsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("events.title"));
  const shell = useAppShell();
  const zone = shell.data?.settings.timezone ?? "UTC";
  const [params, setParams] = useSearchParams();
  const view: View =
    params.get("view") === "month" ? "month" : params.get("view") === "week" ? "week" : "list";
  const today = todayIn(zone);
  const anchor: Ymd = /^\d{4}-\d{2}-\d{2}$/.test(params.get("date") ?? "") ? params.get("date")! : today;
  const category = params.get("category") || null;
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  // The list's length: back to LIST_WEEKS when it starts elsewhere or shows another category.
  const [listWeeks, setListWeeks] = useState({ key: `${anchor}|${category}`, weeks: LIST_WEEKS });
  const weeks = listWeeks.key === `${anchor}|${category}` ? listWeeks.weeks : LIST_WEEKS;
  const weekStart = startOfWeek(anchor);
  const [listFrom, rangeEnd] =
    view === "week"
      ? [weekStart, addDays(weekStart, 7)]
      : view === "month"
        ? monthGrid(anchor).range
        : [anchor, addDays(anchor, Math.min(7 * weeks, LIST_MAX_DAYS))];
  // A day of margin on both sides: the zones of the church and its events may differ from UTC.
  const {
    data: fresh,
    previousData,
    loading,
    error,
  } = useEventsCalendar({
    variables: {
      from: `${addDays(listFrom, -1)}T00:00:00Z`,
      to: `${addDays(rangeEnd, 1)}T00:00:00Z`,
      categorySlug: category,
    },
    fetchPolicy: "cache-and-network",
  });
  // While more weeks load, the weeks already shown stay.
  const data = fresh ?? (view === "list" ? previousData : undefined);
  const occurrences = (data?.occurrences ?? []).filter((o) => dayOf(o) >= listFrom && dayOf(o) < rangeEnd);
  const canShowMore = view === "list" && 7 * weeks < LIST_MAX_DAYS;
  const byDay = new Map<Ymd, OccurrenceCardFragment[]>();
  for (const o of occurrences) byDay.set(dayOf(o), [...(byDay.get(dayOf(o)) ?? []), o]);
  const monthTitle = dateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${monthOf(anchor)}T12:00:00Z`),
  );
  const dayLabel = (d: Ymd, options: Intl.DateTimeFormatOptions) =>
    dateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(new Date(`${d}T12:00:00Z`));
  const step = (direction: 1 | -1) =>
    set({
      date: view === "week" ? addDays(weekStart, 7 * direction) : shiftMonth(monthOf(anchor), direction),
    });
  const title =
    view === "week"
      ? t("events.weekOf", { date: dayLabel(weekStart, { month: "long", day: "numeric", year: "numeric" }) })
      : view === "month"
        ? monthTitle
        : anchor === today
          ? t("events.comingUp")
          : t("events.from", { date: dayLabel(anchor, { month: "long", day: "numeric", year: "numeric" }) });

  return (
    <div className="container page events-page">
      <div className="section-heading">
        <h1>{t("events.title")}</h1>
        <CalendarSubscribe
          url={category ? `/feeds/events/${category}.ics` : "/feeds/events.ics"}
          label={t("events.subscribe")}
        />
      </div>
      <div className="events-toolbar">
        <div className="events-views" role="group" aria-label={t("events.view")}>
          {(["list", "month", "week"] as const).map((v) => (
            <button
              key={v}
              type="button"
              className={`button button--ghost${view === v ? " is-active" : ""}`}
              aria-pressed={view === v}
              onClick={() => set({ view: v === "list" ? null : v })}
            >
              {t(`events.view.${v}`)}
            </button>
          ))}
        </div>
        <div className="events-paging">
          {view !== "list" && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => step(-1)}
              aria-label={view === "week" ? t("events.previousWeek") : t("events.previousMonth")}
            >
              ‹
            </button>
          )}
          <h2 className="events-paging__title" aria-live="polite">
            {title}
          </h2>
          {view !== "list" && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => step(1)}
              aria-label={view === "week" ? t("events.nextWeek") : t("events.nextMonth")}
            >
              ›
            </button>
          )}
          {(view !== "list" || anchor !== today) && (
            <button type="button" className="button button--ghost" onClick={() => set({ date: null })}>
              {t("events.today")}
            </button>
          )}
        </div>
        <div className="field events-filter">
          <label htmlFor="event-category">{t("events.category")}</label>
          <select
            id="event-category"
            value={category ?? ""}
            onChange={(e) => set({ category: e.target.value || null })}
          >
            <option value="">{t("events.allCategories")}</option>
            {data?.eventCategories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      <div aria-busy={loading}>
        {loading && !data ? (
          <Loading />
        ) : view === "list" ? (
          <>
            {occurrences.length ? (
              <ul className="event-list">
                {occurrences.map((o) => (
                  <li key={o.id}>
                    <EventCard o={o} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="empty">{t("events.emptyWeeks", { count: weeks })}</p>
            )}
            {canShowMore && (
              <p className="events-more">
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={loading}
                  onClick={() => setListWeeks({ key: `${anchor}|${category}`, weeks: weeks + LIST_WEEKS })}
                >
                  {loading && fresh === undefined ? t("events.loadingMore") : t("events.more")}
                </button>
              </p>
            )}
          </>
        ) : (
          <CalendarGrid
            days={
              view === "week"
                ? Array.from({ length: 7 }, (_, i) => addDays(weekStart, i))
                : monthGrid(anchor).days
            }
            month={view === "month" ? monthOf(anchor).slice(0, 7) : null}
            today={today}
            byDay={byDay}
            dayLabel={dayLabel}
          />
        )}
      </div>
    </div>
  );
}

function CalendarGrid(props: {
  days: Ymd[];
  month: string | null;
  today: Ymd;
  byDay: Map<Ymd, OccurrenceCardFragment[]>;
  dayLabel: (d: Ymd, o: Intl.DateTimeFormatOptions) => string;
}) {
  const { t, locale } = useI18n();
  const weekdays = props.days.slice(0, 7).map((d) => props.dayLabel(d, { weekday: "short" }));
  return (
    <table className={`event-grid${props.month ? "" : " event-grid--week"}`}>
      <caption className="visually-hidden">{t("events.calendar")}</caption>
      <thead>
        <tr>
          {weekdays.map((w) => (
            <th key={w} scope="col">
              {w}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: props.days.length / 7 }, (_, row) => (
          <tr key={row}>
            {props.days.slice(row * 7, row * 7 + 7).map((d) => {
              const outside = props.month && !d.startsWith(props.month);
              const items = props.byDay.get(d) ?? [];
              return (
                <td
                  key={d}
                  className={`${outside ? "is-outside" : ""}${d === props.today ? " is-today" : ""}${items.length ? "" : " is-empty"}`}
                  aria-current={d === props.today ? "date" : undefined}
                >
                  <span className="event-grid__day">
                    {/* Phones show the grid as a list of days: the weekday goes with the number there. */}
                    <span className="event-grid__weekday">{props.dayLabel(d, { weekday: "short" })} </span>
                    {props.dayLabel(d, { day: "numeric" })}
                  </span>
                  <ul>
                    {items.map((o) => (
                      <li key={o.id} className={o.status === "CANCELLED" ? "is-cancelled" : ""}>
                        <Link to={o.path}>
                          {!o.event.allDay && (
                            <span className="event-grid__time">
                              {formatWhen(o.start, locale, { date: "none", timeZone: o.event.timezone })}{" "}
                            </span>
                          )}
                          {o.event.title}
                          {o.status === "CANCELLED" && (
                            <span className="visually-hidden"> ({t("events.cancelled")})</span>
                          )}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
