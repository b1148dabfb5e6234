import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import {
  AdminMediaPageDocument,
  useAdminMediaPage,
  useDeleteMedia,
  useUpdateMedia,
} from "./AdminMediaPage.generated.ts";
import type { AdminMediaItemFragment } from "../../../lib/media.generated.ts";
import type { MediaKind } from "../../../gql/types.ts";
import { useI18n, type I18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { formatWhen } from "../../../i18n/format.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { DOCUMENT_TYPES, formatBytes, IMAGE_TYPES, uploadMedia } from "../../../lib/media.ts";
import "../../../styles/staff.css";
import "./admin-media.css";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { LIMITS } from "@flock/shared/limits";

const KINDS: MediaKind[] = ["IMAGE", "DOCUMENT"];
/** A table shows more rows at once than the old card grid did (the server allows up to 100). */
const PAGE_SIZE = 50;

type Item = AdminMediaItemFragment;

interface Upload {
  key: number;
  name: string;
  percent: number;
  error?: string;
}

/** What the last deletion did, shown above the table (the rows it removed are gone): how many went, which did not. */
interface Outcome {
  success?: string;
  failed?: { heading: string; files: { name: string; reason: string }[] };
}

let nextUpload = 1;

/** Why a file could not be deleted, in the reader's language (the server's "in use" sentence is English). */
function deleteFailure(caught: unknown, i18n: I18n): string {
  if (CombinedGraphQLErrors.is(caught) && caught.errors[0]?.extensions?.code === "CONFLICT") {
    return i18n.t("admin.content.media.inUse");
  }
  return handleError(caught, i18n).message;
}

/** /admin/media: every upload as a table (sortable, several deleted at once), uploads with progress. */
export function AdminMediaPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.content.media.title"));
  const { format, timeZone } = useChurchDateTime();
  const client = useApolloClient();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const [kind, setKind] = useState<MediaKind | "">("");
  const variables = { first: PAGE_SIZE, search: query || null, kind: kind || null };
  const { data, loading, error, fetchMore } = useAdminMediaPage({
    variables,
    fetchPolicy: "cache-and-network",
  });
  // The list as it is asked for now (a search typed while files upload), for the read after uploads.
  const current = useRef(variables);
  current.current = variables;
  const [deleteMedia] = useDeleteMedia();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [editing, setEditing] = useState<Item | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** A row's own confirmation ("Link copied."), beside the buttons that caused it. */
  const [note, setNote] = useState<{ id: string; text: string } | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const items = data?.mediaLibrary.edges.map((e) => e.node) ?? [];
  const uploading = uploads.some((u) => !u.error);

  // A refusal is shown above the table: brought into view, or a row deleted far down the list would
  // seem to have done nothing.
  useEffect(() => {
    if (outcome?.failed) outcomeRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [outcome]);

  async function uploadAll(files: File[]) {
    const batch = files.map((file) => ({
      file,
      upload: { key: nextUpload++, name: file.name, percent: 0 } as Upload,
    }));
    setUploads((current) => [...current.filter((u) => u.error), ...batch.map((b) => b.upload)]);
    const patch = (key: number, change: Partial<Upload>) =>
      setUploads((current) => current.map((u) => (u.key === key ? { ...u, ...change } : u)));
    // One at a time: each gets the whole connection, and the progress bars fill in order.
    for (const { file, upload } of batch) {
      try {
        await uploadMedia(file, (percent) => patch(upload.key, { percent }), i18n, true);
        setUploads((current) => current.filter((u) => u.key !== upload.key));
      } catch (caught) {
        patch(upload.key, { error: (caught as UiError).message ?? t("error.UNKNOWN") });
      }
    }
    // Read afresh, never joined to a search's read still on its way (sent before the last file landed,
    // it would answer without it): the cache then shows every upload whatever was typed meanwhile.
    await client
      .query({
        query: AdminMediaPageDocument,
        variables: current.current,
        fetchPolicy: "network-only",
        context: { queryDeduplication: false },
      })
      .catch(() => undefined);
  }

  /**
   * Deletes the files one by one (there is no bulk mutation) and says how many went and which did not,
   * with the server's reason: a file still used by a post or page is refused. The caller has confirmed.
   */
  async function deleteFiles(rows: Item[]) {
    setOutcome(null);
    setNote(null);
    setDeleting(true);
    let deleted = 0;
    const files: { name: string; reason: string }[] = [];
    try {
      for (const row of rows) {
        try {
          await deleteMedia({ variables: { id: row.id } });
          deleted++;
        } catch (caught) {
          files.push({ name: row.filename, reason: deleteFailure(caught, i18n) });
        }
      }
      // Also after a refusal: its "Used in" list may be out of date.
      await client.refetchQueries({ include: ["AdminMediaPage"] }).catch(() => undefined);
    } finally {
      setDeleting(false);
    }
    setOutcome({
      success: deleted ? t("admin.content.media.deleted", { count: deleted }) : undefined,
      failed: files.length
        ? { heading: t("admin.content.media.notDeleted", { count: files.length }), files }
        : undefined,
    });
  }

  /** The bulk "Delete": one question for all of them, naming how many. */
  async function deleteChosen(rows: Item[]) {
    if (!window.confirm(t("admin.content.media.confirmDeleteMany", { count: rows.length }))) return;
    await deleteFiles(rows);
  }

  async function copyUrl(item: Item) {
    const url = new URL(item.url, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      setNote({ id: item.id, text: t("admin.content.media.copied") });
    } catch {
      setNote({ id: item.id, text: url }); // no clipboard (permission, old browser): the link to copy by hand
    }
  }

  // admin-media.css lays a row out on phones by these columns' places: keep the order in step with it.
  const columns: Column<Item>[] = [
    {
      key: "name",
      header: t("admin.content.media.col.file"),
      sort: (item) => item.filename,
      cell: (item) => (
        <div className="media-file">
          {item.kind === "IMAGE" ? (
            // Decorative: the file name beside it names the row.
            <img className="media-file__thumb" src={item.thumbnail} alt="" loading="lazy" />
          ) : (
            <span className="media-file__thumb media-file__thumb--doc" aria-hidden="true">
              {extensionOf(item)}
            </span>
          )}
          <span className="media-file__text">
            <a className="media-file__name" href={item.url} target="_blank" rel="noopener">
              {item.filename}
            </a>
            {item.caption && <span className="list-meta">{item.caption}</span>}
            {/* Where it is used, beside the name: a column of its own left the actions no room at 1280 px. */}
            <span className="list-meta">
              {t("admin.content.media.usedIn")}{" "}
              {item.usedIn.length === 0
                ? t("admin.content.media.unused")
                : item.usedIn.map((u, index) => (
                    <span key={`${u.kind}:${u.id}`}>
                      {index > 0 && ", "}
                      <Link to={u.kind === "POST" ? `/admin/news/${u.id}` : `/admin/pages/${u.id}`}>
                        {u.title}
                      </Link>{" "}
                      (
                      {u.kind === "POST"
                        ? t("admin.content.media.kindPost")
                        : t("admin.content.media.kindPage")}
                      )
                    </span>
                  ))}
            </span>
          </span>
        </div>
      ),
    },
    {
      key: "kind",
      header: t("admin.content.media.col.kind"),
      sort: (item) => t(`admin.content.media.type.${item.kind}`),
      cell: (item) => (
        <>
          {t(`admin.content.media.type.${item.kind}`)}
          <span className="list-meta media-nowrap">
            {item.width && item.height ? `${item.width} × ${item.height}` : extensionOf(item)}
          </span>
        </>
      ),
    },
    {
      key: "size",
      header: t("admin.content.media.col.size"),
      sort: (item) => item.size,
      cell: (item) => <span className="media-nowrap">{formatBytes(item.size, locale)}</span>,
    },
    {
      key: "alt",
      header: t("admin.content.media.alt"),
      cell: (item) =>
        item.kind !== "IMAGE" ? (
          <span className="list-meta">{t("admin.content.media.altNotNeeded")}</span>
        ) : item.alt.trim() ? (
          // Long texts are cut to three lines here: the whole of it on hover, and in the Edit dialog.
          <span className="media-alt" title={item.alt}>
            {item.alt}
          </span>
        ) : (
          <span className="media-alt media-alt--missing">
            <span className="badge badge--warn">{t("admin.content.images.needsAlt")}</span>
            {item.can.edit && (
              <button
                type="button"
                className="link-button"
                onClick={() => setEditing(item)}
                aria-label={t("admin.content.images.addAltFor", { name: item.filename })}
              >
                {t("admin.content.images.addAlt")}
              </button>
            )}
          </span>
        ),
    },
    {
      key: "created",
      header: t("admin.content.media.col.uploaded"),
      sort: (item) => Date.parse(item.created),
      // The date is enough in the row; the time is there on hover.
      cell: (item) => (
        <time className="media-nowrap" dateTime={item.created} title={format(item.created)}>
          {formatWhen(item.created, locale, { time: false, timeZone })}
        </time>
      ),
    },
    {
      key: "actions",
      header: t("admin.content.media.col.actions"),
      cell: (item) => (
        <div className="table__actions media-actions">
          {item.can.edit && (
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => setEditing(item)}
              aria-label={t("admin.content.media.editFor", { name: item.filename })}
            >
              {t("admin.content.media.edit")}
            </button>
          )}
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => void copyUrl(item)}
            aria-label={t("admin.content.media.copyUrlFor", { name: item.filename })}
          >
            {t("admin.content.media.copyUrl")}
          </button>
          {/* Writers delete their own uploads; anyone's only with manageMedia (Media.can). */}
          {item.can.delete && (
            <button
              type="button"
              className="button button--danger-ghost button--small"
              disabled={deleting}
              onClick={() => {
                if (window.confirm(t("admin.content.media.confirmDelete", { name: item.filename })))
                  void deleteFiles([item]);
              }}
              aria-label={t("admin.content.media.deleteFor", { name: item.filename })}
            >
              {t("admin.content.action.delete")}
            </button>
          )}
          {note?.id === item.id && (
            <p className="small media-note" role="status">
              {note.text}
            </p>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.content.media.title")}</h1>
        <label className={`button file-button${uploading ? " button--busy" : ""}`}>
          {t("admin.content.media.upload")}
          <input
            type="file"
            multiple
            accept={[...IMAGE_TYPES, ...DOCUMENT_TYPES].join(",")}
            className="visually-hidden"
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = "";
              if (files.length) void uploadAll(files);
            }}
          />
        </label>
      </div>
      <p className="muted small">
        {t("admin.content.media.limits")} {t("admin.content.media.altNote")}
      </p>
      {uploads.length > 0 && (
        <ul className="uploads" aria-label={t("admin.content.media.uploads")}>
          {uploads.map((u) => (
            <li key={u.key} className="uploads__item">
              <span className="uploads__name">{u.name}</span>
              {u.error ? (
                <span className="field__error">
                  {u.error}{" "}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setUploads((current) => current.filter((x) => x.key !== u.key))}
                  >
                    {t("common.close")}
                  </button>
                </span>
              ) : (
                <>
                  <progress
                    max={100}
                    value={u.percent}
                    aria-label={t("admin.content.media.uploadingFile", { name: u.name, percent: u.percent })}
                  />
                  <span aria-live="polite">{u.percent}%</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">{t("admin.content.media.search")}</span>
          <input
            type="search"
            placeholder={t("admin.content.media.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label className="kind-filter">
          <span className="visually-hidden">{t("admin.content.media.kind")}</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as MediaKind | "")}>
            <option value="">{t("admin.content.media.kind.ALL")}</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.content.media.kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
        {data && (
          <span className="muted">
            {t("admin.content.media.count", { count: data.mediaLibrary.totalCount })}
          </span>
        )}
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      <div ref={outcomeRef} className="media-outcome">
        {outcome?.success && <Alert kind="success">{outcome.success}</Alert>}
        {outcome?.failed && (
          <Alert kind="error">
            {outcome.failed.heading}
            <ul className="media-outcome__files">
              {outcome.failed.files.map((f, index) => (
                <li key={index}>
                  <strong>{f.name}</strong> {f.reason}
                </li>
              ))}
            </ul>
          </Alert>
        )}
      </div>
      {loading && !data ? (
        <Loading />
      ) : (
        <div className="media-table">
          <DataTable
            caption={t("admin.content.media.title")}
            rows={items}
            rowKey={(item) => item.id}
            rowLabel={(item) => item.filename}
            columns={columns}
            // The server's order (newest first), so the header says how the list is sorted.
            initialSort={{ key: "created", direction: "descending" }}
            // Choosing rows only when some can be deleted (a writer deletes their own uploads, the media
            // managers anyone's: item.can says which). A chosen file the server refuses is reported with the others.
            bulkActions={
              items.some((item) => item.can.delete)
                ? [{ label: t("admin.content.action.delete"), run: deleteChosen }]
                : []
            }
            empty={<p>{query || kind ? t("admin.content.media.noMatch") : t("admin.content.media.empty")}</p>}
          />
        </div>
      )}
      {data?.mediaLibrary.pageInfo.hasNextPage && (
        <>
          {/* Sorting a column orders the files shown so far; more come from the server newest first. */}
          <p className="muted small">
            {t("admin.content.media.shown", { shown: items.length, count: data.mediaLibrary.totalCount })}
          </p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() =>
              void fetchMore({
                variables: { after: data.mediaLibrary.pageInfo.endCursor },
                updateQuery: appendEdges("mediaLibrary"),
              })
            }
          >
            {t("admin.content.showMore")}
          </button>
        </>
      )}
      <MediaDetailsDialog
        item={editing}
        onDone={(saved) => {
          setEditing(null);
          if (saved) setNote({ id: saved.id, text: t("admin.content.media.saved") });
        }}
      />
    </div>
  );
}

/** "PDF", "MP3" …: what stands in for a thumbnail when the file is not an image. */
function extensionOf(item: Item): string {
  const dot = item.filename.lastIndexOf(".");
  return dot > 0
    ? item.filename.slice(dot + 1).toUpperCase()
    : (item.mimeType.split("/")[1] ?? "").toUpperCase();
}

/**
 * A file's alt text (images) and caption, in a dialog: a table row has no room for the fields, and one
 * dialog serves both the row's "Edit" and the "Add alt text" of an image that needs it.
 */
function MediaDetailsDialog({ item, onDone }: { item: Item | null; onDone(saved: Item | null): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const dialog = useRef<HTMLDialogElement>(null);
  const [alt, setAlt] = useState("");
  const [caption, setCaption] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [updateMedia, { loading: saving }] = useUpdateMedia();

  useEffect(() => {
    if (!item) return;
    setAlt(item.alt);
    setCaption(item.caption);
    setError(null);
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [item]);

  function close(saved: Item | null) {
    dialog.current?.close();
    onDone(saved);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!item) return;
    setError(null);
    try {
      // The cache updates the row from the answer (same id), so the table shows the new text at once.
      await updateMedia({ variables: { id: item.id, input: { alt: alt.trim(), caption: caption.trim() } } });
      close(item);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  const isImage = item?.kind === "IMAGE";
  return (
    <dialog
      ref={dialog}
      className="dialog alt-dialog"
      aria-labelledby="media-details-title"
      onCancel={(event) => {
        event.preventDefault();
        close(null);
      }}
    >
      {item && (
        <form className="form" onSubmit={(e) => void save(e)} noValidate>
          <h2 id="media-details-title">{t("admin.content.media.detailsTitle")}</h2>
          {isImage && <img src={item.thumbnail} alt="" className="alt-dialog__image" />}
          <p className="muted small alt-dialog__file">{item.filename}</p>
          {error && !Object.keys(error.fieldErrors).length && <Alert kind="error">{error.message}</Alert>}
          {isImage && (
            <TextAreaField
              label={t("admin.content.media.alt")}
              hint={t("admin.content.alt.hint")}
              rows={3}
              maxLength={LIMITS.altMax}
              value={alt}
              onChange={(e) => setAlt(e.target.value)}
              error={error?.fieldErrors.alt}
            />
          )}
          <TextField
            label={t("admin.content.media.caption")}
            optionalText={t("common.optional")}
            maxLength={LIMITS.captionMax}
            value={caption}
            onChange={(e) => setCaption(e.target.value)}
            error={error?.fieldErrors.caption}
          />
          <div className="actions">
            <button type="submit" className="button" disabled={saving}>
              {saving ? t("common.saving") : t("common.save")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => close(null)}>
              {t("common.cancel")}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
