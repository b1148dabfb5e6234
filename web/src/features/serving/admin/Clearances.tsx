import { useState, type FormEvent } from "react";
import {
  useAdminAddServingClearance,
  useAdminRemoveServingClearance,
  type AdminServingMemberFragment,
} from "./AdminServing.generated.ts";
import type { ServingClearanceKind } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert } from "../../../components/Alert.tsx";
import { SelectField, TextField } from "../../../components/Field.tsx";
import { useAbilities } from "../../../lib/abilities.ts";
import { handleError, type UiError } from "../../../lib/handleError.ts";

const KINDS: ServingClearanceKind[] = ["BACKGROUND_CHECK", "TRAINING"];
const REFETCH_TEAM = { refetchQueries: ["AdminServingTeam"], awaitRefetchQueries: true };

/**
 * A member's background checks and training, in their drawer on the team's page: what positions that
 * require one look at (not expired on the plan's day). Staff (serving.manage) record and remove them;
 * the team's leaders see them.
 */
export function Clearances({
  personId,
  name,
  clearances,
}: {
  personId: string;
  name: string;
  clearances: AdminServingMemberFragment["clearances"];
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const manage = useAbilities().manageServing;
  const [kind, setKind] = useState<ServingClearanceKind>("BACKGROUND_CHECK");
  const [passedOn, setPassedOn] = useState("");
  const [expiresOn, setExpiresOn] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [add, adding] = useAdminAddServingClearance(REFETCH_TEAM);
  const [remove, removing] = useAdminRemoveServingClearance(REFETCH_TEAM);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await add({ variables: { personId, kind, passedOn, expiresOn: expiresOn || null } });
      setPassedOn("");
      setExpiresOn("");
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  return (
    <section className="serving-clearances" aria-labelledby={`clearances-${personId}`}>
      <h3 id={`clearances-${personId}`}>{t("admin.serving.clearances.title")}</h3>
      {clearances.length === 0 ? (
        <p className="muted small">{t("admin.serving.clearances.none", { name })}</p>
      ) : (
        <ul className="serving-clearances__list">
          {clearances.map((c) => (
            <li key={c.id}>
              <span>
                <strong>{t(`admin.serving.clearances.kind.${c.kind}`)}</strong>{" "}
                <span className={`badge ${c.current ? "badge--ok" : "badge--danger"}`}>
                  {c.current ? t("admin.serving.clearances.current") : t("admin.serving.clearances.expired")}
                </span>
                <span className="block muted small">
                  {t("admin.serving.clearances.dates", {
                    passed: formatCalendarDate(c.passedOn, locale),
                    expires: c.expiresOn ? formatCalendarDate(c.expiresOn, locale) : "",
                    hasExpiry: c.expiresOn ? "yes" : "no",
                  })}
                </span>
              </span>
              {c.can.remove && (
                <button
                  type="button"
                  className="link-button small"
                  disabled={removing.loading}
                  aria-label={t("admin.serving.clearances.removeNamed", {
                    kind: t(`admin.serving.clearances.kind.${c.kind}`),
                  })}
                  onClick={() => void remove({ variables: { id: c.id } })}
                >
                  {t("admin.serving.clearances.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {manage && (
        <form
          className="form serving-clearances__add"
          noValidate
          onSubmit={(e) => void submit(e)}
          aria-label={t("admin.serving.clearances.add")}
        >
          {problem && !Object.keys(problem.fieldErrors).length && (
            <Alert kind="error">{problem.message}</Alert>
          )}
          <SelectField
            label={t("admin.serving.clearances.kind")}
            value={kind}
            onChange={(e) => setKind(e.target.value as ServingClearanceKind)}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.serving.clearances.kind.${k}`)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t("admin.serving.clearances.passedOn")}
            type="date"
            value={passedOn}
            error={problem?.fieldErrors.passedOn}
            onChange={(e) => setPassedOn(e.target.value)}
          />
          <TextField
            label={t("admin.serving.clearances.expiresOn")}
            optionalText={t("common.optional")}
            hint={t("admin.serving.clearances.expiresHint")}
            type="date"
            value={expiresOn}
            error={problem?.fieldErrors.expiresOn}
            onChange={(e) => setExpiresOn(e.target.value)}
          />
          <div className="actions">
            <button type="submit" className="button button--small" disabled={adding.loading}>
              {t("admin.serving.clearances.add")}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
