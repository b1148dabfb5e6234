import { useId, useRef, useState } from "react";
import { Link } from "react-router";
import {
  useMarkPrayerAnswered,
  useMyPrayerRequests,
  type MyPrayerRequestFragment,
} from "./prayer.generated.ts";
import type { PrayerStatus } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { TextAreaField } from "../../components/Field.tsx";
import { appendEdges } from "../../lib/appendEdges.ts";
import { handleError } from "../../lib/handleError.ts";
import { relativeTime } from "../../i18n/relativeTime.ts";
import { LIMITS } from "@flock/shared/limits";

const PAGE_SIZE = 5;
export const STATUS_BADGE: Record<PrayerStatus, string> = {
  PENDING: "prayer-badge--pending",
  APPROVED: "prayer-badge--approved",
  REJECTED: "prayer-badge--rejected",
  ANSWERED: "prayer-badge--answered",
  ARCHIVED: "",
};

/** The signed-in user's own requests, with their state, a rejection's reason, and "Mark answered". */
export function MyPrayerRequests({ announce }: { announce(message: string): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, error, fetchMore } = useMyPrayerRequests({
    variables: { first: PAGE_SIZE },
    fetchPolicy: "cache-and-network",
  });
  const requests = data?.myPrayerRequests.edges.map((e) => e.node) ?? [];
  if (!data && !error) return null;
  return (
    <section className="card my-prayers" aria-labelledby="my-prayers-title">
      <h2 id="my-prayers-title">{t("prayer.mine.title")}</h2>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {data && requests.length === 0 && <p className="muted small">{t("prayer.mine.empty")}</p>}
      <ul className="my-prayers__list">
        {requests.map((request) => (
          <MyRequest key={request.id} request={request} announce={announce} />
        ))}
      </ul>
      {data?.myPrayerRequests.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() =>
            void fetchMore({
              variables: { after: data.myPrayerRequests.pageInfo.endCursor },
              updateQuery: appendEdges("myPrayerRequests"),
            })
          }
        >
          {t("prayer.showMore")}
        </button>
      )}
    </section>
  );
}

function MyRequest({
  request,
  announce,
}: {
  request: MyPrayerRequestFragment;
  announce(message: string): void;
}) {
  const { t, locale } = useI18n();
  return (
    <li className="my-prayer">
      <p className="my-prayer__meta">
        <span className={`prayer-badge ${STATUS_BADGE[request.status]}`}>
          {t(`prayer.status.${request.status}`)}
        </span>
        <time className="small muted" dateTime={request.created}>
          {relativeTime(request.created, locale)}
        </time>
      </p>
      <p className="my-prayer__body">
        <Link to={`/prayer/${request.id}`}>{request.body}</Link>
      </p>
      {request.status === "REJECTED" && request.rejectReason && (
        <p className="small">
          <strong>{t("prayer.mine.reason")}</strong> {request.rejectReason}
        </p>
      )}
      {request.status === "APPROVED" && <AnsweredButton request={request} announce={announce} />}
    </li>
  );
}

/** The requester shares how the prayer was answered (a "praise report" on the wall). */
export function AnsweredButton({
  request,
  announce,
}: {
  request: MyPrayerRequestFragment;
  announce(message: string): void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<{ message: string; field?: string | undefined } | null>(null);
  const [mark, { loading }] = useMarkPrayerAnswered();

  async function save() {
    if (!note.trim()) {
      setError({ message: "", field: t("prayer.answer.required") });
      return;
    }
    setError(null);
    try {
      await mark({ variables: { id: request.id, note: note.trim() } });
      dialog.current?.close();
      announce(t("prayer.answer.done"));
    } catch (caught) {
      const ui = handleError(caught, i18n);
      setError({ message: ui.fieldErrors.note ? "" : ui.message, field: ui.fieldErrors.note });
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => dialog.current?.showModal()}
      >
        {t("prayer.answer.open")}
      </button>
      <dialog ref={dialog} className="dialog dialog--wide" aria-labelledby={titleId}>
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <h2 id={titleId}>{t("prayer.answer.title")}</h2>
          <blockquote className="prayer-quote">{request.body}</blockquote>
          {error?.message && <Alert kind="error">{error.message}</Alert>}
          <TextAreaField
            label={t("prayer.answer.note")}
            rows={5}
            required
            maxLength={LIMITS.prayerAnswerNoteMax}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={error?.field}
            hint={t("prayer.answer.hint", {
              count: note.length.toLocaleString(locale),
              max: LIMITS.prayerAnswerNoteMax.toLocaleString(locale),
            })}
          />
          <div className="actions">
            <button type="submit" className="button" disabled={loading}>
              {loading ? t("common.saving") : t("prayer.answer.submit")}
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
