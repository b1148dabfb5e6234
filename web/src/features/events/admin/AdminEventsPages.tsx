import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { LIMITS } from "@flock/shared/limits";
import { dateTimeFormat, formatWhen } from "../../../i18n/format.ts";
import { Loading } from "../../../components/Loading.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { useAppShell } from "../../../gql/AppShell.generated.ts";
import type { EventInput, EventStatus, EventVisibility, RegistrationMode } from "../../../gql/types.ts";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { IMAGE_TYPES } from "../../../lib/media.ts";
import {
  SetEventImageDocument,
  useAdminEventCategories,
  useAdminEventEditor,
  useAdminEventGroups,
  useAdminEventsList,
  useCancelOccurrence,
  useCreateEvent,
  useCreateEventCategory,
  useEventAttendees,
  useMoveOccurrence,
  useMoveRegistration,
  usePublishEvent,
  useRegistrationMoveTargets,
  useRecurrencePreview,
  useRestoreOccurrence,
  useSetEventImage,
  useSplitEvent,
  useStaffCancelRegistration,
  useUpdateEvent,
  type AdminEventFieldsFragment,
  type SetEventImageMutation,
} from "./AdminEvents.generated.ts";
import {
  fromRRule,
  NO_REPEAT,
  ordinalOf,
  toRRule,
  weekdayOf,
  WEEKDAYS,
  type Frequency,
  type RecurrenceChoice,
  type Weekday,
} from "./recurrence.ts";
import { localInput, zonedToIso } from "../../../lib/zoned.ts";
import { QuestionsEditor, questionDrafts, questionInputs, type QuestionDraft } from "./QuestionsEditor.tsx";
import "../events.css";
import "../event-card.css";
import "./admin-events.css";
import "../../../styles/staff.css";

/** /admin/events: every event (drafts too) and a quick "new event". */
export function AdminEventsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.events.title"));
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const [status, setStatus] = useState<EventStatus | "">("");
  const { data, loading, error } = useAdminEventsList({
    variables: { search: query || null },
    fetchPolicy: "cache-and-network",
  });
  const events = (data?.events ?? []).filter((e) => !status || e.status === status);
  type Row = (typeof events)[number];
  const signUps = (e: Row) => {
    const next = e.nextOccurrences[0];
    if (!next || e.registrationMode === "NONE") return null;
    return e.registrationMode === "RSVP"
      ? t("admin.events.list.going", { count: next.goingCount })
      : e.capacity
        ? t("admin.events.list.seats", { taken: next.confirmedCount, capacity: e.capacity })
        : t("admin.events.list.registered", { count: next.confirmedCount });
  };
  const columns: Column<Row>[] = [
    {
      key: "title",
      header: t("admin.events.eventTitle"),
      sort: (e) => e.title,
      cell: (e) => (
        <>
          <Link to={`/admin/events/${e.id}`}>{e.title}</Link>
          <span className="list-meta">{e.category?.name ?? ""}</span>
        </>
      ),
    },
    {
      key: "next",
      header: t("admin.events.list.next"),
      sort: (e) => e.nextOccurrences[0]?.start ?? "",
      cell: (e) => {
        const next = e.nextOccurrences[0];
        return next ? (
          <>
            {formatWhen(next.start, locale, { time: !e.allDay, timeZone: e.timezone })}
            {next.status === "CANCELLED" && (
              <span className="badge badge--danger">{t("admin.events.status.cancelled")}</span>
            )}
            <span className="list-meta">{e.recurrenceText ?? t("admin.events.once")}</span>
          </>
        ) : (
          <span className="list-meta">{t("admin.events.list.noNext")}</span>
        );
      },
    },
    {
      key: "signups",
      header: t("admin.events.list.signUps"),
      sort: (e) =>
        e.nextOccurrences[0] ? e.nextOccurrences[0].confirmedCount + e.nextOccurrences[0].goingCount : null,
      cell: (e) => {
        const next = e.nextOccurrences[0];
        const text = signUps(e);
        return text ? (
          <>
            {text}
            {next && next.waitlistCount > 0 && (
              <span className="list-meta">
                {t("admin.events.list.waitlist", { count: next.waitlistCount })}
              </span>
            )}
          </>
        ) : (
          <span className="list-meta">{t("admin.events.signup.none")}</span>
        );
      },
    },
    {
      key: "status",
      header: t("admin.events.status"),
      sort: (e) => e.status,
      cell: (e) => (
        <span className={`badge ${STATUS_BADGE[e.status]}`}>
          {t(`admin.events.status.${e.status.toLowerCase() as "draft" | "published" | "cancelled"}`)}
        </span>
      ),
    },
  ];
  return (
    <div>
      <div className="section-heading">
        <h1>{t("admin.events.title")}</h1>
        <Link className="button" to="/admin/events/new">
          {t("admin.events.new")}
        </Link>
      </div>
      <div className="toolbar">
        <TextField
          label={t("admin.events.search")}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <SelectField
          label={t("admin.events.status")}
          value={status}
          onChange={(e) => setStatus(e.target.value as EventStatus | "")}
        >
          <option value="">{t("admin.events.list.allStatuses")}</option>
          {(["PUBLISHED", "DRAFT", "CANCELLED"] as const).map((s) => (
            <option key={s} value={s}>
              {t(`admin.events.status.${s.toLowerCase() as "draft" | "published" | "cancelled"}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.events.title")}
          rows={events}
          rowKey={(e) => e.id}
          rowLabel={(e) => e.title}
          columns={columns}
          initialSort={{ key: "next", direction: "ascending" }}
          empty={
            query || status ? (
              <p>{t("admin.events.list.noMatch")}</p>
            ) : (
              <>
                <p>{t("admin.events.list.empty")}</p>
                <Link className="button" to="/admin/events/new">
                  {t("admin.events.new")}
                </Link>
              </>
            )
          }
        />
      )}
    </div>
  );
}

const STATUS_BADGE: Record<EventStatus, string> = {
  PUBLISHED: "badge--ok",
  DRAFT: "badge--neutral",
  CANCELLED: "badge--danger",
};

interface Draft {
  title: string;
  summary: string;
  description: string;
  categoryId: string;
  /** The group the event belongs to, or empty. */
  ownerGroupId: string;
  locationName: string;
  locationAddress: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  visibility: EventVisibility;
  registrationMode: RegistrationMode;
  capacity: string;
  waitlistEnabled: boolean;
  allDay: boolean;
  /** Registration window: local wall-clock times in the event's zone, or empty. */
  opensAt: string;
  closesAt: string;
  repeat: RecurrenceChoice;
  questions: QuestionDraft[];
}

function draftOf(e: AdminEventFieldsFragment | null | undefined, zone: string): Draft {
  if (!e) {
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    return {
      title: "",
      summary: "",
      description: "",
      categoryId: "",
      ownerGroupId: "",
      locationName: "",
      locationAddress: "",
      startsAt: `${day}T10:00`,
      endsAt: `${day}T11:00`,
      timezone: zone,
      visibility: "PUBLIC",
      registrationMode: "NONE",
      capacity: "",
      waitlistEnabled: true,
      allDay: false,
      opensAt: "",
      closesAt: "",
      repeat: NO_REPEAT,
      questions: [],
    };
  }
  return {
    title: e.title,
    summary: e.summary,
    description: e.description,
    categoryId: e.category?.id ?? "",
    ownerGroupId: e.ownerGroupId ?? "",
    locationName: e.locationName,
    locationAddress: e.locationAddress,
    startsAt: localInput(e.startsAt, e.timezone),
    endsAt: localInput(e.endsAt, e.timezone),
    timezone: e.timezone,
    visibility: e.visibility,
    registrationMode: e.registrationMode,
    capacity: e.capacity ? String(e.capacity) : "",
    waitlistEnabled: e.waitlistEnabled,
    allDay: e.allDay,
    opensAt: e.registrationOpensAt ? localInput(e.registrationOpensAt, e.timezone) : "",
    closesAt: e.registrationClosesAt ? localInput(e.registrationClosesAt, e.timezone) : "",
    repeat: fromRRule(e.rrule),
    questions: questionDrafts(e.questions),
  };
}

/** The recurrence builder: frequency, interval, days, "2nd Sunday" / "last Friday", the end; previewed in words by the gateway. */
function RecurrenceBuilder({
  value,
  onChange,
  startsAt,
  timezone,
  error,
}: {
  value: RecurrenceChoice;
  onChange: (v: RecurrenceChoice) => void;
  startsAt: string;
  timezone: string;
  error?: string | undefined;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const startDate = startsAt.slice(0, 10);
  const rrule = toRRule(value, startDate);
  const debounced = useDebounced(rrule, 250);
  const preview = useRecurrencePreview({
    skip: !debounced,
    variables: { input: { startsAt, timezone, rrule: debounced, locale, count: 5 } },
  });
  const dayName = (code: Weekday) =>
    dateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(
      new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(code))),
    );
  const ordinalLabel = (n: number) =>
    t(n === -1 ? "admin.events.ordinal.last" : (`admin.events.ordinal.${n}` as "admin.events.ordinal.1"));
  const set = (patch: Partial<RecurrenceChoice>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="recurrence-builder">
      <legend>{t("admin.events.repeat")}</legend>
      <SelectField
        label={t("admin.events.frequency")}
        value={value.freq}
        onChange={(e) => set({ freq: e.target.value as Frequency, ordinal: ordinalOf(startDate) })}
      >
        {(["NONE", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const).map((f) => (
          <option key={f} value={f}>
            {t(`admin.events.freq.${f.toLowerCase() as "none"}`)}
          </option>
        ))}
      </SelectField>
      {value.freq !== "NONE" && (
        <>
          <TextField
            label={t("admin.events.interval")}
            type="number"
            min={1}
            max={99}
            value={String(value.interval)}
            onChange={(e) => set({ interval: Math.max(1, Number(e.target.value) || 1) })}
          />
          {value.freq === "WEEKLY" && (
            <fieldset className="recurrence-days">
              <legend>{t("admin.events.onDays")}</legend>
              {WEEKDAYS.map((d) => (
                <CheckboxField
                  key={d}
                  label={dayName(d)}
                  checked={
                    value.weekdays.includes(d) || (!value.weekdays.length && d === weekdayOf(startDate))
                  }
                  onChange={(e) => {
                    const current = value.weekdays.length ? value.weekdays : [weekdayOf(startDate)];
                    set({
                      weekdays: e.target.checked
                        ? [...new Set([...current, d])]
                        : current.filter((x) => x !== d),
                    });
                  }}
                />
              ))}
            </fieldset>
          )}
          {value.freq === "MONTHLY" && (
            <SelectField
              label={t("admin.events.monthlyOn")}
              value={value.monthly === "day" ? "day" : String(value.ordinal)}
              onChange={(e) =>
                e.target.value === "day"
                  ? set({ monthly: "day" })
                  : set({ monthly: "weekday", ordinal: Number(e.target.value) })
              }
            >
              <option value="day">
                {t("admin.events.monthlyDay", { day: Number(startDate.slice(8, 10)) })}
              </option>
              {[1, 2, 3, 4, -1].map((n) => (
                <option key={n} value={String(n)}>
                  {t("admin.events.monthlyWeekday", {
                    nth: ordinalLabel(n),
                    day: dayName(weekdayOf(startDate)),
                  })}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField
            label={t("admin.events.ends")}
            value={value.end}
            onChange={(e) => set({ end: e.target.value as RecurrenceChoice["end"] })}
          >
            <option value="never">{t("admin.events.ends.never")}</option>
            <option value="until">{t("admin.events.ends.until")}</option>
            <option value="count">{t("admin.events.ends.count")}</option>
          </SelectField>
          {value.end === "until" && (
            <TextField
              label={t("admin.events.untilDate")}
              type="date"
              value={value.until}
              onChange={(e) => set({ until: e.target.value })}
            />
          )}
          {value.end === "count" && (
            <TextField
              label={t("admin.events.count")}
              type="number"
              min={1}
              max={1000}
              value={String(value.count)}
              onChange={(e) => set({ count: Number(e.target.value) || 1 })}
            />
          )}
          <div className="recurrence-preview" aria-live="polite" data-testid="recurrence-preview">
            {error && <p className="field__error">{error}</p>}
            {preview.error && (
              <p className="field__error">
                {handleError(preview.error, i18n).fieldErrors.rrule ??
                  handleError(preview.error, i18n).message}
              </p>
            )}
            {preview.data && (
              <>
                <p>
                  <strong>{preview.data.recurrencePreview.text}</strong>
                </p>
                <p className="small">{t("admin.events.nextDates")}</p>
                <ul>
                  {preview.data.recurrencePreview.dates.map((d) => (
                    <li key={d}>{formatWhen(d, locale, { date: "full", timeZone: timezone })}</li>
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

/** /admin/events/:id (or new): the editor, its dates (cancel, move, restore, "this and following"), attendees and CSV. */
export function AdminEventEditorPage() {
  const { id = "new" } = useParams();
  // A new id (created, or a split's new series) starts a fresh editor.
  return <EventEditor key={id} id={id} />;
}

/** The occurrence a "this and following" edit starts from. */
interface SplitPoint {
  originalStart: string;
  start: string;
}

function EventEditor({ id }: { id: string }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const isNew = id === "new";
  const navigate = useNavigate();
  const zone = useAppShell().data?.settings.timezone ?? "UTC";
  const { data, loading, refetch } = useAdminEventEditor({ variables: { id }, skip: isNew });
  const categories = useAdminEventCategories();
  const groups = useAdminEventGroups();
  const event = data?.eventById;
  const [draft, setDraft] = useState<Draft | null>(isNew ? draftOf(null, zone) : null);
  useEffect(() => {
    if (!isNew && event && !draft) setDraft(draftOf(event, zone));
  }, [isNew, event, draft, zone]);
  usePageTitle(isNew ? t("admin.events.new") : (event?.title ?? t("admin.events.title")));
  const [create] = useCreateEvent();
  const [update] = useUpdateEvent();
  const [publish] = usePublishEvent();
  const [split] = useSplitEvent();
  const [problem, setProblem] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [splitAt, setSplitAt] = useState<SplitPoint | null>(null);
  const [attendeesOf, setAttendeesOf] = useState<string | null>(null);
  if (!isNew && loading && !data) return <Loading />;
  if (!draft) return <Loading />;
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...patch });
  };
  const windowIso = (local: string) => (local ? (zonedToIso(local, draft.timezone) ?? local) : null);
  const input = (): EventInput => ({
    title: draft.title,
    summary: draft.summary,
    description: draft.description,
    categoryId: draft.categoryId || null,
    ownerGroupId: draft.ownerGroupId || null,
    locationName: draft.locationName,
    locationAddress: draft.locationAddress,
    // An all-day event covers its days from midnight to the last minute, in its zone.
    startsAt: draft.allDay ? `${draft.startsAt.slice(0, 10)}T00:00` : draft.startsAt,
    endsAt: draft.allDay ? `${draft.endsAt.slice(0, 10)}T23:59` : draft.endsAt,
    allDay: draft.allDay,
    timezone: draft.timezone,
    rrule: toRRule(draft.repeat, draft.startsAt.slice(0, 10)),
    visibility: draft.visibility,
    registrationMode: draft.registrationMode,
    capacity: Number(draft.capacity) || 0,
    waitlistEnabled: draft.waitlistEnabled,
    registrationOpensAt: draft.registrationMode === "NONE" ? null : windowIso(draft.opensAt),
    registrationClosesAt: draft.registrationMode === "NONE" ? null : windowIso(draft.closesAt),
    // Only a registration form asks them; switching the form off keeps them for later.
    ...(draft.registrationMode === "REGISTRATION" ? { questions: questionInputs(draft.questions) } : {}),
  });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      if (isNew) {
        const result = await create({ variables: { input: input() } });
        void navigate(`/admin/events/${result.data!.createEvent.id}`, { replace: true });
      } else if (splitAt) {
        const result = await split({
          variables: { id, originalStart: splitAt.originalStart, input: input() },
        });
        void navigate(`/admin/events/${result.data!.splitEvent.id}`);
      } else {
        await update({ variables: { id, input: input() } });
        setSaved(true);
      }
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  const startSplit = (o: { originalStart: string; start: string; end: string }) => {
    if (!event) return;
    setSplitAt({ originalStart: o.originalStart, start: o.start });
    setProblem(null);
    setSaved(false);
    // The new series starts on that date, at that date's times.
    setDraft({
      ...draft,
      startsAt: localInput(o.start, event.timezone),
      endsAt: localInput(o.end, event.timezone),
    });
    document.getElementById("event-editor-form")?.scrollIntoView({ block: "start" });
  };
  const leaveSplit = () => {
    setSplitAt(null);
    if (event) setDraft(draftOf(event, zone));
  };
  const categoryList = categories.data?.eventCategories ?? [];
  const groupList = groups.data?.groups.edges.map((e) => e.node) ?? [];
  const fe = problem?.fieldErrors ?? {};
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
              <button
                type="button"
                className="button"
                onClick={() =>
                  void publish({ variables: { id } }).catch((error: unknown) =>
                    setProblem(handleError(error, i18n)),
                  )
                }
              >
                {t("admin.events.publish")}
              </button>
            </>
          )}
          {event.status !== "DRAFT" && (
            <>
              {" · "}
              <Link to={event.path}>{t("admin.events.view")}</Link>
            </>
          )}
        </p>
      )}
      {event && <CoverImage event={event} onChanged={() => void refetch()} />}
      <form id="event-editor-form" onSubmit={(e) => void save(e)} noValidate>
        {splitAt && event && (
          <Alert kind="warning">
            <p>
              {t("admin.events.splitNotice", {
                date: dateTimeFormat(locale, { dateStyle: "full", timeZone: event.timezone }).format(
                  new Date(splitAt.start),
                ),
              })}
            </p>
            <button type="button" className="button button--ghost button--small" onClick={leaveSplit}>
              {t("admin.events.splitLeave")}
            </button>
          </Alert>
        )}
        {problem && <Alert kind="error">{problem.message}</Alert>}
        {saved && <Alert kind="success">{t("admin.events.saved")}</Alert>}
        <TextField
          label={t("admin.events.eventTitle")}
          value={draft.title}
          onChange={(e) => set({ title: e.target.value })}
          error={fe.title}
          maxLength={LIMITS.nameMax}
          required
        />
        <TextField
          label={t("admin.events.summary")}
          value={draft.summary}
          onChange={(e) => set({ summary: e.target.value })}
          error={fe.summary}
          maxLength={LIMITS.summaryMax}
        />
        <TextAreaField
          label={t("admin.events.description")}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
          error={fe.description}
          rows={6}
          hint={t("admin.events.markdownHint")}
          maxLength={LIMITS.markdownMax}
        />
        <SelectField
          label={t("events.category")}
          value={draft.categoryId}
          onChange={(e) => set({ categoryId: e.target.value })}
        >
          <option value="">{t("admin.events.noCategory")}</option>
          {categoryList.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <NewCategory onCreated={(categoryId) => void categories.refetch().then(() => set({ categoryId }))} />
        <SelectField
          label={t("admin.events.group")}
          value={draft.ownerGroupId}
          onChange={(e) => set({ ownerGroupId: e.target.value })}
          error={fe.ownerGroupId}
          hint={t("admin.events.groupHint")}
          optionalText={t("common.optional")}
        >
          <option value="">{t("admin.events.noGroup")}</option>
          {groupList.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("admin.events.locationName")}
          value={draft.locationName}
          onChange={(e) => set({ locationName: e.target.value })}
          error={fe.locationName}
          maxLength={LIMITS.nameMax}
        />
        <TextField
          label={t("admin.events.locationAddress")}
          value={draft.locationAddress}
          onChange={(e) => set({ locationAddress: e.target.value })}
          error={fe.locationAddress}
          maxLength={LIMITS.addressMax}
        />
        <CheckboxField
          label={t("admin.events.allDay")}
          checked={draft.allDay}
          onChange={(e) => set({ allDay: e.target.checked })}
        />
        {draft.allDay ? (
          <>
            <TextField
              label={t("admin.events.startDate")}
              type="date"
              value={draft.startsAt.slice(0, 10)}
              onChange={(e) => set({ startsAt: `${e.target.value}T00:00` })}
              error={fe.startsAt}
            />
            <TextField
              label={t("admin.events.endDate")}
              type="date"
              value={draft.endsAt.slice(0, 10)}
              onChange={(e) => set({ endsAt: `${e.target.value}T23:59` })}
              error={fe.endsAt}
            />
          </>
        ) : (
          <>
            <TextField
              label={t("admin.events.startsAt")}
              type="datetime-local"
              value={draft.startsAt}
              onChange={(e) => set({ startsAt: e.target.value })}
              error={fe.startsAt}
            />
            <TextField
              label={t("admin.events.endsAt")}
              type="datetime-local"
              value={draft.endsAt}
              onChange={(e) => set({ endsAt: e.target.value })}
              error={fe.endsAt}
            />
          </>
        )}
        <TextField
          label={t("admin.events.timezone")}
          value={draft.timezone}
          onChange={(e) => set({ timezone: e.target.value })}
          error={fe.timezone}
          hint={t("admin.events.timezoneHint")}
        />
        <RecurrenceBuilder
          value={draft.repeat}
          onChange={(repeat) => set({ repeat })}
          startsAt={draft.startsAt}
          timezone={draft.timezone}
          error={fe.rrule}
        />
        <SelectField
          label={t("admin.events.visibility")}
          value={draft.visibility}
          onChange={(e) => set({ visibility: e.target.value as EventVisibility })}
        >
          <option value="PUBLIC">{t("admin.events.visibility.public")}</option>
          <option value="MEMBERS">{t("admin.events.visibility.members")}</option>
        </SelectField>
        <SelectField
          label={t("admin.events.signup")}
          value={draft.registrationMode}
          onChange={(e) => set({ registrationMode: e.target.value as RegistrationMode })}
        >
          <option value="NONE">{t("admin.events.signup.none")}</option>
          <option value="RSVP">{t("admin.events.signup.rsvp")}</option>
          <option value="REGISTRATION">{t("admin.events.signup.registration")}</option>
        </SelectField>
        {draft.registrationMode === "REGISTRATION" && (
          <>
            <TextField
              label={t("admin.events.capacity")}
              type="number"
              min={0}
              max={LIMITS.eventCapacityMax}
              value={draft.capacity}
              onChange={(e) => set({ capacity: e.target.value })}
              error={fe.capacity}
              hint={t("admin.events.capacityHint")}
            />
            <CheckboxField
              label={t("admin.events.waitlist")}
              checked={draft.waitlistEnabled}
              onChange={(e) => set({ waitlistEnabled: e.target.checked })}
            />
            <QuestionsEditor
              questions={draft.questions}
              onChange={(questions) => set({ questions })}
              errors={fe}
            />
          </>
        )}
        {draft.registrationMode !== "NONE" && (
          <fieldset className="event-window">
            <legend>{t("admin.events.window")}</legend>
            <p className="field__hint">{t("admin.events.windowHint", { zone: draft.timezone })}</p>
            <TextField
              label={t("admin.events.opensAt")}
              type="datetime-local"
              value={draft.opensAt}
              onChange={(e) => set({ opensAt: e.target.value })}
              error={fe.registrationOpensAt}
            />
            <TextField
              label={t("admin.events.closesAt")}
              type="datetime-local"
              value={draft.closesAt}
              onChange={(e) => set({ closesAt: e.target.value })}
              error={fe.registrationClosesAt}
            />
          </fieldset>
        )}
        <p className="actions">
          <button type="submit" className="button">
            {isNew
              ? t("admin.events.create")
              : splitAt
                ? t("admin.events.splitSave")
                : t("admin.events.save")}
          </button>
        </p>
      </form>
      {event && <OccurrencesPanel event={event} onAttendees={setAttendeesOf} onSplit={startSplit} />}
      {event && attendeesOf && (
        <AttendeesPanel event={event} originalStart={attendeesOf} onChanged={() => void refetch()} />
      )}
    </div>
  );
}

/** The cover image: uploaded with a progress bar, replaced or removed. */
function CoverImage({ event, onChanged }: { event: AdminEventFieldsFragment; onChanged: () => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [remove] = useSetEventImage();
  const upload = async (file: File) => {
    setMessage(null);
    if (!IMAGE_TYPES.includes(file.type))
      return setMessage({ kind: "error", text: t("error.UNSUPPORTED_FILE_TYPE") });
    if (file.size > LIMITS.imageMaxBytes)
      return setMessage({ kind: "error", text: t("error.PAYLOAD_TOO_LARGE") });
    setProgress(0);
    try {
      await uploadWithProgress<SetEventImageMutation>(
        SetEventImageDocument,
        { id: event.id },
        "file",
        file,
        setProgress,
      );
      setMessage({ kind: "success", text: t("admin.events.imageSaved") });
      onChanged();
    } catch (error) {
      setMessage({ kind: "error", text: handleError(error, i18n).message });
    } finally {
      setProgress(null);
    }
  };
  return (
    <section className="event-cover">
      {event.imageUrl ? (
        <img src={event.imageUrl} alt="" width={600} height={315} className="event-cover__img" />
      ) : (
        <span className="event-cover__img event-cover__img--blank" aria-hidden="true" />
      )}
      <div>
        <div className="field">
          <label htmlFor="event-cover-file">{t("admin.events.image")}</label>
          <input
            id="event-cover-file"
            type="file"
            accept={IMAGE_TYPES.join(",")}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
          <p className="field__hint">{t("admin.events.imageHint")}</p>
          {progress !== null && (
            <progress max={100} value={progress} aria-label={t("admin.events.uploading")} />
          )}
        </div>
        {event.imageUrl && (
          <button
            type="button"
            className="button button--ghost button--danger button--small"
            onClick={() =>
              void remove({ variables: { id: event.id, file: null } })
                .then(() => setMessage({ kind: "success", text: t("admin.events.imageRemoved") }))
                .catch((error: unknown) =>
                  setMessage({ kind: "error", text: handleError(error, i18n).message }),
                )
            }
          >
            {t("admin.events.removeImage")}
          </button>
        )}
        {message && <Alert kind={message.kind}>{message.text}</Alert>}
      </div>
    </section>
  );
}

/** A new category, named here and chosen for the event at once. */
function NewCategory({ onCreated }: { onCreated: (id: string) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, { loading }] = useCreateEventCategory();
  const add = async () => {
    setProblem(null);
    try {
      const result = await create({ variables: { input: { name } } });
      setName("");
      onCreated(result.data!.createEventCategory.id);
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  return (
    <details className="event-new-category">
      <summary>{t("admin.events.newCategory")}</summary>
      <TextField
        label={t("admin.events.categoryName")}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            void add();
          }
        }}
        error={
          problem?.fieldErrors.name ??
          (problem && !Object.keys(problem.fieldErrors).length ? problem.message : undefined)
        }
        maxLength={LIMITS.nameMax}
      />
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={loading || !name.trim()}
        onClick={() => void add()}
      >
        {t("admin.events.addCategory")}
      </button>
    </details>
  );
}

type OccurrenceRow = AdminEventFieldsFragment["nextOccurrences"][number];

function OccurrencesPanel({
  event,
  onAttendees,
  onSplit,
}: {
  event: AdminEventFieldsFragment;
  onAttendees: (originalStart: string) => void;
  onSplit: (o: OccurrenceRow) => void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [restore] = useRestoreOccurrence();
  const [open, setOpen] = useState<{ key: string; mode: "cancel" | "move" } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (error: unknown) => setProblem(handleError(error, i18n).message);
  const when = (iso: string) =>
    formatWhen(iso, locale, { date: "full", time: !event.allDay, timeZone: event.timezone });
  const notes = new Map(event.exceptions.map((x) => [x.originalStart, x.note]));
  return (
    <section className="event-dates">
      <h2>{t("admin.events.upcoming")}</h2>
      {problem && <Alert kind="error">{problem}</Alert>}
      <ul className="event-list">
        {event.nextOccurrences.map((o, index) => (
          <li key={o.id} className="event-date" data-date={o.date} data-original-start={o.originalStart}>
            <p className="event-date__when">
              {when(o.start)}
              {o.status !== "SCHEDULED" && (
                <strong className="event-flag">
                  {" "}
                  · {t(o.status === "CANCELLED" ? "events.cancelled" : "events.moved")}
                </strong>
              )}
              {o.status === "MOVED" && (
                <span className="small"> ({t("admin.events.wasOn", { date: when(o.originalStart) })})</span>
              )}
              {o.seatsLeft !== null && o.seatsLeft !== undefined && (
                <span> · {t("events.seatsLeft", { count: o.seatsLeft })}</span>
              )}
              {notes.get(o.originalStart) && <span className="small"> · {notes.get(o.originalStart)}</span>}
            </p>
            <p className="actions">
              {o.status === "SCHEDULED" ? (
                <>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-expanded={open?.key === o.id && open.mode === "cancel"}
                    onClick={() => setOpen({ key: o.id, mode: "cancel" })}
                  >
                    {t("admin.events.cancelDate")}
                  </button>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-expanded={open?.key === o.id && open.mode === "move"}
                    onClick={() => setOpen({ key: o.id, mode: "move" })}
                  >
                    {t("admin.events.moveDate")}
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() =>
                    void restore({ variables: { eventId: event.id, originalStart: o.originalStart } }).catch(
                      fail,
                    )
                  }
                >
                  {t("admin.events.restoreDate")}
                </button>
              )}
              {event.rrule && index > 0 && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => onSplit(o)}
                >
                  {t("admin.events.editFollowing")}
                </button>
              )}
              {event.registrationMode !== "NONE" && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => onAttendees(o.originalStart)}
                >
                  {t("admin.events.attendees")}
                </button>
              )}
            </p>
            {open?.key === o.id && (
              <OccurrenceChange event={event} occurrence={o} mode={open.mode} onDone={() => setOpen(null)} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Cancel or move one date (with a note visitors see); the series is untouched. */
function OccurrenceChange({
  event,
  occurrence,
  mode,
  onDone,
}: {
  event: AdminEventFieldsFragment;
  occurrence: OccurrenceRow;
  mode: "cancel" | "move";
  onDone: () => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [cancel, cancelling] = useCancelOccurrence();
  const [move, moving] = useMoveOccurrence();
  const [note, setNote] = useState("");
  const [startsAt, setStartsAt] = useState(localInput(occurrence.start, event.timezone));
  const [endsAt, setEndsAt] = useState(localInput(occurrence.end, event.timezone));
  const [problem, setProblem] = useState<UiError | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      if (mode === "cancel")
        await cancel({ variables: { eventId: event.id, originalStart: occurrence.originalStart, note } });
      else
        await move({
          variables: { eventId: event.id, originalStart: occurrence.originalStart, startsAt, endsAt, note },
        });
      onDone();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  return (
    <form className="event-date__change card" onSubmit={(e) => void submit(e)} noValidate>
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      {mode === "move" && (
        <>
          <TextField
            label={t("admin.events.startsAt")}
            type="datetime-local"
            value={startsAt}
            onChange={(e) => setStartsAt(e.target.value)}
            error={problem?.fieldErrors.startsAt}
          />
          <TextField
            label={t("admin.events.endsAt")}
            type="datetime-local"
            value={endsAt}
            onChange={(e) => setEndsAt(e.target.value)}
            error={problem?.fieldErrors.endsAt}
          />
        </>
      )}
      <TextField
        label={t("admin.events.note")}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={LIMITS.occurrenceNoteMax}
        hint={t("admin.events.noteHint")}
      />
      <p className="actions">
        <button
          type="submit"
          className={mode === "cancel" ? "button button--danger-solid button--small" : "button button--small"}
          disabled={cancelling.loading || moving.loading}
        >
          {mode === "cancel" ? t("admin.events.confirmCancel") : t("admin.events.confirmMove")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          {t("admin.events.close")}
        </button>
      </p>
    </form>
  );
}

/** Who comes to one date: CSV, and staff cancel or move a registration (the seat counts above follow). */
function AttendeesPanel({
  event,
  originalStart,
  onChanged,
}: {
  event: AdminEventFieldsFragment;
  originalStart: string;
  onChanged: () => void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { data, loading, error, refetch } = useEventAttendees({
    variables: { eventId: event.id, originalStart },
    fetchPolicy: "network-only",
  });
  const [cancel] = useStaffCancelRegistration();
  const [move] = useMoveRegistration();
  const targets = useRegistrationMoveTargets();
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  if (loading && !data) return <Loading />;
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  const list = data!.attendees;
  const csvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(list.csv)}`;
  const when = (iso: string) => formatWhen(iso, locale, { time: !event.allDay, timeZone: event.timezone });
  const otherDates = event.nextOccurrences.filter(
    (o) => o.status !== "CANCELLED" && o.originalStart !== originalStart,
  );
  // Other events that take registrations, for moving someone there (grouped by event in the menu).
  const otherEvents = new Map<string, { title: string; dates: { originalStart: string; start: string }[] }>();
  for (const o of targets.data?.upcomingOccurrences ?? []) {
    if (o.event.id === event.id || o.event.registrationMode !== "REGISTRATION" || o.status === "CANCELLED")
      continue;
    const entry = otherEvents.get(o.event.id) ?? { title: o.event.title, dates: [] };
    entry.dates.push(o);
    otherEvents.set(o.event.id, entry);
  }
  const run = (work: Promise<unknown>, done: string) =>
    void work.then(
      () => {
        setNotice({ kind: "success", text: done });
        onChanged();
        return refetch();
      },
      (caught: unknown) => setNotice({ kind: "error", text: handleError(caught, i18n).message }),
    );
  return (
    <section className="event-attendees">
      <h2>{t("admin.events.attendeesOn", { date: when(originalStart) })}</h2>
      <p>
        <a
          className="button button--ghost"
          href={csvHref}
          download={`${event.title.replace(/[^A-Za-z0-9]+/g, "-")}-${originalStart.slice(0, 10)}.csv`}
        >
          {t("admin.events.exportCsv")}
        </a>
      </p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="table-scroll">
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
                <td>
                  {r.name}
                  {r.answers.length > 0 && (
                    <dl className="attendee-answers">
                      {r.answers.map((a) => (
                        <div key={a.questionId}>
                          <dt>{a.question}</dt>
                          <dd>
                            {a.value === "YES"
                              ? t("admin.events.answer.yes")
                              : a.value === "NO"
                                ? t("admin.events.answer.no")
                                : a.value}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </td>
                <td>{r.email}</td>
                <td>{r.attendees}</td>
                <td>
                  {r.status === "WAITLISTED"
                    ? t("events.statusWaitlisted", { position: r.waitlistPosition ?? 1 })
                    : t(`admin.events.reg.${r.status.toLowerCase() as "confirmed" | "cancelled"}`)}
                </td>
                <td>
                  {r.can.cancel && (
                    <div className="actions">
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        onClick={() =>
                          run(
                            cancel({ variables: { id: r.id } }),
                            t("admin.events.registrationCancelled", { name: r.name }),
                          )
                        }
                      >
                        {t("events.cancelRegistration")}
                      </button>
                      {r.can.move && (otherDates.length > 0 || otherEvents.size > 0) && (
                        <label className="event-move">
                          <span className="visually-hidden">
                            {t("admin.events.moveRegistration", { name: r.name })}
                          </span>
                          <select
                            value=""
                            onChange={(e) => {
                              const [eventId, target] = e.target.value.split("|");
                              if (!eventId || !target) return;
                              const title = eventId === event.id ? null : otherEvents.get(eventId)?.title;
                              run(
                                move({ variables: { id: r.id, originalStart: target, eventId } }),
                                t("admin.events.registrationMoved", {
                                  name: r.name,
                                  date: title ? `${title}, ${when(target)}` : when(target),
                                }),
                              );
                            }}
                          >
                            <option value="">{t("admin.events.moveTo")}</option>
                            {otherDates.length > 0 && (
                              <optgroup label={event.title}>
                                {otherDates.map((o) => (
                                  <option key={o.originalStart} value={`${event.id}|${o.originalStart}`}>
                                    {when(o.start)}
                                  </option>
                                ))}
                              </optgroup>
                            )}
                            {[...otherEvents].map(([eventId, other]) => (
                              <optgroup key={eventId} label={other.title}>
                                {other.dates.map((o) => (
                                  <option key={o.originalStart} value={`${eventId}|${o.originalStart}`}>
                                    {when(o.start)}
                                  </option>
                                ))}
                              </optgroup>
                            ))}
                          </select>
                        </label>
                      )}
                    </div>
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
      </div>
    </section>
  );
}
