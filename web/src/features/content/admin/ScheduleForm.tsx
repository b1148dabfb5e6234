import { useId, useState, type FormEvent } from "react";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { timeZoneName } from "../../../i18n/format.ts";
import { TextField } from "../../../components/Field.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { instantToWallTime, wallTimeToInstant } from "./zonedTime.ts";

/**
 * "Schedule…": a date and time *in the church's time zone* (settings.timezone), whatever zone the
 * editor's computer is in; zonedTime.ts turns the wall time into the instant the gateway stores.
 */
export function ScheduleForm({
  current,
  busy,
  error,
  onSchedule,
}: {
  current: string | null;
  busy: boolean;
  error?: string | undefined;
  onSchedule(iso: string): Promise<boolean>;
}) {
  const { t, locale } = useI18n();
  const { timeZone } = useChurchDateTime();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(() => (current ? instantToWallTime(current, timeZone) : ""));
  const [problem, setProblem] = useState<string | null>(null);

  if (!open) {
    return (
      <button type="button" className="button button--ghost" onClick={() => setOpen(true)}>
        {current ? t("admin.content.schedule.change") : t("admin.content.schedule.open")}
      </button>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const iso = wallTimeToInstant(value, timeZone);
    if (!iso) return setProblem(t("admin.content.schedule.required"));
    if (new Date(iso).getTime() <= Date.now()) return setProblem(t("admin.content.schedule.future"));
    setProblem(null);
    if (await onSchedule(iso)) setOpen(false);
  }

  return (
    <form
      className="schedule-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby={`${formId}-title`}
    >
      <p className="schedule-form__title" id={`${formId}-title`}>
        {t("admin.content.schedule.title")}
      </p>
      <TextField
        label={t("admin.content.schedule.when")}
        type="datetime-local"
        value={value}
        min={instantToWallTime(new Date().toISOString(), timeZone)}
        onChange={(e) => setValue(e.target.value)}
        hint={t("admin.content.schedule.zone", { zone: timeZoneName(timeZone, locale) })}
        error={problem ?? error}
      />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {t("admin.content.schedule.submit")}
        </button>
        <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
