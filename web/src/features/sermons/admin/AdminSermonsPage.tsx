import { useState, type FormEvent } from "react";
import { LIMITS } from "@flock/shared/limits";
import { Link, useNavigate } from "react-router";
import {
  useAdminSermonsPage,
  useCreateSermon,
  useCreateSermonsFromUploads,
} from "./AdminSermons.generated.ts";
import type { SermonStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { TextField } from "../../../components/Field.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { AudioUploadField } from "./AudioUploadField.tsx";
import { formatClock } from "../clock.ts";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import "../../../styles/staff.css";
import "./sermons-admin.css";

/** /admin/sermons: every sermon (drafts too), a new draft, and bulk upload (one draft per file). */
export function AdminSermonsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.sermons.title"));
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<SermonStatus | "">("");
  const query = useDebounced(search.trim(), 300);
  const { data, loading, error, fetchMore, refetch } = useAdminSermonsPage({
    variables: { search: query || null, status: status || null },
    fetchPolicy: "cache-and-network",
  });
  const [createSermon, { loading: creating }] = useCreateSermon();
  const [createFromUploads] = useCreateSermonsFromUploads();
  const [notice, setNotice] = useState<Notice | null>(null);
  const sermons = data?.sermons.edges.map((e) => e.node) ?? [];
  type Row = (typeof sermons)[number];
  // The server's order (newest preached first); a header sorts what is loaded.
  const columns: Column<Row>[] = [
    {
      key: "title",
      header: t("admin.sermons.field.title"),
      sort: (s) => s.title,
      cell: (s) => (
        <>
          <Link to={`/admin/sermons/${s.id}`}>{s.title}</Link>
          <span className="list-meta">{s.scriptureText}</span>
        </>
      ),
    },
    {
      key: "preachedOn",
      header: t("admin.sermons.field.preachedOn"),
      sort: (s) => s.preachedOn ?? "",
      cell: (s) => (s.preachedOn ? formatCalendarDate(s.preachedOn.slice(0, 10), locale) : "—"),
    },
    {
      key: "series",
      header: t("admin.sermons.field.series"),
      sort: (s) => s.series?.title ?? "",
      cell: (s) => s.series?.title ?? "—",
    },
    {
      key: "audio",
      header: t("admin.sermons.audio.title"),
      sort: (s) => s.audio?.durationSeconds ?? null,
      cell: (s) =>
        s.audio ? (
          s.audio.durationSeconds ? (
            formatClock(s.audio.durationSeconds)
          ) : (
            "✓"
          )
        ) : (
          <span className="badge badge--warn">{t("admin.sermons.noAudio")}</span>
        ),
    },
    {
      key: "status",
      header: t("admin.sermons.statusFilter"),
      sort: (s) => s.status,
      cell: (s) => (
        <span className={`badge ${s.status === "PUBLISHED" ? "badge--ok" : "badge--neutral"}`}>
          {t(`admin.sermons.status.${s.status}`)}
        </span>
      ),
    },
  ];

  // A sermon is made once it has a title: "New sermon" asks for one first, so abandoned "Untitled"
  // drafts do not pile up, and its address follows the title from the start.
  const [newTitle, setNewTitle] = useState<string | null>(null);
  const [titleError, setTitleError] = useState<string | undefined>();
  async function newSermon(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    setTitleError(undefined);
    try {
      const result = await createSermon({ variables: { input: { title: newTitle ?? "" } } });
      if (result.data) void navigate(`/admin/sermons/${result.data.createSermon.id}`);
    } catch (caught) {
      const ui = handleError(caught, i18n);
      if (ui.fieldErrors.title) setTitleError(ui.fieldErrors.title);
      else setNotice({ kind: "error", text: ui.message });
    }
  }

  async function onBulkUploaded(uploadId: string) {
    try {
      await createFromUploads({ variables: { uploadIds: [uploadId] } });
      await refetch();
    } catch (caught) {
      const ui = handleError(caught, i18n);
      throw new Error(
        ui.code === "UNSUPPORTED_FILE_TYPE"
          ? t("admin.sermons.audio.wrongType")
          : ui.code === "PAYLOAD_TOO_LARGE"
            ? t("admin.sermons.audio.tooLarge")
            : ui.message,
      );
    }
  }

  return (
    <div>
      <div className="section-heading">
        <h1>{t("admin.sermons.title")}</h1>
        <p className="actions">
          <Link to="/admin/sermons/library" className="button button--ghost">
            {t("admin.sermons.library")}
          </Link>
          <button
            type="button"
            className="button"
            aria-expanded={newTitle !== null}
            onClick={() => setNewTitle((title) => (title === null ? "" : null))}
          >
            {t("admin.sermons.new")}
          </button>
        </p>
      </div>
      {newTitle !== null && (
        <form className="card sermon-new" onSubmit={(e) => void newSermon(e)} noValidate>
          <TextField
            label={t("admin.sermons.field.title")}
            value={newTitle}
            onChange={(e) => setNewTitle(e.target.value)}
            error={titleError}
            maxLength={LIMITS.nameMax}
            required
            autoFocus
          />
          <p className="actions">
            <button type="submit" className="button" disabled={creating || !newTitle.trim()}>
              {t("admin.sermons.create")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setNewTitle(null)}>
              {t("admin.sermons.cancel")}
            </button>
          </p>
        </form>
      )}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <details className="card sermon-bulk">
        <summary>{t("admin.sermons.bulk.title")}</summary>
        <p className="small">{t("admin.sermons.bulk.intro")}</p>
        <AudioUploadField label={t("admin.sermons.bulk.choose")} multiple onUploaded={onBulkUploaded} />
      </details>
      <div className="toolbar">
        <div className="field">
          <label htmlFor="admin-sermon-search">{t("admin.sermons.search")}</label>
          <input
            id="admin-sermon-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="admin-sermon-status">{t("admin.sermons.statusFilter")}</label>
          <select
            id="admin-sermon-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as SermonStatus | "")}
          >
            <option value="">{t("admin.sermons.status.ALL")}</option>
            <option value="DRAFT">{t("admin.sermons.status.DRAFT")}</option>
            <option value="PUBLISHED">{t("admin.sermons.status.PUBLISHED")}</option>
          </select>
        </div>
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.sermons.title")}
          rows={sermons}
          rowKey={(s) => s.id}
          rowLabel={(s) => s.title}
          columns={columns}
          empty={<p>{query || status ? t("admin.sermons.noMatch") : t("admin.sermons.empty")}</p>}
        />
      )}
      {data?.sermons.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.sermons.pageInfo.endCursor },
              updateQuery: appendEdges("sermons"),
            })
          }
        >
          {t("admin.sermons.more")}
        </button>
      )}
    </div>
  );
}
