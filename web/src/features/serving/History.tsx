import { useMyServingHistory } from "./serving.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../i18n/format.ts";

/** On /me/serving: where the person served (their latest 20 accepted places on past plans), folded. */
export function ServingHistory() {
  const { t, locale } = useI18n();
  const { data } = useMyServingHistory({ fetchPolicy: "cache-and-network" });
  const places = data?.myServingHistory ?? [];
  if (!places.length) return null;
  return (
    <details className="serving-history">
      <summary>{t("serving.history.title", { count: places.length })}</summary>
      <ul className="serving-history__list">
        {places.map((place) => (
          <li key={place.id}>
            <strong>{place.position?.name}</strong> ·{" "}
            {place.plan ? formatCalendarDate(place.plan.date, locale, "full") : ""}
            {place.plan && <span className="muted"> · {place.plan.title}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
