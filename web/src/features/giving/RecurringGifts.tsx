import { useState } from "react";
import { Link } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatDate } from "../../i18n/format.ts";
import { Alert, type Notice } from "../../components/Alert.tsx";
import { handleError } from "../../lib/handleError.ts";
import { formatCents } from "@flock/shared/money";
import {
  useCancelRecurringGift,
  usePauseRecurringGift,
  useRecurringGifts,
  useResumeRecurringGift,
  type RecurringGiftRowFragment,
} from "./recurring.generated.ts";

/**
 * A member's recurring gifts on /me/giving (issue 29): what each gives and how often, and pausing,
 * resuming or cancelling it (the gateway asks the payment provider first). The buttons follow `can`.
 * Mounted by MyGiving.tsx; its strings are the `give` catalog's (give.recurring.…).
 */
export function RecurringGifts() {
  const { t, locale } = useI18n();
  const i18n = useI18n();
  const timeZone = useAppShell().data?.settings.timezone ?? "UTC";
  const { data, loading, error } = useRecurringGifts();
  const [pause] = usePauseRecurringGift();
  const [resume] = useResumeRecurringGift();
  const [cancel] = useCancelRecurringGift();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  async function act(gift: RecurringGiftRowFragment, action: "pause" | "resume" | "cancel") {
    if (action === "cancel" && !window.confirm(t("give.recurring.confirmCancel"))) return;
    setBusy(gift.id);
    setNotice(null);
    try {
      const variables = { variables: { id: gift.id } };
      if (action === "pause") await pause(variables);
      else if (action === "resume") await resume(variables);
      else await cancel(variables);
      const done = { pause: "paused", resume: "resumed", cancel: "cancelled" } as const;
      setNotice({ kind: "success", text: t(`give.recurring.${done[action]}`) });
    } catch (caught) {
      setNotice({ kind: "error", text: handleError(caught, i18n).message });
    } finally {
      setBusy(null);
    }
  }

  const gifts = data?.myRecurringGifts ?? [];
  return (
    <section className="card recurring-gifts" aria-labelledby="recurring-gifts-title">
      <h2 id="recurring-gifts-title">{t("give.recurring.title")}</h2>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {!loading && !error && !gifts.length && (
        <p>
          {t("give.recurring.empty")} <Link to="/give">{t("give.recurring.start")}</Link>
        </p>
      )}
      {gifts.length > 0 && (
        <ul className="recurring-gifts__list">
          {gifts.map((gift) => (
            <li key={gift.id} className="recurring-gifts__item">
              <p>
                <strong>
                  {t("give.recurring.amount", {
                    amount: formatCents(gift.amountCents, gift.currency, locale),
                    interval: t(`give.recurring.interval.${gift.interval}`),
                  })}
                </strong>{" "}
                · {gift.fund?.name ?? t("give.recurring.fundGone")} ·{" "}
                <span className={`badge badge--${gift.status === "ACTIVE" ? "ok" : "neutral"}`}>
                  {t(`give.recurring.status.${gift.status}`)}
                </span>
              </p>
              <p className="muted">
                {t("give.recurring.since", { date: formatDate(gift.created, locale, timeZone) })}
              </p>
              {gift.lastFailedAt && gift.status !== "CANCELLED" && (
                <Alert kind="warning">
                  {t("give.recurring.failed", { date: formatDate(gift.lastFailedAt, locale, timeZone) })}
                </Alert>
              )}
              <div className="actions">
                {gift.can.pause && (
                  <button
                    type="button"
                    className="button button--small"
                    disabled={busy === gift.id}
                    onClick={() => void act(gift, "pause")}
                  >
                    {t("give.recurring.pause")}
                  </button>
                )}
                {gift.can.resume && (
                  <button
                    type="button"
                    className="button button--small"
                    disabled={busy === gift.id}
                    onClick={() => void act(gift, "resume")}
                  >
                    {t("give.recurring.resume")}
                  </button>
                )}
                {gift.can.cancel && (
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    disabled={busy === gift.id}
                    onClick={() => void act(gift, "cancel")}
                  >
                    {t("give.recurring.cancel")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
