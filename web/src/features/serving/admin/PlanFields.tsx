import { useState } from "react";
import { LIMITS } from "@flock/shared/limits";
import { SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatWhen, timeZoneName } from "../../../i18n/format.ts";
import type { ServingPlanInput, ServingTimeKind } from "../../../gql/types.ts";
import { handleError } from "../../../lib/handleError.ts";
import { localInput, zonedToIso } from "../../../lib/zoned.ts";
import {
  useAdminServingPlanOccurrences,
  type AdminServingPlanTimeFragment,
} from "./AdminServingPlans.generated.ts";

/** The bounds the gateway checks too (shared/src/limits.ts). */
export const PLAN_TIMES_MAX = LIMITS.servingPlanTimesMax;
const TIME_LABEL_MAX = LIMITS.servingPlanTimeLabelMax;
const KINDS: ServingTimeKind[] = ["SERVICE", "REHEARSAL", "OTHER"];

/** One of the plan's times as typed: wall-clock "HH:MM" on the plan's day, in the church's zone. */
export interface PlanTimeDraft {
  /** A row's identity while rows are added and removed (React's key), never sent. */
  key: number;
  kind: ServingTimeKind;
  label: string;
  start: string;
  end: string;
}

/** A plan's form as typed. */
export interface PlanDraft {
  title: string;
  date: string;
  times: PlanTimeDraft[];
  notes: string;
  /** The event occurrence it serves, as "eventId|originalStart", or "" for none. */
  occurrence: string;
}

let rows = 0;
const rowKey = () => ++rows;

/** A new plan: nothing chosen (the day is required, and the gateway says so on the field). */
export const newPlanDraft = (): PlanDraft => ({ title: "", date: "", times: [], notes: "", occurrence: "" });

/** A stored plan as the form shows it: its times as wall-clock times in the church's zone. */
export function planDraftOf(
  plan: {
    title: string;
    date: string;
    notes: string;
    times: readonly AdminServingPlanTimeFragment[];
    occurrence?: { originalStart: string; event: { id: string } } | null;
  },
  timeZone: string,
): PlanDraft {
  return {
    title: plan.title,
    date: plan.date,
    notes: plan.notes,
    occurrence: plan.occurrence ? `${plan.occurrence.event.id}|${plan.occurrence.originalStart}` : "",
    times: plan.times.map((time) => ({
      key: rowKey(),
      kind: time.kind,
      label: time.label,
      start: localInput(time.startsAt, timeZone).slice(11),
      end: localInput(time.endsAt, timeZone).slice(11),
    })),
  };
}

/** Whether two drafts say the same (rows' keys aside): the form has nothing to save. */
export function samePlanDraft(a: PlanDraft, b: PlanDraft): boolean {
  const plain = (d: PlanDraft) =>
    JSON.stringify({ ...d, times: d.times.map(({ key: _key, ...time }) => time) });
  return plain(a) === plain(b);
}

const nextDay = (ymd: string) =>
  new Date(Date.parse(`${ymd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A time that ends at or before its start ends the next day (a late service past midnight). */
const endsNextDay = (time: PlanTimeDraft) => !!time.start && !!time.end && time.end <= time.start;

/**
 * The draft as the API takes it, with the rows that cannot be sent yet (a start or end not typed:
 * "times.<i>.start" / ".end"). The title, the day and the times' rules are the gateway's: it answers
 * an empty title or day, a time off the plan's day, a label too long with field errors. Without a day
 * the times cannot be placed, so they are left out and the gateway's error for the day is what shows.
 */
export function planInput(
  draft: PlanDraft,
  timeZone: string,
): { input: ServingPlanInput; missing: Record<string, true> } {
  const missing: Record<string, true> = {};
  const date = draft.date.trim();
  const times = draft.times.map((time, i) => {
    const startsAt = date && time.start ? zonedToIso(`${date}T${time.start}`, timeZone) : null;
    const endDay = endsNextDay(time) ? nextDay(date) : date;
    const endsAt = date && time.end ? zonedToIso(`${endDay}T${time.end}`, timeZone) : null;
    if (!startsAt) missing[`times.${i}.start`] = true;
    if (!endsAt) missing[`times.${i}.end`] = true;
    return { kind: time.kind, label: time.label.trim(), startsAt: startsAt ?? "", endsAt: endsAt ?? "" };
  });
  const [eventId = "", occurrenceStart] = draft.occurrence.split("|");
  return {
    input: {
      title: draft.title.trim(),
      date,
      notes: draft.notes,
      ...(date ? { times } : {}),
      // "" unlinks: the form always says which occurrence, if any, the plan serves.
      eventId,
      ...(occurrenceStart ? { occurrenceStart } : {}),
    },
    missing: date ? missing : {},
  };
}

/**
 * A plan's form state, shared by the "New plan" drawer and the plan's page: the draft, the errors on
 * its fields (the gateway's, and "This field is required." on a time's start or end not typed) and the
 * sentence above them. A field typed over loses its error; the others keep theirs until the next send.
 */
export function usePlanForm(initial: () => PlanDraft, timeZone: string) {
  const i18n = useI18n();
  const [draft, setDraft] = useState<PlanDraft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  return {
    draft,
    errors,
    message,
    change(next: PlanDraft) {
      const changed = (field: string) => {
        const key = field.split(".")[0] as keyof PlanDraft;
        return JSON.stringify(draft[key]) !== JSON.stringify(next[key]);
      };
      setErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => !changed(field))),
      );
      setDraft(next);
    },
    /** The stored plan after a save: a clean form. */
    reset(next: PlanDraft) {
      setDraft(next);
      setErrors({});
      setMessage(null);
    },
    /** The input to send, or null when a time's start or end is not typed (marked on its field). */
    input(): ServingPlanInput | null {
      const { input, missing } = planInput(draft, timeZone);
      const required = i18n.t("field.required");
      setMessage(null);
      setErrors(Object.fromEntries(Object.keys(missing).map((field) => [field, required])));
      return Object.keys(missing).length ? null : input;
    },
    /** A refusal: the gateway's sentence above the form, its field errors on the fields. */
    fail(caught: unknown) {
      const ui = handleError(caught, i18n);
      setMessage(ui.message);
      setErrors(ui.fieldErrors);
    },
  };
}

/**
 * The plan's fields, shared by the "New plan" drawer and the plan's page: title, day, its times (rows
 * added and removed) and the notes for the teams (Markdown, as other staff forms take long text).
 * `errors` are the gateway's field errors (and "times.<i>.start"/".end" for a time not typed).
 */
export function PlanFields({
  draft,
  onChange,
  errors,
  timeZone,
  disabled = false,
}: {
  draft: PlanDraft;
  onChange(next: PlanDraft): void;
  errors: Record<string, string>;
  timeZone: string;
  disabled?: boolean;
}) {
  const { t, locale } = useI18n();
  const set = <K extends keyof PlanDraft>(key: K, value: PlanDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const setTime = (index: number, patch: Partial<PlanTimeDraft>) =>
    set(
      "times",
      draft.times.map((time, i) => (i === index ? { ...time, ...patch } : time)),
    );
  const full = draft.times.length >= PLAN_TIMES_MAX;
  return (
    <>
      <TextField
        label={t("admin.serving.plans.field.title")}
        hint={t("admin.serving.plans.field.titleHint")}
        value={draft.title}
        maxLength={LIMITS.servingPlanTitleMax}
        error={errors.title}
        disabled={disabled}
        onChange={(e) => set("title", e.target.value)}
      />
      <TextField
        label={t("admin.serving.plans.field.date")}
        type="date"
        value={draft.date}
        error={errors.date}
        disabled={disabled}
        onChange={(e) => set("date", e.target.value)}
      />
      <OccurrenceField
        draft={draft}
        onChange={onChange}
        errors={errors}
        timeZone={timeZone}
        disabled={disabled}
      />
      <fieldset className="serving-plan-times" disabled={disabled}>
        <legend>{t("admin.serving.plans.field.times")}</legend>
        <p className="field__hint">
          {t("admin.serving.plans.field.timesHint", { zone: timeZoneName(timeZone, locale) })}
        </p>
        {errors.times && <p className="field__error">{errors.times}</p>}
        {draft.times.length === 0 ? (
          <p className="muted small">{t("admin.serving.plans.field.noTimes")}</p>
        ) : (
          <ol className="serving-plan-times__list">
            {draft.times.map((time, i) => {
              const n = i + 1;
              return (
                <li key={time.key} className="serving-plan-time">
                  <div className="serving-plan-time__head">
                    <span className="serving-plan-time__name" id={`plan-time-${time.key}`}>
                      {t("admin.serving.plans.field.timeN", { n })}
                    </span>
                    <button
                      type="button"
                      className="link-button small"
                      aria-label={t("admin.serving.plans.field.removeTimeN", { n })}
                      onClick={() =>
                        set(
                          "times",
                          draft.times.filter((_, j) => j !== i),
                        )
                      }
                    >
                      {t("admin.serving.plans.field.removeTime")}
                    </button>
                  </div>
                  <div
                    className="serving-plan-time__fields"
                    role="group"
                    aria-labelledby={`plan-time-${time.key}`}
                  >
                    <SelectField
                      label={t("admin.serving.plans.field.kind")}
                      value={time.kind}
                      onChange={(e) => setTime(i, { kind: e.target.value as ServingTimeKind })}
                    >
                      {KINDS.map((kind) => (
                        <option key={kind} value={kind}>
                          {t(`admin.serving.plans.field.kind.${kind}`)}
                        </option>
                      ))}
                    </SelectField>
                    <TextField
                      label={t("admin.serving.plans.field.label")}
                      optionalText={t("common.optional")}
                      value={time.label}
                      maxLength={TIME_LABEL_MAX}
                      error={errors[`times.${i}.label`]}
                      onChange={(e) => setTime(i, { label: e.target.value })}
                    />
                    <TextField
                      label={t("admin.serving.plans.field.starts")}
                      type="time"
                      value={time.start}
                      error={errors[`times.${i}.start`] ?? errors[`times.${i}`]}
                      onChange={(e) => setTime(i, { start: e.target.value })}
                    />
                    <TextField
                      label={t("admin.serving.plans.field.ends")}
                      type="time"
                      value={time.end}
                      hint={endsNextDay(time) ? t("admin.serving.plans.field.nextDay") : undefined}
                      error={errors[`times.${i}.end`]}
                      onChange={(e) => setTime(i, { end: e.target.value })}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {full ? (
          <p className="muted small">{t("admin.serving.plans.field.timesFull", { max: PLAN_TIMES_MAX })}</p>
        ) : (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() =>
              set("times", [
                ...draft.times,
                {
                  key: rowKey(),
                  kind: "SERVICE",
                  label: "",
                  start: "",
                  end: "",
                },
              ])
            }
          >
            {t("admin.serving.plans.field.addTime")}
          </button>
        )}
      </fieldset>
      <TextAreaField
        label={t("admin.serving.plans.field.notes")}
        optionalText={t("common.optional")}
        hint={t("admin.serving.plans.field.notesHint")}
        rows={8}
        value={draft.notes}
        maxLength={LIMITS.servingPlanNotesMax}
        error={errors.notes}
        disabled={disabled}
        onChange={(e) => set("notes", e.target.value)}
      />
    </>
  );
}

/**
 * The event occurrence the plan serves, chosen among those on its day (published events the caller
 * may see). Choosing one for a plan without times adds its time as the service.
 */
function OccurrenceField({
  draft,
  onChange,
  errors,
  timeZone,
  disabled,
}: {
  draft: PlanDraft;
  onChange(next: PlanDraft): void;
  errors: Record<string, string>;
  timeZone: string;
  disabled: boolean;
}) {
  const { t, locale } = useI18n();
  const day = draft.date;
  const from = day ? zonedToIso(`${day}T00:00`, timeZone) : null;
  const to = day ? zonedToIso(`${nextDay(day)}T00:00`, timeZone) : null;
  const { data, loading } = useAdminServingPlanOccurrences({
    skip: !from || !to,
    variables: { from: from ?? "", to: to ?? "" },
  });
  const occurrences = (data?.occurrences ?? []).filter((o) => o.status !== "CANCELLED");
  const keyOf = (o: (typeof occurrences)[number]) => `${o.event.id}|${o.originalStart}`;
  const chosenMissing = draft.occurrence && !occurrences.some((o) => keyOf(o) === draft.occurrence);
  const at = (iso: string) => formatWhen(iso, locale, { date: "none", timeZone });
  return (
    <SelectField
      label={t("admin.serving.plans.field.event")}
      optionalText={t("common.optional")}
      hint={
        !day
          ? t("admin.serving.plans.field.eventNoDay")
          : !loading && !occurrences.length
            ? t("admin.serving.plans.field.eventNone")
            : t("admin.serving.plans.field.eventHint")
      }
      value={draft.occurrence}
      error={errors.eventId ?? errors.occurrenceStart}
      disabled={disabled || !day}
      onChange={(e) => {
        const chosen = occurrences.find((o) => keyOf(o) === e.target.value);
        const times =
          chosen && draft.times.length === 0
            ? [
                {
                  key: rowKey(),
                  kind: "SERVICE" as const,
                  label: chosen.event.title.slice(0, TIME_LABEL_MAX),
                  start: localInput(chosen.start, timeZone).slice(11),
                  end: localInput(chosen.end, timeZone).slice(11),
                },
              ]
            : draft.times;
        onChange({ ...draft, occurrence: e.target.value, times });
      }}
    >
      <option value="">{t("admin.serving.plans.field.eventNoneChosen")}</option>
      {chosenMissing && <option value={draft.occurrence}>{t("admin.serving.plans.field.eventOther")}</option>}
      {occurrences.map((o) => (
        <option key={keyOf(o)} value={keyOf(o)}>
          {o.event.title} · {at(o.start)}
        </option>
      ))}
    </SelectField>
  );
}
