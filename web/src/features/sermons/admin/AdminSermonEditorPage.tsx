import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import {
  useAdminSermonEditor,
  useAttachSermonAudio,
  useDeleteSermon,
  usePublishSermon,
  useRemoveSermonAttachment,
  useScripturePreview,
  useUnpublishSermon,
  useUpdateSermon,
  AddSermonAttachmentDocument,
  type AddSermonAttachmentMutation,
  type AdminSermonFragment,
} from "./AdminSermons.generated.ts";
import { useI18n, type I18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { uploadMedia } from "../../../lib/media.ts";
import { AudioUploadField } from "./AudioUploadField.tsx";
import { formatClock } from "../clock.ts";
import "../../../styles/staff.css";
import "./sermons-admin.css";
import { LIMITS } from "@flock/shared/limits";
import { SLUG_MAX } from "@flock/shared/slug";

// The Milkdown editor is only ever loaded lazily, on editor routes (`npm run size` checks).
const MarkdownEditor = lazy(() => import("../../../editor/MarkdownEditor.tsx"));

interface Draft {
  title: string;
  slug: string;
  seriesId: string;
  speakerIds: string[];
  preachedOn: string;
  scripture: string;
  summary: string;
  notes: string;
  videoUrl: string;
}

const draftOf = (s: AdminSermonFragment): Draft => ({
  title: s.title,
  slug: s.slug,
  seriesId: s.series?.id ?? "",
  speakerIds: s.speakers.map((p) => p.id),
  preachedOn: s.preachedOn?.slice(0, 10) ?? "",
  scripture: s.scripture,
  summary: s.summary,
  notes: s.notes,
  videoUrl: s.videoUrl,
});

/** A failed call as one sentence; file errors get the audio/PDF wording rather than the image one. */
function messageOf(
  error: unknown,
  i18n: I18n,
  kind: "audio" | "pdf" | "other" = "other",
): { message: string; fieldErrors: Record<string, string> } {
  const ui = handleError(error, i18n);
  if (kind !== "other" && ui.code === "UNSUPPORTED_FILE_TYPE")
    return {
      ...ui,
      message: i18n.t(
        kind === "audio" ? "admin.sermons.audio.wrongType" : "admin.sermons.attachments.wrongType",
      ),
    };
  if (kind !== "other" && ui.code === "PAYLOAD_TOO_LARGE")
    return {
      ...ui,
      message: i18n.t(
        kind === "audio" ? "admin.sermons.audio.tooLarge" : "admin.sermons.attachments.tooLarge",
      ),
    };
  return ui;
}

/** /admin/sermons/:id: everything about one sermon, saved explicitly; audio uploads resumably. */
export function AdminSermonEditorPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { data, loading, error, refetch } = useAdminSermonEditor({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const sermon = data?.sermonById ?? null;
  usePageTitle(sermon ? t("admin.sermons.editTitle", { title: sermon.title }) : t("admin.sermons.title"));
  const [draft, setDraft] = useState<Draft | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pdfProgress, setPdfProgress] = useState<number | null>(null);
  const [updateSermon, { loading: saving }] = useUpdateSermon();
  const [publish, { loading: publishing }] = usePublishSermon();
  const [unpublish, { loading: unpublishing }] = useUnpublishSermon();
  const [attachAudio] = useAttachSermonAudio();
  const [removeAttachment] = useRemoveSermonAttachment();
  const [deleteSermon] = useDeleteSermon();

  useEffect(() => {
    if (sermon && !draft) setDraft(draftOf(sermon));
  }, [sermon, draft]);

  const scriptureQuery = useDebounced(draft?.scripture.trim() ?? "", 300);
  const { data: preview } = useScripturePreview({
    variables: { text: scriptureQuery, locale },
    skip: !scriptureQuery,
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => (d ? { ...d, [key]: value } : d));
  const onNotes = useCallback((markdown: string) => setDraft((d) => (d ? { ...d, notes: markdown } : d)), []);
  const uploadImage = useCallback(
    async (file: File, onProgress: (percent: number) => void) =>
      (await uploadMedia(file, onProgress, i18n)).url,
    [i18n],
  );

  if (loading && !data) return <Loading />;
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!sermon || !draft) return <Alert kind="error">{t("error.NOT_FOUND")}</Alert>;

  async function save(event?: FormEvent) {
    event?.preventDefault();
    setNotice(null);
    setFieldErrors({});
    try {
      const result = await updateSermon({
        variables: {
          id,
          input: {
            title: draft!.title,
            // Unchanged: the server keeps it (or, for a draft, follows the title).
            slug: draft!.slug && draft!.slug !== sermon!.slug ? draft!.slug : null,
            seriesId: draft!.seriesId || null,
            speakerIds: draft!.speakerIds,
            preachedOn: draft!.preachedOn || null,
            scripture: draft!.scripture,
            summary: draft!.summary,
            notes: draft!.notes,
            videoUrl: draft!.videoUrl,
          },
        },
      });
      if (result.data) setDraft({ ...draftOf(result.data.updateSermon), notes: draft!.notes });
      setNotice({ kind: "success", text: t("admin.sermons.saved") });
      return true;
    } catch (caught) {
      const ui = messageOf(caught, i18n);
      setFieldErrors(ui.fieldErrors);
      setNotice({ kind: "error", text: ui.message });
      return false;
    }
  }

  async function togglePublished() {
    if (sermon!.status === "DRAFT" && !(await save())) return;
    try {
      if (sermon!.status === "DRAFT") await publish({ variables: { id } });
      else await unpublish({ variables: { id } });
      setNotice({
        kind: "success",
        text: sermon!.status === "DRAFT" ? t("admin.sermons.published") : t("admin.sermons.unpublished"),
      });
    } catch (caught) {
      setNotice({ kind: "error", text: messageOf(caught, i18n).message });
    }
  }

  async function onAudioUploaded(uploadId: string) {
    try {
      await attachAudio({ variables: { sermonId: id, uploadId } });
    } catch (caught) {
      throw new Error(messageOf(caught, i18n, "audio").message);
    }
  }

  async function addPdf(file: File | undefined) {
    if (!file) return;
    setNotice(null);
    if (file.type !== "application/pdf")
      return setNotice({ kind: "error", text: t("admin.sermons.attachments.wrongType") });
    if (file.size > 25 * 1024 * 1024)
      return setNotice({ kind: "error", text: t("admin.sermons.attachments.tooLarge") });
    setPdfProgress(0);
    try {
      // XHR for progress goes around Apollo: read the sermon again afterwards.
      await uploadWithProgress<AddSermonAttachmentMutation>(
        AddSermonAttachmentDocument,
        { sermonId: id },
        "file",
        file,
        setPdfProgress,
      );
      await refetch();
    } catch (caught) {
      setNotice({ kind: "error", text: messageOf(caught, i18n, "pdf").message });
    } finally {
      setPdfProgress(null);
    }
  }

  async function remove() {
    if (!window.confirm(t("admin.sermons.confirmDelete", { title: sermon!.title }))) return;
    try {
      await deleteSermon({ variables: { id } });
      void navigate("/admin/sermons");
    } catch (caught) {
      setNotice({ kind: "error", text: messageOf(caught, i18n).message });
    }
  }

  const passages = scriptureQuery ? (preview?.parseScripture ?? []) : [];
  return (
    <div className="sermon-editor">
      <p className="small">
        <Link to="/admin/sermons">← {t("admin.sermons.title")}</Link>
      </p>
      <div className="section-heading">
        {/* The title as it is being typed, not the one last saved. */}
        <h1>{draft.title.trim() || sermon.title}</h1>
        <span className={`badge ${sermon.status === "PUBLISHED" ? "badge--ok" : "badge--neutral"}`}>
          {t(`admin.sermons.status.${sermon.status}`)}
        </span>
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <form onSubmit={(e) => void save(e)} noValidate>
        <div className="sermon-editor__grid">
          <TextField
            label={t("admin.sermons.field.title")}
            value={draft.title}
            onChange={(e) => set("title", e.target.value)}
            error={fieldErrors.title}
            required
            maxLength={LIMITS.nameMax}
          />
          <TextField
            label={t("admin.sermons.field.slug")}
            value={draft.slug}
            onChange={(e) => set("slug", e.target.value)}
            error={fieldErrors.slug}
            hint={`/sermons/${draft.slug}`}
            maxLength={SLUG_MAX}
          />
          <TextField
            label={t("admin.sermons.field.preachedOn")}
            type="date"
            value={draft.preachedOn}
            onChange={(e) => set("preachedOn", e.target.value)}
            error={fieldErrors.preachedOn}
          />
          <SelectField
            label={t("admin.sermons.field.series")}
            value={draft.seriesId}
            onChange={(e) => set("seriesId", e.target.value)}
            optionalText={t("common.optional")}
          >
            <option value="">{t("admin.sermons.noSeries")}</option>
            {data?.sermonSeriesList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="field sermon-editor__speakers">
          <legend>{t("admin.sermons.field.speakers")}</legend>
          {data?.speakers.length ? (
            data.speakers.map((s) => (
              <label key={s.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.speakerIds.includes(s.id)}
                  onChange={(e) =>
                    set(
                      "speakerIds",
                      e.target.checked
                        ? [...draft.speakerIds, s.id]
                        : draft.speakerIds.filter((x) => x !== s.id),
                    )
                  }
                />{" "}
                {s.name}
              </label>
            ))
          ) : (
            <p className="small">
              <Link to="/admin/sermons/library">{t("admin.sermons.addSpeakersFirst")}</Link>
            </p>
          )}
        </fieldset>
        <TextField
          label={t("admin.sermons.field.scripture")}
          value={draft.scripture}
          onChange={(e) => set("scripture", e.target.value)}
          error={fieldErrors.scripture}
          maxLength={LIMITS.scriptureMax}
          hint={
            passages.length
              ? t("admin.sermons.scriptureReads", { text: passages.map((p) => p.text).join("; ") })
              : t("admin.sermons.scriptureHint")
          }
        />
        <TextAreaField
          label={t("admin.sermons.field.summary")}
          value={draft.summary}
          onChange={(e) => set("summary", e.target.value)}
          error={fieldErrors.summary}
          maxLength={LIMITS.summaryMax}
          rows={3}
          optionalText={t("common.optional")}
        />
        <TextField
          label={t("admin.sermons.field.videoUrl")}
          type="url"
          value={draft.videoUrl}
          onChange={(e) => set("videoUrl", e.target.value)}
          error={fieldErrors.videoUrl}
          hint={t("admin.sermons.videoHint")}
          optionalText={t("common.optional")}
        />
        <div className={`field body-field${fieldErrors.notes ? " field--invalid" : ""}`}>
          <span className="body-field__label">{t("admin.sermons.field.notes")}</span>
          <Suspense fallback={<Loading />}>
            <MarkdownEditor
              key={id}
              label={t("admin.sermons.field.notes")}
              initialMarkdown={sermon.notes}
              onChange={onNotes}
              uploadImage={uploadImage}
            />
          </Suspense>
          {fieldErrors.notes && <p className="field__error">{fieldErrors.notes}</p>}
        </div>
        <p className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? t("admin.sermons.saving") : t("admin.sermons.save")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={publishing || unpublishing || saving}
            onClick={() => void togglePublished()}
          >
            {sermon.status === "DRAFT" ? t("admin.sermons.publish") : t("admin.sermons.unpublish")}
          </button>
          {sermon.status === "PUBLISHED" && (
            <Link to={sermon.path} className="button button--ghost">
              {t("admin.sermons.view")}
            </Link>
          )}
          <button type="button" className="button button--ghost button--danger" onClick={() => void remove()}>
            {t("admin.sermons.delete")}
          </button>
        </p>
      </form>

      <section className="card sermon-editor__media" aria-labelledby="sermon-audio">
        <h2 id="sermon-audio">{t("admin.sermons.audio.title")}</h2>
        {sermon.audio ? (
          <p>
            {/* "metadata": the player reads the length (a few kilobytes, by Range) instead of 0:00 / 0:00. */}
            <audio
              controls
              preload="metadata"
              src={sermon.audio.url}
              aria-label={t("admin.sermons.audio.current")}
            />
            <br />
            <span className="small">
              {sermon.audio.mimeType} ·{" "}
              {sermon.audio.durationSeconds ? formatClock(sermon.audio.durationSeconds) : "—"}
            </span>
          </p>
        ) : (
          <p className="small">{t("admin.sermons.audio.none")}</p>
        )}
        <AudioUploadField
          label={sermon.audio ? t("admin.sermons.audio.replace") : t("admin.sermons.audio.choose")}
          onUploaded={onAudioUploaded}
        />
      </section>

      <section className="card sermon-editor__media" aria-labelledby="sermon-attachments">
        <h2 id="sermon-attachments">{t("admin.sermons.attachments.title")}</h2>
        {sermon.attachments.length ? (
          <ul>
            {sermon.attachments.map((a) => (
              <li key={a.url}>
                <a href={a.url}>{a.filename}</a>{" "}
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => void removeAttachment({ variables: { sermonId: id, filename: a.filename } })}
                >
                  {t("admin.sermons.attachments.remove", { name: a.filename })}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="small">{t("admin.sermons.attachments.none")}</p>
        )}
        <div className="field">
          <label htmlFor="sermon-pdf">{t("admin.sermons.attachments.add")}</label>
          <input
            id="sermon-pdf"
            type="file"
            accept="application/pdf"
            onChange={(e) => void addPdf(e.target.files?.[0]).then(() => (e.target.value = ""))}
          />
          <p className="field__hint">{t("admin.sermons.attachments.hint")}</p>
          {pdfProgress !== null && (
            <progress max={100} value={pdfProgress} aria-label={t("admin.sermons.attachments.uploading")} />
          )}
        </div>
      </section>
    </div>
  );
}
