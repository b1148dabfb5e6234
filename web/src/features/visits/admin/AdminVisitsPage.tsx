import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import {
  useAdminCreatePersonFromVisit,
  useAdminSetVisitStatus,
  useAdminUpdateVisitRequest,
  useAdminVisitsPage,
  type AdminVisitRowFragment,
} from "./AdminVisitsPage.generated.ts";
import type { VisitStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { telLink } from "../../../components/PostalAddress.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { LIMITS } from "@flock/shared/limits";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { useCalendarDates } from "../../../lib/dates.ts";
import { usePeoplePermissions } from "../../../lib/permissions.ts";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";

const PAGE_SIZE = 20;
const STATUSES: VisitStatus[] = ["NEW", "CONTACTED", "CLOSED"];
/** Where staff move several requests at once (nothing goes back to "new"). */
const BULK_TARGETS = ["CONTACTED", "CLOSED"] as const;
const BADGE: Record<VisitStatus, string> = {
  NEW: "badge--warn",
  CONTACTED: "badge--info",
  CLOSED: "badge--muted",
};

/** Plan-a-visit requests (PRODUCT.md §3), newest first, filtered by follow-up status; one opens beside the list. */
export function AdminVisitsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.visits.title"));
  const { canManage } = usePeoplePermissions();
  const dates = useCalendarDates();
  const { format } = useChurchDateTime();
  const [params, setParams] = useSearchParams();
  // The inbox opens on what still needs someone's attention; "all" is one tab away.
  const raw = params.get("status");
  const status: VisitStatus | null =
    raw === "all" ? null : (STATUSES.find((s) => s.toLowerCase() === raw) ?? "NEW");
  const { data, loading, error, fetchMore, refetch } = useAdminVisitsPage({
    variables: { first: PAGE_SIZE, status },
    fetchPolicy: "cache-and-network",
  });
  const [setVisitStatus] = useAdminSetVisitStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const visits = data?.visitRequests.edges.map((e) => e.node) ?? [];
  // The open request is in the address (?visit=…): a link can point at it, Back closes it. Kept while
  // its status changes and it leaves this tab's rows.
  const openId = params.get("visit");
  const [openVisit, setOpenVisit] = useState<AdminVisitRowFragment | null>(null);
  const listed = visits.find((v) => v.id === openId) ?? null;
  if (listed && listed !== openVisit) setOpenVisit(listed);
  const shown = openId ? (listed ?? (openVisit?.id === openId ? openVisit : null)) : null;

  const withParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(key);
    else next.set(key, value);
    return next;
  };
  const open = (visit: AdminVisitRowFragment) => {
    setOpenVisit(visit);
    setParams(withParam("visit", visit.id));
  };
  const close = () => setParams(withParam("visit", null), { replace: true });

  const columns: Column<AdminVisitRowFragment>[] = [
    {
      key: "name",
      header: t("admin.visits.name"),
      sort: (v) => v.name,
      cell: (v) => (
        <button type="button" className="link-button visit-row__open" onClick={() => open(v)}>
          {v.name}
        </button>
      ),
    },
    {
      key: "planned",
      header: t("admin.visits.plannedDate"),
      sort: (v) => v.plannedDate ?? null,
      cell: (v) =>
        v.plannedDate ? (
          dates.date(v.plannedDate)
        ) : (
          <span className="muted">{t("admin.visits.notGiven")}</span>
        ),
    },
    {
      key: "party",
      header: t("admin.visits.partySize"),
      sort: (v) => v.partySize ?? null,
      cell: (v) => (v.partySize ? t("admin.visits.people", { count: v.partySize }) : "—"),
    },
    {
      key: "received",
      header: t("admin.visits.received"),
      sort: (v) => v.created,
      cell: (v) => <time dateTime={v.created}>{format(v.created)}</time>,
    },
    {
      key: "status",
      header: t("admin.visits.statusLabel"),
      cell: (v) => (
        <>
          <span className={`badge ${BADGE[v.status]}`}>{t(`admin.visits.status.${v.status}`)}</span>
          {v.staffNote && <span className="list-meta">{t("admin.visits.hasNote")}</span>}
        </>
      ),
    },
  ];

  /** Bulk follow-up: each chosen request to `next`; a refusal is reported, the others still move. */
  async function moveTo(rows: AdminVisitRowFragment[], next: VisitStatus) {
    setNotice(null);
    const results = await Promise.allSettled(
      rows.map((v) => setVisitStatus({ variables: { id: v.id, status: next } })),
    );
    const failed = results.filter((r) => r.status === "rejected");
    await refetch();
    setNotice(
      failed.length
        ? {
            kind: "error",
            text: t("admin.visits.bulkFailed", {
              count: failed.length,
              message: handleError((failed[0] as PromiseRejectedResult).reason, i18n).message,
            }),
          }
        : {
            kind: "success",
            text: t("admin.visits.bulkDone", {
              count: rows.length,
              status: t(`admin.visits.status.${next}`),
            }),
          },
    );
  }

  return (
    <div className="page visits-page">
      <h1>{t("admin.visits.title")}</h1>
      <p className="muted">{t("admin.visits.intro")}</p>
      <div className="status-filter" role="group" aria-label={t("admin.visits.filter")}>
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            onClick={() => setParams(s === "NEW" ? {} : { status: s.toLowerCase() }, { replace: true })}
          >
            {t(`admin.visits.status.${s}`)}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={status === null}
          onClick={() => setParams({ status: "all" }, { replace: true })}
        >
          {t("admin.visits.all")}
        </button>
      </div>
      <p className="muted" role="status">
        {data ? t("admin.visits.count", { count: data.visitRequests.totalCount }) : ""}
      </p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.visits.title")}
          rows={visits}
          rowKey={(v) => v.id}
          rowLabel={(v) => v.name}
          columns={columns}
          empty={<p>{status ? t(`admin.visits.empty.${status}`) : t("admin.visits.empty.all")}</p>}
          bulkActions={
            canManage
              ? BULK_TARGETS.filter((s) => s !== status).map((s) => ({
                  label: t(`admin.visits.moveTo.${s}`),
                  run: (rows: AdminVisitRowFragment[]) => moveTo(rows, s),
                }))
              : []
          }
        />
      )}
      {data?.visitRequests.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.visitRequests.pageInfo.endCursor },
              updateQuery: appendEdges("visitRequests"),
            })
          }
        >
          {t("admin.people.showMore")}
        </button>
      )}
      <Drawer open={!!shown} title={shown?.name ?? ""} onClose={close}>
        {shown && <VisitDetails key={shown.id} visit={shown} />}
      </Drawer>
    </div>
  );
}

/** One request in the drawer: what the visitor sent, the staff follow-up, and their person record. */
function VisitDetails({ visit }: { visit: AdminVisitRowFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { canManage } = usePeoplePermissions();
  const { format } = useChurchDateTime();
  const dates = useCalendarDates();
  const [status, setStatus] = useState<VisitStatus>(visit.status);
  const [note, setNote] = useState(visit.staffNote);
  const [error, setError] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [update, { loading }] = useAdminUpdateVisitRequest();
  const dirty = status !== visit.status || note !== visit.staffNote;

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await update({ variables: { id: visit.id, status, staffNote: note.trim() } });
      setNote((n) => n.trim());
      setSaved(true);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <div className="visit-request">
      <p className="visit-request__received">
        <span className={`badge ${BADGE[visit.status]}`}>{t(`admin.visits.status.${visit.status}`)}</span>{" "}
        <span className="muted small">
          {t("admin.visits.received")} <time dateTime={visit.created}>{format(visit.created)}</time>
        </span>
      </p>
      <div className="visit-request__body">
        <div className="visit-request__details">
          <dl className="staff-facts visit-request__facts">
            <dt>{t("admin.visits.email")}</dt>
            <dd>
              <a href={`mailto:${visit.email}`}>{visit.email}</a>
            </dd>
            <dt>{t("admin.visits.phone")}</dt>
            <dd>
              {visit.phone ? (
                <a href={telLink(visit.phone)}>{visit.phone}</a>
              ) : (
                <span className="muted">{t("admin.visits.notGiven")}</span>
              )}
            </dd>
            <dt>{t("admin.visits.plannedDate")}</dt>
            <dd>
              {visit.plannedDate ? (
                dates.date(visit.plannedDate, "full")
              ) : (
                <span className="muted">{t("admin.visits.notGiven")}</span>
              )}
            </dd>
            <dt>{t("admin.visits.partySize")}</dt>
            <dd>
              {visit.partySize ? (
                t("admin.visits.people", { count: visit.partySize })
              ) : (
                <span className="muted">{t("admin.visits.notGiven")}</span>
              )}
            </dd>
          </dl>
          {visit.message && (
            <figure className="visit-request__message">
              <figcaption className="visually-hidden">{t("admin.visits.message")}</figcaption>
              <blockquote>{visit.message}</blockquote>
            </figure>
          )}
          {visit.person ? (
            <p className="visit-request__person">
              <Link to={`/admin/people/${visit.person.id}`}>
                {t("admin.visits.openPerson", {
                  name: `${visit.person.firstName} ${visit.person.lastName}`,
                })}
              </Link>
            </p>
          ) : (
            canManage && <PersonFromVisit visit={visit} />
          )}
        </div>
        {canManage ? (
          <form
            className="form visit-request__form"
            onSubmit={(e) => void save(e)}
            noValidate
            aria-label={t("admin.visits.followUp", { name: visit.name })}
          >
            {error && <Alert kind="error">{error.message}</Alert>}
            <SelectField
              label={t("admin.visits.statusLabel")}
              value={status}
              onChange={(e) => {
                setSaved(false);
                setStatus(e.target.value as VisitStatus);
              }}
              error={error?.fieldErrors.status}
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`admin.visits.status.${s}`)}
                </option>
              ))}
            </SelectField>
            <TextAreaField
              label={t("admin.visits.note")}
              hint={t("admin.visits.noteHint")}
              optionalText={t("common.optional")}
              rows={3}
              maxLength={LIMITS.staffNoteMax}
              value={note}
              onChange={(e) => {
                setSaved(false);
                setNote(e.target.value);
              }}
              error={error?.fieldErrors.staffNote}
            />
            <div className="form__footer">
              <button type="submit" className="button button--small" disabled={loading || !dirty}>
                {loading ? t("common.saving") : t("admin.visits.save")}
              </button>
              {saved && !dirty && (
                <span className="muted small" role="status">
                  {t("admin.people.saved")}
                </span>
              )}
            </div>
          </form>
        ) : (
          visit.staffNote && (
            <p className="visit-request__note">
              <strong>{t("admin.visits.note")}:</strong> {visit.staffNote}
            </p>
          )
        )}
      </div>
    </div>
  );
}

/** "Mary Ann Smith" → Mary Ann / Smith (as the gateway splits it); staff may correct both. */
function splitName(name: string): { firstName: string; lastName: string } {
  const trimmed = name.trim().replace(/\s+/g, " ");
  const at = trimmed.lastIndexOf(" ");
  return at > 0
    ? { firstName: trimmed.slice(0, at), lastName: trimmed.slice(at + 1) }
    : { firstName: trimmed, lastName: "" };
}

/** Add the visitor to the people list (a "visitor" person with private contact rows), linked to this visit. */
function PersonFromVisit({ visit }: { visit: AdminVisitRowFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [names, setNames] = useState(() => splitName(visit.name));
  const [error, setError] = useState<UiError | null>(null);
  const [create, { loading }] = useAdminCreatePersonFromVisit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await create({
        variables: { id: visit.id, firstName: names.firstName.trim(), lastName: names.lastName.trim() },
      });
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <details className="visit-request__add-person">
      <summary>{t("admin.visits.addPerson")}</summary>
      <form
        className="form"
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-label={t("admin.visits.addPersonFor", { name: visit.name })}
      >
        <p className="muted small">{t("admin.visits.addPersonHint")}</p>
        {error && <Alert kind="error">{error.message}</Alert>}
        <TextField
          label={t("admin.people.field.firstName")}
          required
          maxLength={LIMITS.personNameMax}
          value={names.firstName}
          onChange={(e) => setNames((n) => ({ ...n, firstName: e.target.value }))}
          error={error?.fieldErrors.firstName}
        />
        <TextField
          label={t("admin.people.field.lastName")}
          required
          maxLength={LIMITS.personNameMax}
          value={names.lastName}
          onChange={(e) => setNames((n) => ({ ...n, lastName: e.target.value }))}
          error={error?.fieldErrors.lastName}
        />
        <div className="form__footer">
          <button type="submit" className="button button--small" disabled={loading}>
            {loading ? t("common.saving") : t("admin.visits.createPerson")}
          </button>
        </div>
      </form>
    </details>
  );
}
