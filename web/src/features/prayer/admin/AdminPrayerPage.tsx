import { useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import {
  useAdminPrayerEvents,
  useAdminPrayerQueue,
  useApprovePrayerRequest,
  useEditPrayerRequest,
  useRejectPrayerRequest,
  type AdminPrayerItemFragment,
} from "./AdminPrayerPage.generated.ts";
import type { PrayerStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { TextAreaField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { usePeoplePermissions } from "../../../lib/permissions.ts";
import { LIMITS } from "@flock/shared/limits";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";
import "./admin-prayer.css";

const PAGE_SIZE = 20;
const STATUSES: PrayerStatus[] = ["PENDING", "APPROVED", "REJECTED"];
const BODY_MIN = LIMITS.prayerBodyMin;
const BODY_MAX = LIMITS.prayerBodyMax;
/** Moderators without a live stream still see new requests within this time. */
const POLL_MS = 60_000;
const BADGE: Partial<Record<PrayerStatus, string>> = {
  PENDING: "badge--warn",
  APPROVED: "badge--ok",
  REJECTED: "badge--danger",
  ANSWERED: "badge--ok",
};

/** /admin/prayer: the moderation queue (PRODUCT.md §3, §5), oldest first, by status. */
export function AdminPrayerPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("prayer.admin.title"));
  const [params, setParams] = useSearchParams();
  const status: PrayerStatus = STATUSES.find((s) => s.toLowerCase() === params.get("status")) ?? "PENDING";
  const { data, loading, error, fetchMore, refetch } = useAdminPrayerQueue({
    variables: { first: PAGE_SIZE, status },
    fetchPolicy: "cache-and-network",
    pollInterval: POLL_MS,
  });
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(refetchTimer.current ?? undefined), []);

  // Any change on the wall may change the queue: refetch, at most once a second (a burst of
  // "I prayed" events must not become a burst of queries).
  useAdminPrayerEvents({
    onData: () => {
      refetchTimer.current ??= setTimeout(() => {
        refetchTimer.current = null;
        void refetch();
      }, 1000);
    },
  });

  const items = data?.prayerQueue.edges.map((e) => e.node) ?? [];

  /** After approving or rejecting, the item leaves this tab: say so, and go on with the next one. */
  async function settled(id: string, message: string) {
    const index = items.findIndex((item) => item.id === id);
    setNotice(message);
    await refetch();
    requestAnimationFrame(() => {
      const headings = list.current?.querySelectorAll<HTMLElement>(".prayer-item__title");
      (headings?.[Math.min(index, headings.length - 1)] ?? heading.current)?.focus();
    });
  }

  return (
    <div className="page admin-prayer">
      <h1 ref={heading} tabIndex={-1}>
        {t("prayer.admin.title")}
      </h1>
      <p className="muted">{t("prayer.admin.intro")}</p>
      <div className="status-filter" role="group" aria-label={t("prayer.admin.filter")}>
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            onClick={() => {
              setNotice("");
              setParams(s === "PENDING" ? {} : { status: s.toLowerCase() }, { replace: true });
            }}
          >
            {t(`prayer.admin.tab.${s}`)}
          </button>
        ))}
      </div>
      <p className="muted" role="status">
        {notice ? <strong className="admin-prayer__notice">{notice} </strong> : null}
        {data ? t("prayer.admin.count", { count: data.prayerQueue.totalCount }) : ""}
      </p>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{t(`prayer.admin.empty.${status}`)}</p>
        </div>
      ) : (
        <ul className="prayer-queue" ref={list}>
          {items.map((item) => (
            <QueueItem key={item.id} item={item} onSettled={(message) => void settled(item.id, message)} />
          ))}
        </ul>
      )}
      {data?.prayerQueue.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.prayerQueue.pageInfo.endCursor },
              updateQuery: appendEdges("prayerQueue"),
            })
          }
        >
          {t("prayer.showMore")}
        </button>
      )}
    </div>
  );
}

function QueueItem({ item, onSettled }: { item: AdminPrayerItemFragment; onSettled(message: string): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { format } = useChurchDateTime();
  const { canView } = usePeoplePermissions();
  const titleId = useId();
  const [error, setError] = useState<UiError | null>(null);
  const [approve, { loading: approving }] = useApprovePrayerRequest();

  async function doApprove() {
    setError(null);
    try {
      await approve({ variables: { id: item.id } });
      onSettled(t("prayer.admin.approved"));
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  const requester = item.requester;
  return (
    <li>
      <article className="card prayer-item" aria-labelledby={titleId}>
        <div className="prayer-item__head">
          <h2 id={titleId} className="prayer-item__title" tabIndex={-1}>
            {item.authorName ?? t("prayer.anonymous")}
          </h2>
          <span className={`badge ${BADGE[item.status] ?? "badge--muted"}`}>
            {t(`prayer.status.${item.status}`)}
          </span>
        </div>
        <p className="muted small prayer-item__meta">
          <time dateTime={item.created}>{format(item.created)}</time>
        </p>
        <p className="staff-badges prayer-item__badges">
          <span className={`badge badge--visibility badge--visibility-${item.visibility.toLowerCase()}`}>
            <span className="visually-hidden">{t("prayer.form.visibility")}: </span>
            {t(`prayer.visibility.${item.visibility}`)}
          </span>
          {item.groupId && (
            <span className="badge badge--neutral">
              {item.groupName
                ? t("prayer.admin.groupNamed", { name: item.groupName })
                : t("prayer.admin.group")}
            </span>
          )}
          {item.anonymous && <span className="badge badge--neutral">{t("prayer.admin.anonymous")}</span>}
          {item.flagCount > 0 && (
            <span className="badge badge--danger">{t("prayer.admin.flags", { count: item.flagCount })}</span>
          )}
          {item.status !== "PENDING" && (
            <span className="badge badge--muted">{t("prayer.prayedCount", { count: item.prayedCount })}</span>
          )}
        </p>
        {requester && (
          <p className="prayer-item__requester small">
            <strong>{t("prayer.admin.requester")}</strong>{" "}
            {requester.person && canView ? (
              <Link to={`/admin/people/${requester.person.id}`}>{requester.name}</Link>
            ) : (
              requester.name
            )}
            {requester.email && (
              <>
                {requester.name ? " · " : ""}
                <a href={`mailto:${requester.email}`}>{requester.email}</a>
              </>
            )}
          </p>
        )}
        <EditableBody item={item} />
        {item.status === "REJECTED" && item.rejectReason && (
          <p className="small">
            <strong>{t("prayer.mine.reason")}</strong> {item.rejectReason}
          </p>
        )}
        {error && <Alert kind="error">{error.message}</Alert>}
        <div className="actions prayer-item__actions">
          {item.status !== "APPROVED" && (
            <button
              type="button"
              className="button button--small"
              disabled={approving}
              onClick={() => void doApprove()}
            >
              {approving ? t("common.saving") : t("prayer.admin.approve")}
            </button>
          )}
          {item.status !== "REJECTED" && <RejectButton item={item} onSettled={onSettled} />}
        </div>
      </article>
    </li>
  );
}

/** The request's text, with "Edit" for typos (the moderator's draft survives a failed save). */
function EditableBody({ item }: { item: AdminPrayerItemFragment }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(item.body);
  const [error, setError] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [edit, { loading }] = useEditPrayerRequest();
  const editButton = useRef<HTMLButtonElement>(null);
  const fieldWrap = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (editing) fieldWrap.current?.querySelector("textarea")?.focus();
  }, [editing]);

  function stop() {
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  }

  async function save() {
    const text = body.trim();
    if (text.length < BODY_MIN) {
      setError({
        code: "BAD_USER_INPUT",
        message: "",
        fieldErrors: { body: t("prayer.form.bodyTooShort", { min: BODY_MIN }) },
      });
      return;
    }
    setError(null);
    try {
      await edit({ variables: { id: item.id, body: text } });
      setSaved(true);
      stop();
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  if (!editing) {
    return (
      <div className="prayer-item__body">
        <blockquote>{item.body}</blockquote>
        <p className="prayer-item__edit">
          <button
            ref={editButton}
            type="button"
            className="link-button"
            onClick={() => {
              setBody(item.body);
              setSaved(false);
              setEditing(true);
            }}
          >
            {t("prayer.admin.edit")}
          </button>
          {saved && (
            <span className="muted small" role="status">
              {" "}
              {t("admin.people.saved")}
            </span>
          )}
        </p>
      </div>
    );
  }
  return (
    <form
      className="form prayer-item__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {error?.message && !error.fieldErrors.body && <Alert kind="error">{error.message}</Alert>}
      <div ref={fieldWrap}>
        <TextAreaField
          label={t("prayer.admin.editLabel")}
          rows={5}
          maxLength={BODY_MAX}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={error?.fieldErrors.body}
          hint={t("prayer.form.bodyCount", {
            count: body.trim().length.toLocaleString(locale),
            max: BODY_MAX.toLocaleString(locale),
            min: BODY_MIN,
          })}
        />
      </div>
      <div className="actions">
        <button type="submit" className="button button--small" disabled={loading || body === item.body}>
          {loading ? t("common.saving") : t("common.save")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={stop}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}

function RejectButton({
  item,
  onSettled,
}: {
  item: AdminPrayerItemFragment;
  onSettled(message: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [reject, { loading }] = useRejectPrayerRequest();

  async function confirm() {
    if (!reason.trim()) {
      setError({
        code: "BAD_USER_INPUT",
        message: "",
        fieldErrors: { reason: t("prayer.admin.reasonRequired") },
      });
      return;
    }
    setError(null);
    try {
      await reject({ variables: { id: item.id, reason: reason.trim() } });
      dialog.current?.close();
      onSettled(t("prayer.admin.rejected"));
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--danger-ghost button--small"
        onClick={() => dialog.current?.showModal()}
      >
        {item.status === "APPROVED" ? t("prayer.admin.takeDown") : t("prayer.admin.reject")}
      </button>
      <dialog ref={dialog} className="dialog dialog--wide" aria-labelledby={titleId}>
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <h2 id={titleId}>{t("prayer.admin.rejectTitle")}</h2>
          <blockquote className="prayer-item__quote">{item.body}</blockquote>
          {error?.message && !error.fieldErrors.reason && <Alert kind="error">{error.message}</Alert>}
          <TextAreaField
            label={t("prayer.admin.reason")}
            hint={t("prayer.admin.reasonHint")}
            rows={3}
            required
            maxLength={LIMITS.prayerRejectReasonMax}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={error?.fieldErrors.reason}
          />
          <div className="actions">
            <button type="submit" className="button button--danger-solid" disabled={loading}>
              {loading ? t("common.saving") : t("prayer.admin.rejectConfirm")}
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
