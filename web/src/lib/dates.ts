import { useAppShell } from "../gql/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { formatCalendarDate, formatDateTime, formatMonthDay } from "../i18n/format.ts";

/** An instant in the church's time zone (settings.timezone), in the reader's language. */
export function useChurchDateTime() {
  const { locale } = useI18n();
  const { data } = useAppShell();
  const timeZone = data?.settings.timezone ?? "UTC";
  return { timeZone, format: (iso: string) => formatDateTime(iso, locale, timeZone) };
}

/** Dates without a time of day, in the reader's language. */
export function useCalendarDates() {
  const { locale } = useI18n();
  return {
    date: (ymd: string, style: "long" | "full" = "long") => formatCalendarDate(ymd, locale, style),
    monthDay: (month: number, day: number) => formatMonthDay(month, day, locale),
  };
}
