import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { LIMITS } from "@flock/shared/limits";
import { dateTimeFormat } from "../../../i18n/format.ts";
import { Loading } from "../../../components/Loading.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { useAppShell } from "../../../gql/AppShell.generated.ts";
import type { EventInput, EventVisibility, RegistrationMode } from "../../../gql/types.ts";
import {
  useAdminEventEditor, useAdminEventsList, useCancelOccurrence, useCreateEvent, useEventAttendees, usePublishEvent, useRecurrencePreview, useRestoreOccurrence,
  useStaffCancelRegistration, useUpdateEvent, type AdminEventFieldsFragment,
} from "./AdminEvents.generated.ts";
import { fromRRule, NO_REPEAT, ordinalOf, toRRule, weekdayOf, WEEKDAYS, type Frequency, type RecurrenceChoice, type Weekday } from "./recurrence.ts";
import "../events.css";

/** "2026-12-06T10:00" of an instant in a zone (the editor's local wall-clock fields). */
function localInput(iso: string, zone: string): string {
  const parts = Object.fromEntries(
    dateTimeFormat("en-GB", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** /admin/events: every event (drafts too) and a quick "new event". */
export function AdminEventsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.events.title"));
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const { data, loading, error } = useAdminEventsList({ variables: { search: query || null }, fetchPolicy: "cache-and-network" });
  return (
    <div>
      <div className="section-heading">
        <h1>{t("admin.events.title")}</h1>
        <Link className="button" to="/admin/events/new">
          {t("admin.events.new")}
        </Link>
      </div>
      <TextField label={t("admin.events.search")} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t("admin.events.eventTitle")}</th>
              <th scope="col">{t("admin.events.starts")}</th>
              <th scope="col">{t("admin.events.repeats")}</th>
              <th scope="col">{t("admin.events.status")}</th>
            </tr>
          </thead>
          <tbody>
            {data?.events.map((e) => (
              <tr key={e.id}>
                <td>
                  <Link to={`/admin/events/${e.id}`}>{e.title}</Link>
                </td>
                <td>{dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: e.timezone }).format(new Date(e.startsAt))}</td>
                <td>{e.recurrenceText ?? t("admin.events.once")}</td>
                <td>{t(`admin.events.status.${e.status.toLowerCase() as "draft" | "published" | "cancelled"}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

interface Draft {
  title: string;
  summary: string;
  description: string;
  categoryId: string;
  locationName: string;
  locationAddress: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  visibility: EventVisibility;
  registrationMode: RegistrationMode;
  capacity: string;
  waitlistEnabled: boolean;
  repeat: RecurrenceChoice;
}

function draftOf(e: AdminEventFieldsFragment | null | undefined, zone: string): Draft {
  if (!e) {
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    return {
      title: "", summary: "", description: "", categoryId: "", locationName: "", locationAddress: "", startsAt: `${day}T10:00`, endsAt: `${day}T11:00`, timezone: zone,
      visibility: "PUBLIC", registrationMode: "NONE", capacity: "", waitlistEnabled: true, repeat: NO_REPEAT,
    };
  }
  return {
    title: e.title, summary: e.summary, description: e.description, categoryId: e.category?.id ?? "", locationName: e.locationName, locationAddress: e.locationAddress,
    startsAt: localInput(e.startsAt, e.timezone), endsAt: localInput(e.endsAt, e.timezone), timezone: e.timezone, visibility: e.visibility,
    registrationMode: e.registrationMode, capacity: e.capacity ? String(e.capacity) : "", waitlistEnabled: e.waitlistEnabled, repeat: fromRRule(e.rrule),
  };
}

/** The recurrence builder: frequency, interval, days, "2nd Sunday" / "last Friday", the end; previewed in words by the gateway. */
function RecurrenceBuilder({ value, onChange, startsAt, timezone, error }: { value: RecurrenceChoice; onChange: (v: RecurrenceChoice) => void; startsAt: string; timezone: string; error?: string | undefined }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const startDate = startsAt.slice(0, 10);
  const rrule = toRRule(value, startDate);
  const debounced = useDebounced(rrule, 250);
  const preview = useRecurrencePreview({ skip: !debounced, variables: { input: { startsAt, timezone, rrule: debounced, locale, count: 5 } } });
  const dayName = (code: Weekday) => dateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(code))));
  const ordinalLabel = (n: number) => t(n === -1 ? "admin.events.ordinal.last" : (`admin.events.ordinal.${n}` as "admin.events.ordinal.1"));
  const set = (patch: Partial<RecurrenceChoice>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="recurrence-builder">
      <legend>{t("admin.events.repeat")}</legend>
      <SelectField label={t("admin.events.frequency")} value={value.freq} onChange={(e) => set({ freq: e.target.value as Frequency, ordinal: ordinalOf(startDate) })}>
        {(["NONE", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const).map((f) => (
          <option key={f} value={f}>
            {t(`admin.events.freq.${f.toLowerCase() as "none"}`)}
          </option>
        ))}
      </SelectField>
      {value.freq !== "NONE" && (
        <>
          <TextField label={t("admin.events.interval")} type="number" min={1} max={99} value={String(value.interval)} onChange={(e) => set({ interval: Math.max(1, Number(e.target.value) || 1) })} />
          {value.freq === "WEEKLY" && (
            <fieldset className="recurrence-days">
              <legend>{t("admin.events.onDays")}</legend>
              {WEEKDAYS.map((d) => (
                <CheckboxField
                  key={d}
                  label={dayName(d)}
                  checked={value.weekdays.includes(d) || (!value.weekdays.length && d === weekdayOf(startDate))}
                  onChange={(e) => {
                    const current = value.weekdays.length ? value.weekdays : [weekdayOf(startDate)];
                    set({ weekdays: e.target.checked ? [...new Set([...current, d])] : current.filter((x) => x !== d) });
                  }}
                />
              ))}
            </fieldset>
          )}
          {value.freq === "MONTHLY" && (
            <SelectField label={t("admin.events.monthlyOn")} value={value.monthly === "day" ? "day" : String(value.ordinal)} onChange={(e) => (e.target.value === "day" ? set({ monthly: "day" }) : set({ monthly: "weekday", ordinal: Number(e.target.value) }))}>
              <option value="day">{t("admin.events.monthlyDay", { day: Number(startDate.slice(8, 10)) })}</option>
              {[1, 2, 3, 4, -1].map((n) => (
                <option key={n} value={String(n)}>
                  {t("admin.events.monthlyWeekday", { nth: ordinalLabel(n), day: dayName(weekdayOf(startDate)) })}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField label={t("admin.events.ends")} value={value.end} onChange={(e) => set({ end: e.target.value as RecurrenceChoice["end"] })}>
            <option value="never">{t("admin.events.ends.never")}</option>
            <option value="until">{t("admin.events.ends.until")}</option>
            <option value="count">{t("admin.events.ends.count")}</option>
          </SelectField>
          {value.end === "until" && <TextField label={t("admin.events.untilDate")} type="date" value={value.until} onChange={(e) => set({ until: e.target.value })} />}
          {value.end === "count" && <TextField label={t("admin.events.count")} type="number" min={1} max={1000} value={String(value.count)} onChange={(e) => set({ count: Number(e.target.value) || 1 })} />}
          <div className="recurrence-preview" aria-live="polite" data-testid="recurrence-preview">
            {error && <p className="field__error">{error}</p>}
            {preview.error && <p className="field__error">{handleError(preview.error, i18n).fieldErrors.rrule ?? handleError(preview.error, i18n).message}</p>}
            {preview.data && (
              <>
                <p>
                  <strong>{preview.data.recurrencePreview.text}</strong>
                </p>
                <p className="small">{t("admin.events.nextDates")}</p>
                <ul>
                  {preview.data.recurrencePreview.dates.map((d) => (
                    <li key={d}>{dateTimeFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone: timezone }).format(new Date(d))}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        </>
      )}
    </fieldset>
  );
}

/** /admin/events/:id (or new): the editor, its occurrences (cancel / restore), attendees and CSV. */
export function AdminEventEditorPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "new" } = useParams();
  const isNew = id === "new";
  const navigate = useNavigate();
  const zone = useAppShell().data?.settings.timezone ?? "UTC";
  const { data, loading } = useAdminEventEditor({ variables: { id }, skip: isNew });
  const event = data?.eventById;
  const [draft, setDraft] = useState<Draft | null>(isNew ? draftOf(null, zone) : null);
  useEffect(() => {
    if (!isNew && event && !draft) setDraft(draftOf(event, zone));
  }, [isNew, event, draft, zone]);
  usePageTitle(isNew ? t("admin.events.new") : (event?.title ?? t("admin.events.title")));
  const [create] = useCreateEvent();
  const [update] = useUpdateEvent();
  const [publish] = usePublishEvent();
  const [problem, setProblem] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [attendeesOf, setAttendeesOf] = useState<string | null>(null);
  if (!isNew && loading && !data) return <Loading />;
  if (!draft) return <Loading />;
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...patch });
  };
  const input = (): EventInput => ({
    title: draft.title, summary: draft.summary, description: draft.description, categoryId: draft.categoryId || null, locationName: draft.locationName, locationAddress: draft.locationAddress,
    startsAt: draft.startsAt, endsAt: draft.endsAt, timezone: draft.timezone, rrule: toRRule(draft.repeat, draft.startsAt.slice(0, 10)), visibility: draft.visibility,
    registrationMode: draft.registrationMode, capacity: Number(draft.capacity) || 0, waitlistEnabled: draft.waitlistEnabled,
  });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      if (isNew) {
        const result = await create({ variables: { input: input() } });
        void navigate(`/admin/events/${result.data!.createEvent.id}`, { replace: true });
      } else {
        await update({ variables: { id, input: input() } });
        setSaved(true);
      }
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  const categories = data?.eventCategories ?? [];
  return (
    <div className="event-editor">
      <p className="small">
        <Link to="/admin/events">{t("admin.events.back")}</Link>
      </p>
      <h1>{isNew ? t("admin.events.new") : draft.title}</h1>
      {event && (
        <p>
          {t(`admin.events.status.${event.status.toLowerCase() as "draft"}`)}
          {event.status === "DRAFT" && (
            <>
              {" "}
              <button type="button" className="button" onClick={() => void publish({ variables: { id } }).catch((error: unknown) => setProblem(handleError(error, i18n)))}>
                {t("admin.events.publish")}
              </button>
            </>
          )}
        </p>
      )}
      <form onSubmit={(e) => void save(e)} noValidate>
        {problem && <Alert kind="error">{problem.message}</Alert>}
        {saved && <Alert kind="success">{t("admin.events.saved")}</Alert>}
        <TextField label={t("admin.events.eventTitle")} value={draft.title} onChange={(e) => set({ title: e.target.value })} error={problem?.fieldErrors.title} maxLength={LIMITS.nameMax} required />
        <TextField label={t("admin.events.summary")} value={draft.summary} onChange={(e) => set({ summary: e.target.value })} error={problem?.fieldErrors.summary} maxLength={LIMITS.summaryMax} />
        <TextAreaField label={t("admin.events.description")} value={draft.description} onChange={(e) => set({ description: e.target.value })} error={problem?.fieldErrors.description} rows={6} hint={t("admin.events.markdownHint")} />
        {!isNew && categories.length > 0 && (
          <SelectField label={t("events.category")} value={draft.categoryId} onChange={(e) => set({ categoryId: e.target.value })}>
            <option value="">{t("admin.events.noCategory")}</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
        )}
        <TextField label={t("admin.events.locationName")} value={draft.locationName} onChange={(e) => set({ locationName: e.target.value })} error={problem?.fieldErrors.locationName} />
        <TextField label={t("admin.events.locationAddress")} value={draft.locationAddress} onChange={(e) => set({ locationAddress: e.target.value })} error={problem?.fieldErrors.locationAddress} />
        <TextField label={t("admin.events.startsAt")} type="datetime-local" value={draft.startsAt} onChange={(e) => set({ startsAt: e.target.value })} error={problem?.fieldErrors.startsAt} />
        <TextField label={t("admin.events.endsAt")} type="datetime-local" value={draft.endsAt} onChange={(e) => set({ endsAt: e.target.value })} error={problem?.fieldErrors.endsAt} />
        <TextField label={t("admin.events.timezone")} value={draft.timezone} onChange={(e) => set({ timezone: e.target.value })} error={problem?.fieldErrors.timezone} hint={t("admin.events.timezoneHint")} />
        <RecurrenceBuilder value={draft.repeat} onChange={(repeat) => set({ repeat })} startsAt={draft.startsAt} timezone={draft.timezone} error={problem?.fieldErrors.rrule} />
        <SelectField label={t("admin.events.visibility")} value={draft.visibility} onChange={(e) => set({ visibility: e.target.value as EventVisibility })}>
          <option value="PUBLIC">{t("admin.events.visibility.public")}</option>
          <option value="MEMBERS">{t("admin.events.visibility.members")}</option>
        </SelectField>
        <SelectField label={t("admin.events.signup")} value={draft.registrationMode} onChange={(e) => set({ registrationMode: e.target.value as RegistrationMode })}>
          <option value="NONE">{t("admin.events.signup.none")}</option>
          <option value="RSVP">{t("admin.events.signup.rsvp")}</option>
          <option value="REGISTRATION">{t("admin.events.signup.registration")}</option>
        </SelectField>
        {draft.registrationMode === "REGISTRATION" && (
          <>
            <TextField label={t("admin.events.capacity")} type="number" min={0} value={draft.capacity} onChange={(e) => set({ capacity: e.target.value })} error={problem?.fieldErrors.capacity} hint={t("admin.events.capacityHint")} />
            <CheckboxField label={t("admin.events.waitlist")} checked={draft.waitlistEnabled} onChange={(e) => set({ waitlistEnabled: e.target.checked })} />
          </>
        )}
        <button type="submit" className="button">
          {isNew ? t("admin.events.create") : t("admin.events.save")}
        </button>
      </form>
      {event && <OccurrencesPanel event={event} onAttendees={setAttendeesOf} />}
      {event && attendeesOf && <AttendeesPanel eventId={event.id} originalStart={attendeesOf} title={event.title} />}
    </div>
  );
}

function OccurrencesPanel({ event, onAttendees }: { event: AdminEventFieldsFragment; onAttendees: (originalStart: string) => void }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [cancel] = useCancelOccurrence();
  const [restore] = useRestoreOccurrence();
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (error: unknown) => setProblem(handleError(error, i18n).message);
  return (
    <section>
      <h2>{t("admin.events.upcoming")}</h2>
      {problem && <Alert kind="error">{problem}</Alert>}
      <ul className="event-list">
        {event.nextOccurrences.map((o) => (
          <li key={o.id}>
            {dateTimeFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone: event.timezone }).format(new Date(o.start))}
            {o.status !== "SCHEDULED" && <strong> · {t(o.status === "CANCELLED" ? "events.cancelled" : "events.moved")}</strong>}
            {o.seatsLeft !== null && o.seatsLeft !== undefined && <span> · {t("events.seatsLeft", { count: o.seatsLeft })}</span>}{" "}
            {o.status === "SCHEDULED" ? (
              <button type="button" className="button button--ghost" onClick={() => void cancel({ variables: { eventId: event.id, originalStart: o.originalStart } }).catch(fail)}>
                {t("admin.events.cancelDate")}
              </button>
            ) : (
              <button type="button" className="button button--ghost" onClick={() => void restore({ variables: { eventId: event.id, originalStart: o.originalStart } }).catch(fail)}>
                {t("admin.events.restoreDate")}
              </button>
            )}
            {event.registrationMode !== "NONE" && (
              <button type="button" className="button button--ghost" onClick={() => onAttendees(o.originalStart)}>
                {t("admin.events.attendees")}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AttendeesPanel({ eventId, originalStart, title }: { eventId: string; originalStart: string; title: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error, refetch } = useEventAttendees({ variables: { eventId, originalStart }, fetchPolicy: "network-only" });
  const [cancel] = useStaffCancelRegistration();
  if (loading && !data) return <Loading />;
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  const list = data!.attendees;
  const csvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(list.csv)}`;
  return (
    <section>
      <h2>{t("admin.events.attendees")}</h2>
      <p>
        <a className="button button--ghost" href={csvHref} download={`${title.replace(/[^A-Za-z0-9]+/g, "-")}-${originalStart.slice(0, 10)}.csv`}>
          {t("admin.events.exportCsv")}
        </a>
      </p>
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t("events.name")}</th>
            <th scope="col">{t("events.email")}</th>
            <th scope="col">{t("events.partySize")}</th>
            <th scope="col">{t("admin.events.status")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("admin.events.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.registrations.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{r.email}</td>
              <td>{r.attendees}</td>
              <td>{r.status === "WAITLISTED" ? t("events.statusWaitlisted", { position: r.waitlistPosition ?? 1 }) : t(`admin.events.reg.${r.status.toLowerCase() as "confirmed" | "cancelled"}`)}</td>
              <td>
                {r.status !== "CANCELLED" && (
                  <button type="button" className="button button--ghost" onClick={() => void cancel({ variables: { id: r.id } }).then(() => refetch())}>
                    {t("events.cancelRegistration")}
                  </button>
                )}
              </td>
            </tr>
          ))}
          {list.rsvps.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{r.email}</td>
              <td>{1 + r.guests}</td>
              <td>{t(`events.rsvp.${r.response.toLowerCase() as "yes" | "no" | "maybe"}`)}</td>
              <td />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
