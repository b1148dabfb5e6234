import type { ServingTimeKind } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../i18n/format.ts";
import { useChurchDateTime } from "../../lib/dates.ts";

/**
 * A plan's times as its readers see them: "Rehearsal 7:45 AM–8:40 AM" (its label, else its kind), in
 * the church's zone; nothing for a plan without times. Shared by My serving, the open places and the
 * plan's page.
 */
export function PlanTimes({
  times,
  className = "",
}: {
  times: readonly { kind: ServingTimeKind; label: string; startsAt: string; endsAt: string }[];
  className?: string;
}) {
  const { t, locale } = useI18n();
  const { timeZone } = useChurchDateTime();
  if (!times.length) return null;
  const at = (iso: string) => formatWhen(iso, locale, { date: "none", timeZone });
  return (
    <ul className={`serving-request__times ${className}`.trim()}>
      {times.map((time) => (
        <li key={`${time.kind}-${time.startsAt}`}>
          <strong>{time.label || t(`serving.timeKind.${time.kind}`)}</strong>{" "}
          <span className="serving-request__time">
            {at(time.startsAt)}–{at(time.endsAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}
