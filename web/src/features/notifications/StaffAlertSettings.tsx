import { useState } from "react";
import {
  StaffAlertSettingsDocument,
  useSetStaffAlertPreference,
  useStaffAlertSettings,
} from "./StaffAlertSettings.generated.ts";
import type { AlertDelivery, StaffAlertTopic } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { SelectField } from "../../components/Field.tsx";
import { SavedNotice } from "../../components/SavedNotice.tsx";
import { handleError } from "../../lib/handleError.ts";

const DELIVERIES: AlertDelivery[] = ["IMMEDIATE", "DAILY_DIGEST", "OFF"];

/**
 * Staff only: how new visit requests, sign-ups and prayer requests waiting for moderation reach them
 * (at once, a daily digest email, or not at all). Shows only the topics the viewer's roles handle;
 * members see nothing here. Each choice saves at once.
 */
export function StaffAlertSettings() {
  const i18n = useI18n();
  const { t } = i18n;
  const { data } = useStaffAlertSettings({ fetchPolicy: "cache-and-network" });
  const [save] = useSetStaffAlertPreference();
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preferences = data?.staffAlertPreferences ?? [];
  if (!preferences.length) return null;

  async function choose(topic: StaffAlertTopic, delivery: AlertDelivery) {
    setSaved(null);
    setError(null);
    try {
      await save({
        variables: { topic, delivery },
        update(cache, result) {
          const changed = result.data?.setStaffAlertPreference;
          if (!changed) return;
          cache.updateQuery({ query: StaffAlertSettingsDocument }, (current) =>
            current
              ? {
                  staffAlertPreferences: current.staffAlertPreferences.map((p) =>
                    p.topic === changed.topic ? { ...p, delivery: changed.delivery } : p,
                  ),
                }
              : current,
          );
        },
      });
      setSaved(t("staffAlerts.saved"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    }
  }

  return (
    <section className="card form staff-alerts" aria-labelledby="staff-alerts-title">
      <h2 id="staff-alerts-title">{t("staffAlerts.title")}</h2>
      <p className="muted small">{t("staffAlerts.intro")}</p>
      {error && <Alert kind="error">{error}</Alert>}
      {preferences.map((preference) => (
        <SelectField
          key={preference.topic}
          label={t(`staffAlerts.topic.${preference.topic}`)}
          value={preference.delivery}
          onChange={(e) => void choose(preference.topic, e.target.value as AlertDelivery)}
        >
          {DELIVERIES.map((delivery) => (
            <option key={delivery} value={delivery}>
              {t(`staffAlerts.delivery.${delivery}`)}
            </option>
          ))}
        </SelectField>
      ))}
      <SavedNotice text={saved} />
    </section>
  );
}
