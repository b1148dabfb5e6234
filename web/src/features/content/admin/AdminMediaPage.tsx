import { useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import { useAdminMediaPage, useDeleteMedia, useUpdateMedia } from "./AdminMediaPage.generated.ts";
import type { AdminMediaItemFragment } from "../../../lib/media.generated.ts";
import type { MediaKind } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { DOCUMENT_TYPES, formatBytes, IMAGE_TYPES, uploadMedia } from "../../../lib/media.ts";
import "../../../styles/staff.css";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { LIMITS } from "@flock/shared/limits";

const KINDS: MediaKind[] = ["IMAGE", "DOCUMENT"];

interface Upload {
  key: number;
  name: string;
  percent: number;
  error?: string;
}

let nextUpload = 1;

export function AdminMediaPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.content.media.title"));
  const client = useApolloClient();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const [kind, setKind] = useState<MediaKind | "">("");
  const { data, loading, error, fetchMore } = useAdminMediaPage({
    variables: { first: 24, search: query || null, kind: kind || null },
    fetchPolicy: "cache-and-network",
  });
  const [uploads, setUploads] = useState<Upload[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const items = data?.mediaLibrary.edges.map((e) => e.node) ?? [];
  const uploading = uploads.some((u) => !u.error);

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
    await client.refetchQueries({ include: ["AdminMediaPage"] });
  }

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.content.media.title")}</h1>
        <label className={`button file-button${uploading ? " button--busy" : ""}`}>
          {t("admin.content.media.upload")}
          <input
            ref={fileInput}
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
      {loading && !data ? (
        <Loading />
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{query || kind ? t("admin.content.media.noMatch") : t("admin.content.media.empty")}</p>
        </div>
      ) : (
        <ul className="media-grid">
          {items.map((item) => (
            <MediaCard key={item.id} item={item} />
          ))}
        </ul>
      )}
      {data?.mediaLibrary.pageInfo.hasNextPage && (
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
      )}
    </div>
  );
}

function MediaCard({ item }: { item: AdminMediaItemFragment }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { format } = useChurchDateTime();
  const client = useApolloClient();
  const [alt, setAlt] = useState(item.alt);
  const [caption, setCaption] = useState(item.caption);
  const [error, setError] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [updateMedia, { loading: saving }] = useUpdateMedia();
  const [deleteMedia, { loading: deleting }] = useDeleteMedia();
  const isImage = item.kind === "IMAGE";
  const needsAlt = isImage && !item.alt.trim();
  const dirty = alt !== item.alt || caption !== item.caption;
  const name = item.alt || item.filename;

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      await updateMedia({ variables: { id: item.id, input: { alt: alt.trim(), caption: caption.trim() } } });
      setNotice(t("admin.content.media.saved"));
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  async function remove() {
    if (!window.confirm(t("admin.content.media.confirmDelete", { name: item.filename }))) return;
    setError(null);
    setNotice(null);
    try {
      await deleteMedia({ variables: { id: item.id } });
      await client.refetchQueries({ include: ["AdminMediaPage"] });
    } catch (caught) {
      // In use: say where, in the reader's language (the server's sentence is English).
      if (CombinedGraphQLErrors.is(caught) && caught.errors[0]?.extensions?.code === "CONFLICT") {
        setError({ code: "CONFLICT", message: t("admin.content.media.inUse"), fieldErrors: {} });
        await client.refetchQueries({ include: ["AdminMediaPage"] }).catch(() => undefined); // the "Used in" list, fresh
      } else {
        setError(handleError(caught, i18n));
      }
    }
  }

  async function copyUrl() {
    const url = new URL(item.url, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      setNotice(t("admin.content.media.copied"));
    } catch {
      setNotice(url);
    }
  }

  return (
    <li className={`card media-card${needsAlt ? " media-card--needs-alt" : ""}`}>
      <div className="media-card__preview">
        {isImage ? (
          <img src={item.thumbnail} alt="" loading="lazy" />
        ) : (
          <span className="media-card__doc" aria-hidden="true">
            PDF
          </span>
        )}
      </div>
      <div className="media-card__body">
        <p className="media-card__name">
          <a href={item.url} target="_blank" rel="noopener">
            {item.filename}
          </a>
        </p>
        <p className="muted small">
          {formatBytes(item.size, locale)}
          {item.width && item.height ? ` · ${item.width}×${item.height}` : ""} ·{" "}
          <time dateTime={item.created}>{format(item.created)}</time>
        </p>
        {needsAlt && <span className="badge badge--warn">{t("admin.content.images.needsAlt")}</span>}
        <form className="form media-card__form" onSubmit={(e) => void save(e)} noValidate>
          {isImage && (
            <TextAreaField
              label={t("admin.content.media.alt")}
              rows={2}
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
            <button
              type="submit"
              className="button button--small"
              disabled={saving || !dirty}
              aria-label={t("admin.content.media.saveFor", { name })}
            >
              {saving ? t("common.saving") : t("common.save")}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => void copyUrl()}
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
                onClick={() => void remove()}
                aria-label={t("admin.content.media.deleteFor", { name: item.filename })}
              >
                {t("admin.content.action.delete")}
              </button>
            )}
          </div>
        </form>
        {notice && (
          <p className="small media-card__notice" role="status">
            {notice}
          </p>
        )}
        {error && !Object.keys(error.fieldErrors).length && <Alert kind="error">{error.message}</Alert>}
        <div className="media-card__used">
          <p className="small">
            <strong>{t("admin.content.media.usedIn")}</strong>{" "}
            {item.usedIn.length === 0 && <span className="muted">{t("admin.content.media.unused")}</span>}
          </p>
          {item.usedIn.length > 0 && (
            <ul className="small">
              {item.usedIn.map((u) => (
                <li key={`${u.kind}:${u.id}`}>
                  <Link to={u.kind === "POST" ? `/admin/news/${u.id}` : `/admin/pages/${u.id}`}>
                    {u.title}
                  </Link>{" "}
                  <span className="muted">
                    (
                    {u.kind === "POST"
                      ? t("admin.content.media.kindPost")
                      : t("admin.content.media.kindPage")}
                    )
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </li>
  );
}
