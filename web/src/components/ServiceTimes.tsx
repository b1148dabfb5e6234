import type { PublicSettingsFragment } from "../gql/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { browserTimeZone, formatWallTime, timeZoneName } from "../i18n/format.ts";

const ORDER = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

/** The weekly services, Sunday first, with the church's zone named when the reader is elsewhere. */
export function ServiceTimes({
  settings,
  emptyText,
}: {
  settings: PublicSettingsFragment;
  emptyText?: string;
}) {
  const { t, locale } = useI18n();
  // "HH:MM" strings sort as text; localeCompare would build a collator per comparison (slow on phones).
  const times = [...settings.serviceTimes].sort(
    (a, b) => ORDER.indexOf(a.day) - ORDER.indexOf(b.day) || (a.time < b.time ? -1 : a.time > b.time ? 1 : 0),
  );
  if (!times.length) return emptyText ? <p className="muted">{emptyText}</p> : null;
  return (
    <>
      <ul className="service-times">
        {times.map((s) => (
          <li key={`${s.day}-${s.time}-${s.label}`}>
            <span className="service-times__when">
              {t(`time.weekday.${s.day}`)} <time>{formatWallTime(s.time, locale)}</time>
            </span>
            {s.label && <span className="service-times__label">{s.label}</span>}
          </li>
        ))}
      </ul>
      {settings.timezone !== browserTimeZone() && (
        <p className="muted small">
          {t("home.timezoneNote", { zone: timeZoneName(settings.timezone, locale) })}
        </p>
      )}
    </>
  );
}
