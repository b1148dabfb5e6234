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
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
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
/** How much of a request names its row's checkbox ("Choose Anonymous: Please pray for…"). */
const LABEL_CHARS = 60;
/** The element that stands for a row when focus moves on after a decision (see RequestCell). */
const ROW_FOCUS = ".prayer-row__request";

type Item = AdminPrayerItemFragment;

/** /admin/prayer: the moderation queue (PRODUCT.md §3, §5), oldest first, by status, one table row per request. */
export function AdminPrayerPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { format } = useChurchDateTime();
  usePageTitle(t("prayer.admin.title"));
  const [params, setParams] = useSearchParams();
  const status: PrayerStatus = STATUSES.find((s) => s.toLowerCase() === params.get("status")) ?? "PENDING";
  const { data, loading, error, fetchMore, refetch } = useAdminPrayerQueue({
    variables: { first: PAGE_SIZE, status },
    fetchPolicy: "cache-and-network",
    pollInterval: POLL_MS,
  });
  // What the last decision did (green) and what it could not do (red), both in the status line.
  const [notice, setNotice] = useState("");
  const [problem, setProblem] = useState("");
  const [bulkApproving, setBulkApproving] = useState(false);
  const [approveOne] = useApprovePrayerRequest();
  const heading = useRef<HTMLHeadingElement>(null);
  const table = useRef<HTMLDivElement>(null);
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
  /** The rows' focus targets in the order shown (the table may be sorted differently from `items`). */
  const rowTargets = () => [...(table.current?.querySelectorAll<HTMLElement>(ROW_FOCUS) ?? [])];

  /**
   * After a decision the decided rows leave this tab: refetch, then put focus on the row now where
   * the `index`th was (the next one to decide), or on the heading when none is left.
   */
  async function moveOn(index: number) {
    await refetch();
    requestAnimationFrame(() => {
      const targets = rowTargets();
      (targets[Math.min(index, targets.length - 1)] ?? heading.current)?.focus();
    });
  }

  /** One request approved or rejected from its row: say so, and go on with the next one. */
  function settled(id: string, message: string) {
    const index = rowTargets().findIndex((target) => target.dataset.id === id);
    setNotice(message);
    setProblem("");
    void moveOn(Math.max(index, 0));
  }

  /**
   * Bulk "Approve": the chosen rows one at a time, with the same mutation as a row's button. A failure
   * (another moderator rejected it meanwhile, the network) does not stop the rest; the status line
   * counts both, with the first failure's reason.
   */
  async function approveChosen(rows: Item[]) {
    setBulkApproving(true);
    setNotice("");
    setProblem("");
    const failures: string[] = [];
    for (const row of rows) {
      try {
        await approveOne({ variables: { id: row.id } });
      } catch (caught) {
        failures.push(handleError(caught, i18n).message);
      }
    }
    setBulkApproving(false);
    const approved = rows.length - failures.length;
    if (approved) setNotice(t("prayer.admin.bulkApproved", { count: approved }));
    if (failures.length)
      setProblem(t("prayer.admin.bulkFailed", { count: failures.length, reason: failures[0]! }));
    // The bulk bar the focus was on goes away with the choice: continue at the top of the queue.
    await moveOn(0);
  }

  const shownName = (item: Item) => item.authorName ?? t("prayer.anonymous");
  const columns: Column<Item>[] = [
    {
      key: "request",
      header: t("prayer.admin.col.request"),
      cell: (item) => <RequestCell item={item} />,
    },
    {
      key: "from",
      header: t("prayer.admin.col.from"),
      sort: shownName,
      cell: (item) => <FromCell item={item} name={shownName(item)} />,
    },
    {
      key: "received",
      header: t("prayer.admin.col.received"),
      sort: (item) => item.created,
      cell: (item) => <time dateTime={item.created}>{format(item.created)}</time>,
    },
    {
      key: "actions",
      header: t("prayer.admin.col.actions"),
      cell: (item) => (
        <ActionsCell item={item} busy={bulkApproving} onSettled={(message) => settled(item.id, message)} />
      ),
    },
  ];

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
              setProblem("");
              setParams(s === "PENDING" ? {} : { status: s.toLowerCase() }, { replace: true });
            }}
          >
            {t(`prayer.admin.tab.${s}`)}
          </button>
        ))}
      </div>
      <p className="muted" role="status">
        {notice ? <strong className="admin-prayer__notice">{notice} </strong> : null}
        {problem ? <strong className="admin-prayer__problem">{problem} </strong> : null}
        {data ? t("prayer.admin.count", { count: data.prayerQueue.totalCount }) : ""}
      </p>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <div ref={table} className="prayer-table">
          {/* Keyed by tab: a choice or a sort made on one tab does not carry over to the next. */}
          <DataTable
            key={status}
            caption={t(`prayer.admin.caption.${status}`)}
            rows={items}
            rowKey={(item) => item.id}
            rowLabel={(item) => `${shownName(item)}: ${excerpt(item.body)}`}
            columns={columns}
            // The queue comes oldest first (first come, first served); "Received" says so and can flip it.
            initialSort={{ key: "received", direction: "ascending" }}
            bulkActions={
              status === "PENDING" ? [{ label: t("prayer.admin.approve"), run: approveChosen }] : []
            }
            empty={<p>{t(`prayer.admin.empty.${status}`)}</p>}
          />
        </div>
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

/** A request's first words, on one line, for its checkbox's name. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1).trimEnd()}…` : line;
}

/**
 * The request: who may see it and what it has gathered (badges), its whole text (moderators must read
 * it all to decide) with "Fix typos", and why it was rejected. Focusable from script only: after a
 * decision focus lands here, so the next request is read out first.
 */
function RequestCell({ item }: { item: Item }) {
  const { t } = useI18n();
  return (
    <div className="prayer-row__request" tabIndex={-1} data-id={item.id}>
      <p className="staff-badges prayer-row__badges">
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
      <EditableBody item={item} />
      {item.status === "REJECTED" && item.rejectReason && (
        <p className="small prayer-row__reason">
          <strong>{t("prayer.mine.reason")}</strong> {item.rejectReason}
        </p>
      )}
    </div>
  );
}

/**
 * Who asked: the name the wall shows ("Anonymous" when hidden), then, for pastoral staff, the real
 * requester, linked to their person record when the moderator may open it, and their email.
 */
function FromCell({ item, name }: { item: Item; name: string }) {
  const { t } = useI18n();
  const { canView } = usePeoplePermissions();
  const requester = item.requester;
  return (
    <>
      <span className="prayer-row__name">{name}</span>
      {requester && (
        <span className="list-meta prayer-row__requester">
          {t("prayer.admin.requester")}{" "}
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
        </span>
      )}
    </>
  );
}

/** Approve, and Reject (or Take down once approved), with the row's own error. */
function ActionsCell({
  item,
  busy,
  onSettled,
}: {
  item: Item;
  busy: boolean;
  onSettled(message: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
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

  return (
    <>
      <div className="table__actions prayer-row__actions">
        {item.status !== "APPROVED" && (
          <button
            type="button"
            className="button button--small"
            // While the bulk bar approves the chosen rows, one more click here would approve twice.
            disabled={approving || busy}
            onClick={() => void doApprove()}
          >
            {approving ? t("common.saving") : t("prayer.admin.approve")}
          </button>
        )}
        {item.status !== "REJECTED" && <RejectButton item={item} disabled={busy} onSettled={onSettled} />}
      </div>
      {error && <Alert kind="error">{error.message}</Alert>}
    </>
  );
}

/** The request's text, with "Fix typos" (the moderator's draft survives a failed save). */
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
      <div className="prayer-row__body">
        <blockquote>{item.body}</blockquote>
        <p className="prayer-row__edit">
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
      className="form prayer-row__form"
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
  disabled,
  onSettled,
}: {
  item: AdminPrayerItemFragment;
  disabled: boolean;
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
        disabled={disabled}
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
          <blockquote className="prayer-row__quote">{item.body}</blockquote>
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
