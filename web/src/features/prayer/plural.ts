import { useI18n } from "../../i18n/I18nProvider.tsx";

type PluralKey = "prayer.prayedCount" | "prayer.admin.count" | "prayer.admin.flags" | "notifications.unread";

/** "1 person prayed" / "3 people prayed": the `.one` or `.other` message by the language's plural rules. */
export function usePrayerPlural() {
  const { t, locale } = useI18n();
  const rules = new Intl.PluralRules(locale);
  return (key: PluralKey, count: number) => t(`${key}.${rules.select(count) === "one" ? "one" : "other"}`, { count: count.toLocaleString(locale) });
}
