import { useId, useRef, useState } from "react";
import { useFlagPrayerRequest, usePrayFor, type PrayerCardFragment } from "./prayer.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { TextAreaField } from "../../components/Field.tsx";
import { useChurchDateTime } from "../../lib/dates.ts";
import { handleError } from "../../lib/handleError.ts";
import { relativeTime } from "../../i18n/relativeTime.ts";
import { LIMITS } from "@flock/shared/limits";

/**
 * One request on the wall: who asked (or "Anonymous"), when, the request, the praise report once
 * answered, and the live "N people prayed" count with the "I prayed" button. `announce` speaks a
 * result in the page's polite live region (the button's own label change is not reliably read).
 */
export function PrayerCard({
  request,
  announce,
  headingLevel = 3,
}: {
  request: PrayerCardFragment;
  announce(message: string): void;
  headingLevel?: 2 | 3;
}) {
  const { t, locale } = useI18n();
  const { format } = useChurchDateTime();
  const headingId = useId();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const answered = request.status === "ANSWERED";
  return (
    <article className={`prayer-card${answered ? " prayer-card--answered" : ""}`} aria-labelledby={headingId}>
      <div className="prayer-card__head">
        <Heading id={headingId} className="prayer-card__author" tabIndex={-1}>
          {request.authorName ?? t("prayer.anonymous")}
        </Heading>
        <time className="prayer-card__time" dateTime={request.created} title={format(request.created)}>
          {relativeTime(request.created, locale)}
        </time>
        {request.visibility === "MEMBERS" && (
          <span className="prayer-badge">{t("prayer.visibility.MEMBERS.short")}</span>
        )}
      </div>
      <p className="prayer-card__body">{request.body}</p>
      {answered && request.answerNote && (
        <div className="prayer-card__answer">
          <p className="prayer-card__answer-title">
            <span aria-hidden="true">✦ </span>
            {t("prayer.praiseReport")}
            {request.answeredAt && (
              <>
                {" · "}
                <time dateTime={request.answeredAt} title={format(request.answeredAt)}>
                  {relativeTime(request.answeredAt, locale)}
                </time>
              </>
            )}
          </p>
          <p className="prayer-card__answer-note">{request.answerNote}</p>
        </div>
      )}
      <div className="prayer-card__foot">
        <p className="prayer-card__count">
          {request.prayedCount === 0
            ? t("prayer.prayedNone")
            : t("prayer.prayedCount", { count: request.prayedCount })}
        </p>
        <div className="prayer-card__actions">
          <PrayButton request={request} announce={announce} />
          <FlagButton request={request} announce={announce} />
        </div>
      </div>
    </article>
  );
}

function PrayButton({ request, announce }: { request: PrayerCardFragment; announce(message: string): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [prayFor] = usePrayFor();
  const [error, setError] = useState<string | null>(null);
  const done = request.prayedToday;

  async function pray() {
    if (done) return;
    setError(null);
    try {
      // The count moves at once; the server's answer (or the live event) corrects it.
      const result = await prayFor({
        variables: { id: request.id },
        optimisticResponse: {
          prayFor: {
            __typename: "PrayerRequest",
            id: request.id,
            prayedCount: request.prayedCount + 1,
            prayedToday: true,
          },
        },
      });
      const count = result.data?.prayFor.prayedCount ?? request.prayedCount + 1;
      announce(`${t("prayer.thanksForPraying")} ${t("prayer.prayedCount", { count: count })}`);
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    }
  }

  return (
    <>
      {/* aria-disabled rather than disabled: the button keeps focus after the click. */}
      <button
        type="button"
        className={`button button--small prayer-card__pray${done ? " is-done" : ""}`}
        aria-disabled={done || undefined}
        onClick={() => void pray()}
      >
        <HeartIcon filled={done} /> {done ? t("prayer.prayedToday") : t("prayer.iPrayed")}
      </button>
      {error && (
        <p className="field__error prayer-card__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill={filled ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        d="M12 21s-7.5-4.6-9.4-9.3C1.3 8.3 3.4 4.5 7 4.5c2.1 0 3.6 1.2 5 3 1.4-1.8 2.9-3 5-3 3.6 0 5.7 3.8 4.4 7.2C19.5 16.4 12 21 12 21z"
      />
    </svg>
  );
}

/** Members may flag a request for the moderators (after a confirmation); three flags take it off the wall. */
function FlagButton({ request, announce }: { request: PrayerCardFragment; announce(message: string): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [flag, { loading }] = useFlagPrayerRequest();
  // The flag is for what others asked: a requester is not shown it on their own request.
  if (!request.can.flag || request.isMine) return null;
  if (request.flaggedByMe)
    return <span className="prayer-card__flagged small muted">{t("prayer.flagged")}</span>;

  async function confirm() {
    setError(null);
    try {
      await flag({ variables: { id: request.id, reason: reason.trim() || null } });
      dialog.current?.close();
      announce(t("prayer.flagDone"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    }
  }

  return (
    <>
      <button
        type="button"
        className="link-button prayer-card__flag"
        onClick={() => dialog.current?.showModal()}
      >
        {t("prayer.flag")}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId}>
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <h2 id={titleId}>{t("prayer.flagTitle")}</h2>
          <p>{t("prayer.flagBody")}</p>
          {error && <Alert kind="error">{error}</Alert>}
          <TextAreaField
            label={t("prayer.flagReason")}
            optionalText={t("common.optional")}
            rows={3}
            maxLength={LIMITS.prayerFlagReasonMax}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="actions">
            <button type="submit" className="button button--danger-solid" disabled={loading}>
              {t("prayer.flagConfirm")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
              {t("common.cancel")}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
