import { useState, type FormEvent } from "react";
import {
  useAddServingBlockout,
  useMyServingAvailability,
  useRemoveServingBlockout,
  useSetServingPreferences,
  MyServingAvailabilityDocument,
  type MyBlockoutFragment,
} from "./serving.generated.ts";
import type { ServingHousehold, ServingRepeat } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate, formatWallTime } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { SelectField, TextField } from "../../components/Field.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { LIMITS } from "@flock/shared/limits";

/*
 * A volunteer's availability on /me/serving (issue 27): dates they can't serve (once, weekly or every
 * month on the same weekday) and how often and when they like to serve. Their teams' leaders see both
 * before they ask, and auto-fill respects them.
 */

const REPEATS: ServingRepeat[] = ["NONE", "WEEKLY", "MONTHLY"];
const HOUSEHOLD: ServingHousehold[] = ["NONE", "TOGETHER", "APART"];
const EMPTY = { startsOn: "", endsOn: "", repeat: "NONE" as ServingRepeat, until: "", reason: "" };

export function Availability() {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error } = useMyServingAvailability({ fetchPolicy: "cache-and-network" });
  if (loading && !data) return <Loading />;
  if (error && !data) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  const availability = data?.myServingAvailability;
  if (!availability) return null;
  return (
    <section className="serving-availability" aria-labelledby="serving-availability">
      <h2 id="serving-availability">{t("serving.availability.title")}</h2>
      <p className="muted">{t("serving.availability.intro")}</p>
      <Blockouts blockouts={availability.blockouts} />
      <Preferences key={JSON.stringify(availability.preferences)} preferences={availability.preferences} />
    </section>
  );
}

function Blockouts({ blockouts }: { blockouts: readonly MyBlockoutFragment[] }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<UiError | null>(null);
  const [add, { loading }] = useAddServingBlockout({ refetchQueries: [MyServingAvailabilityDocument] });
  const [remove] = useRemoveServingBlockout({ refetchQueries: [MyServingAvailabilityDocument] });
  const set = (patch: Partial<typeof EMPTY>) => setForm((f) => ({ ...f, ...patch }));
  const date = (ymd: string) => formatCalendarDate(ymd, locale, "full");

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await add({
        variables: {
          input: {
            startsOn: form.startsOn,
            // One day unless a last day is given.
            endsOn: form.endsOn || form.startsOn,
            repeat: form.repeat,
            until: form.repeat === "NONE" ? null : form.until || null,
            reason: form.reason,
          },
        },
      });
      setForm(EMPTY);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <div className="card serving-blockouts">
      <h3>{t("serving.blockouts.title")}</h3>
      {blockouts.length === 0 ? (
        <p className="muted">{t("serving.blockouts.none")}</p>
      ) : (
        <ul className="serving-blockouts__list">
          {blockouts.map((b) => (
            <li key={b.id}>
              <span>
                {b.startsOn === b.endsOn
                  ? date(b.startsOn)
                  : t("serving.blockouts.range", { from: date(b.startsOn), to: date(b.endsOn) })}
                {b.repeat !== "NONE" && (
                  <span className="list-meta">
                    {t(`serving.blockouts.repeats.${b.repeat}`)}
                    {b.until ? ` · ${t("serving.blockouts.until", { date: date(b.until) })}` : ""}
                  </span>
                )}
                {b.reason && <span className="list-meta">{b.reason}</span>}
              </span>
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => void remove({ variables: { id: b.id } })}
                aria-label={t("serving.blockouts.removeFor", { date: date(b.startsOn) })}
              >
                {t("serving.blockouts.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form serving-blockouts__form" onSubmit={(e) => void submit(e)} noValidate>
        <h4>{t("serving.blockouts.add")}</h4>
        {error && <Alert kind="error">{error.message}</Alert>}
        <div className="serving-blockouts__dates">
          <TextField
            label={t("serving.blockouts.from")}
            type="date"
            required
            value={form.startsOn}
            onChange={(e) => set({ startsOn: e.target.value })}
            error={error?.fieldErrors.startsOn}
          />
          <TextField
            label={t("serving.blockouts.to")}
            type="date"
            optionalText={t("common.optional")}
            hint={t("serving.blockouts.toHint")}
            value={form.endsOn}
            onChange={(e) => set({ endsOn: e.target.value })}
            error={error?.fieldErrors.endsOn}
          />
        </div>
        <SelectField
          label={t("serving.blockouts.repeat")}
          value={form.repeat}
          onChange={(e) => set({ repeat: e.target.value as ServingRepeat })}
        >
          {REPEATS.map((r) => (
            <option key={r} value={r}>
              {t(`serving.blockouts.repeat.${r}`)}
            </option>
          ))}
        </SelectField>
        {form.repeat !== "NONE" && (
          <TextField
            label={t("serving.blockouts.untilLabel")}
            type="date"
            optionalText={t("common.optional")}
            value={form.until}
            onChange={(e) => set({ until: e.target.value })}
            error={error?.fieldErrors.until}
          />
        )}
        <TextField
          label={t("serving.blockouts.reason")}
          optionalText={t("common.optional")}
          hint={t("serving.blockouts.reasonHint")}
          maxLength={LIMITS.servingBlockoutReasonMax}
          value={form.reason}
          onChange={(e) => set({ reason: e.target.value })}
          error={error?.fieldErrors.reason}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={loading}>
            {loading ? t("common.saving") : t("serving.blockouts.save")}
          </button>
        </div>
      </form>
    </div>
  );
}

function Preferences({
  preferences,
}: {
  preferences: {
    maxPerMonth?: number | null;
    preferredTimes: readonly string[];
    household: ServingHousehold;
  };
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const shell = useAppShell();
  const [maxPerMonth, setMaxPerMonth] = useState(
    preferences.maxPerMonth ? String(preferences.maxPerMonth) : "",
  );
  const [times, setTimes] = useState<string[]>([...preferences.preferredTimes]);
  const [household, setHousehold] = useState<ServingHousehold>(preferences.household);
  const [error, setError] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [save, { loading }] = useSetServingPreferences({ refetchQueries: [MyServingAvailabilityDocument] });
  // The church's service start times, once each (several days may share one).
  const serviceTimes = [...new Set((shell.data?.settings.serviceTimes ?? []).map((s) => s.time))].sort();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await save({
        variables: {
          input: { maxPerMonth: maxPerMonth ? Number(maxPerMonth) : null, preferredTimes: times, household },
        },
      });
      setSaved(true);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <form className="card form serving-preferences" onSubmit={(e) => void submit(e)} noValidate>
      <h3>{t("serving.preferences.title")}</h3>
      {error && <Alert kind="error">{error.message}</Alert>}
      <TextField
        label={t("serving.preferences.maxPerMonth")}
        type="number"
        min={1}
        max={LIMITS.servingMaxPerMonthMax}
        optionalText={t("common.optional")}
        hint={t("serving.preferences.maxPerMonthHint")}
        value={maxPerMonth}
        onChange={(e) => setMaxPerMonth(e.target.value)}
        error={error?.fieldErrors.maxPerMonth}
      />
      {serviceTimes.length > 0 && (
        <fieldset className="field">
          <legend>{t("serving.preferences.times")}</legend>
          {serviceTimes.map((time) => (
            <label key={time} className="field--checkbox">
              <input
                type="checkbox"
                checked={times.includes(time)}
                onChange={(e) =>
                  setTimes((list) => (e.target.checked ? [...list, time] : list.filter((x) => x !== time)))
                }
              />
              {formatWallTime(time, locale)}
            </label>
          ))}
        </fieldset>
      )}
      <SelectField
        label={t("serving.preferences.household")}
        value={household}
        onChange={(e) => setHousehold(e.target.value as ServingHousehold)}
      >
        {HOUSEHOLD.map((h) => (
          <option key={h} value={h}>
            {t(`serving.preferences.household.${h}`)}
          </option>
        ))}
      </SelectField>
      <div className="actions">
        <button type="submit" className="button" disabled={loading}>
          {loading ? t("common.saving") : t("serving.preferences.save")}
        </button>
        {saved && (
          <span className="muted small" role="status">
            {t("serving.preferences.saved")}
          </span>
        )}
      </div>
    </form>
  );
}
