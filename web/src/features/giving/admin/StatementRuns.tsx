import { useEffect, useState } from "react";
import {
  useAdminGivingStartStatementRun,
  useAdminGivingStatementRuns,
  type AdminGivingStatementRunFragment,
} from "./AdminGiving.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { givingFieldErrors } from "./giving-errors.ts";

/** While a run is making statements, its progress is asked for this often. */
const POLL_MS = 2000;

/**
 * Statements for every donor of a period, made in the background (one PDF per household, or per person
 * giving on their own, in one zip): started here, followed with a progress bar, downloaded when done.
 */
export function StatementRuns({ from, to }: { from: string; to: string }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [start, starting] = useAdminGivingStartStatementRun();
  const { data, refetch, startPolling, stopPolling } = useAdminGivingStatementRuns({
    fetchPolicy: "cache-and-network",
  });
  // Follow a run while it makes statements; stop asking once none is running.
  const running = (data?.givingStatementRuns ?? []).some((run) => run.status === "RUNNING");
  useEffect(() => {
    if (running) startPolling(POLL_MS);
    else stopPolling();
    return stopPolling;
  }, [running, startPolling, stopPolling]);
  const runs = (data?.givingStatementRuns ?? []).slice(0, 5);
  async function begin() {
    setNotice(null);
    try {
      await start({ variables: { from, to } });
      await refetch();
    } catch (caught) {
      const problem = handleError(caught, i18n);
      setNotice({ kind: "error", text: givingFieldErrors(problem, i18n).to ?? problem.message });
    }
  }
  const period = (run: AdminGivingStatementRunFragment) =>
    t("admin.giving.statements.period", {
      from: formatCalendarDate(run.from, locale),
      to: formatCalendarDate(run.to, locale),
    });
  return (
    <section aria-labelledby="statements-heading">
      <h2 id="statements-heading">{t("admin.giving.statements.title")}</h2>
      <p className="muted">{t("admin.giving.statements.hint")}</p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="actions">
        <button type="button" className="button" disabled={starting.loading} onClick={() => void begin()}>
          {t("admin.giving.statements.start", {
            from: formatCalendarDate(from, locale),
            to: formatCalendarDate(to, locale),
          })}
        </button>
      </div>
      {runs.length > 0 && (
        <ul className="statement-runs">
          {runs.map((run) => (
            <li key={run.id} className="card">
              <strong>{period(run)}</strong>
              {run.status === "RUNNING" && (
                <>
                  <progress
                    max={Math.max(run.unitsTotal, 1)}
                    value={run.unitsDone}
                    aria-label={t("admin.giving.statements.progressLabel", { period: period(run) })}
                  />
                  <span className="muted" aria-live="polite">
                    {run.unitsTotal
                      ? t("admin.giving.statements.progress", { done: run.unitsDone, total: run.unitsTotal })
                      : t("admin.giving.statements.counting")}
                  </span>
                </>
              )}
              {run.status === "DONE" && run.downloadUrl && (
                <span>
                  {t("admin.giving.statements.done", { count: run.unitsTotal })}{" "}
                  <a href={run.downloadUrl} download>
                    {t("admin.giving.statements.download")}
                  </a>
                </span>
              )}
              {run.status === "FAILED" && (
                <span className="field__error">
                  {t("admin.giving.statements.failed")} {run.error}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
