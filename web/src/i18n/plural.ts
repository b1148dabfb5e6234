import { useI18n } from "./I18nProvider.tsx";

type PrayerPluralKey = "prayer.prayedCount" | "prayer.admin.count" | "prayer.admin.flags" | "notifications.unread";

/** "1 person prayed" / "3 people prayed": the `.one` or `.other` message by the language's plural rules. */
export function usePrayerPlural() {
  const { t, locale } = useI18n();
  const rules = new Intl.PluralRules(locale);
  return (key: PrayerPluralKey, count: number) => t(`${key}.${rules.select(count) === "one" ? "one" : "other"}`, { count: count.toLocaleString(locale) });
}

type PluralKey =
  | "admin.people.count"
  | "admin.people.countFiltered"
  | "admin.people.pendingNotice"
  | "admin.household.members"
  | "admin.visits.count"
  | "admin.visits.people";

/** "1 person" / "3 people": picks the `.one` or `.other` message by the language's plural rules. */
export function usePlural() {
  const { t, locale } = useI18n();
  const rules = new Intl.PluralRules(locale);
  return (key: PluralKey, count: number) => t(`${key}.${rules.select(count) === "one" ? "one" : "other"}`, { count });
}
