import { lazy, Suspense, useCallback, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminSermonEditorDocument,
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
import type { SermonInput } from "../../../gql/types.ts";
import { useI18n, type I18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { removeLocalCopy } from "../../../editor/autosave/autosave.ts";
import {
  ConflictPanel,
  EditorTop,
  KeptVersionNotice,
  RestoreOffer,
} from "../../../editor/autosave/EditorPanels.tsx";
import { slugFollowsTitle, slugify } from "../../../editor/autosave/slug.ts";
import { useDocumentEditor, type BaseForm } from "../../../editor/autosave/useDocumentEditor.ts";
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

/** What the editor edits and autosaves: the sermon's fields, the notes as the form's `body`. */
interface SermonForm extends BaseForm {
  seriesId: string;
  speakerIds: string[];
  preachedOn: string;
  scripture: string;
  summary: string;
  videoUrl: string;
}

const formOf = (s: AdminSermonFragment): SermonForm => ({
  title: s.title,
  slug: s.slug,
  // The post editor's address rule: it follows the title until an editor types one or it was ever public.
  slugAuto: slugFollowsTitle(s.slug, s.title, !!s.publishedAt),
  body: s.notes,
  seriesId: s.series?.id ?? "",
  speakerIds: s.speakers.map((p) => p.id),
  preachedOn: s.preachedOn?.slice(0, 10) ?? "",
  scripture: s.scripture,
  summary: s.summary,
  videoUrl: s.videoUrl,
});

const toInput = (form: SermonForm): SermonInput => ({
  title: form.title,
  // Null while it follows the title: the gateway chooses (and keeps free) the address of a draft.
  slug: form.slugAuto ? null : form.slug,
  seriesId: form.seriesId || null,
  speakerIds: form.speakerIds,
  preachedOn: form.preachedOn || null,
  scripture: form.scripture,
  summary: form.summary,
  notes: form.body,
  videoUrl: form.videoUrl,
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

/** /admin/sermons/:id: everything about one sermon, autosaved as it is typed; audio uploads resumably. */
export function AdminSermonEditorPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  // Opening: the server's current revision (the cache may hold an older one), then the cache, which
  // the mutations below keep current (status, audio, attachments).
  const { data, loading, error } = useAdminSermonEditor({
    variables: { id },
    fetchPolicy: "network-only",
    nextFetchPolicy: "cache-first",
  });
  const sermon = data?.sermonById ?? null;
  usePageTitle(sermon ? t("admin.sermons.editTitle", { title: sermon.title }) : t("admin.sermons.title"));
  if (loading && !data) return <Loading />;
  if (error && !sermon) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!sermon) return <Alert kind="error">{t("error.NOT_FOUND")}</Alert>;
  return (
    <SermonEditor
      key={id}
      sermon={sermon}
      series={data?.sermonSeriesList ?? []}
      speakers={data?.speakers ?? []}
    />
  );
}

function SermonEditor({
  sermon,
  series,
  speakers,
}: {
  sermon: AdminSermonFragment;
  series: readonly { id: string; title: string }[];
  speakers: readonly { id: string; name: string }[];
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { id } = sermon;
  const navigate = useNavigate();
  const client = useApolloClient();
  const [pdfProgress, setPdfProgress] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [updateSermon] = useUpdateSermon();
  const [publish] = usePublishSermon();
  const [unpublish] = useUnpublishSermon();
  const [attachAudio] = useAttachSermonAudio();
  const [removeAttachment] = useRemoveSermonAttachment();
  const [deleteSermon] = useDeleteSermon();
  const storageKey = `flock.draft.sermon.${id}`;

  const doc = useDocumentEditor<SermonForm>({
    storageKey,
    revision: sermon.revision,
    serverForm: formOf(sermon),
    save: async (form, expectedRevision) =>
      (await updateSermon({ variables: { id, input: toInput(form), expectedRevision } })).data!.updateSermon
        .revision,
    reload: async () => {
      const { data } = await client.query({
        query: AdminSermonEditorDocument,
        variables: { id },
        fetchPolicy: "network-only",
      });
      const fresh = data?.sermonById;
      if (!fresh) throw new Error("The sermon is gone");
      return { form: formOf(fresh), revision: fresh.revision };
    },
  });
  const { form, set, status } = doc;
  const fieldErrors = doc.fieldErrors;
  const slug = form.slugAuto ? slugify(form.title) : form.slug;

  const scriptureQuery = useDebounced(form.scripture.trim(), 300);
  const { data: preview } = useScripturePreview({
    variables: { text: scriptureQuery, locale },
    skip: !scriptureQuery,
  });

  // Milkdown writes Markdown its own way; what it reports for the untouched notes is the server's
  // text, not a change (merely opening a sermon must not save it and raise its revision).
  const normalized = useRef<string | null>(null);
  const onNotes = useCallback(
    (markdown: string) => set({ body: markdown === normalized.current ? doc.editorMarkdown : markdown }),
    [set, doc.editorMarkdown],
  );
  const uploadImage = useCallback(
    async (file: File, onProgress: (percent: number) => void) =>
      (await uploadMedia(file, onProgress, i18n)).path,
    [i18n],
  );

  async function togglePublished() {
    setNotice(null);
    const publishing = sermon.status === "DRAFT";
    await doc.runAction(
      async () => {
        if (publishing) await publish({ variables: { id } });
        else await unpublish({ variables: { id } });
        return null; // the sermon's fields, and so its revision, are unchanged
      },
      publishing ? t("admin.sermons.published") : t("admin.sermons.unpublished"),
    );
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
      await client.query({
        query: AdminSermonEditorDocument,
        variables: { id },
        fetchPolicy: "network-only",
      });
    } catch (caught) {
      setNotice({ kind: "error", text: messageOf(caught, i18n, "pdf").message });
    } finally {
      setPdfProgress(null);
    }
  }

  async function remove() {
    if (!window.confirm(t("admin.sermons.confirmDelete", { title: sermon.title }))) return;
    try {
      await deleteSermon({ variables: { id } });
      removeLocalCopy(storageKey);
      void navigate("/admin/sermons");
    } catch (caught) {
      setNotice({ kind: "error", text: messageOf(caught, i18n).message });
    }
  }

  const passages = scriptureQuery ? (preview?.parseScripture ?? []) : [];
  const busy = doc.busy;
  return (
    <div className="sermon-editor">
      <EditorTop
        status={status}
        // The title as it is being typed, not the one last saved.
        heading={form.title.trim() || sermon.title}
        backTo="/admin/sermons"
        backLabel={t("admin.sermons.title")}
        badge={
          <span className={`badge ${sermon.status === "PUBLISHED" ? "badge--ok" : "badge--neutral"}`}>
            {t(`admin.sermons.status.${sermon.status}`)}
          </span>
        }
      />
      {doc.offer && (
        <RestoreOffer copy={doc.offer} current={form} onRestore={doc.restore} onDiscard={doc.discard} />
      )}
      {status.kind === "conflict" && (
        <ConflictPanel
          mine={form}
          theirs={status.theirs}
          onKeepMine={doc.keepMine}
          onKeepTheirs={() => void doc.keepTheirs()}
          busy={doc.conflictBusy}
        />
      )}
      <KeptVersionNotice storageKey={storageKey} version={doc.kept} onForget={doc.forgetKept} />
      {doc.actionError && <Alert kind="error">{doc.actionError.message}</Alert>}
      {doc.notice && <Alert kind="success">{doc.notice}</Alert>}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <form onSubmit={(e) => e.preventDefault()} noValidate>
        <div className="sermon-editor__grid">
          <TextField
            label={t("admin.sermons.field.title")}
            value={form.title}
            onChange={(e) => {
              const title = e.target.value;
              set(form.slugAuto ? { title, slug: slugify(title) } : { title });
            }}
            error={fieldErrors.title}
            required
            maxLength={LIMITS.nameMax}
          />
          <TextField
            label={t("admin.sermons.field.slug")}
            value={slug}
            onChange={(e) => set({ slug: e.target.value, slugAuto: false })}
            error={fieldErrors.slug}
            hint={`/sermons/${slug}`}
            maxLength={SLUG_MAX}
          />
          <TextField
            label={t("admin.sermons.field.preachedOn")}
            type="date"
            value={form.preachedOn}
            onChange={(e) => set({ preachedOn: e.target.value })}
            error={fieldErrors.preachedOn}
          />
          <SelectField
            label={t("admin.sermons.field.series")}
            value={form.seriesId}
            onChange={(e) => set({ seriesId: e.target.value })}
            optionalText={t("common.optional")}
          >
            <option value="">{t("admin.sermons.noSeries")}</option>
            {series.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="field sermon-editor__speakers">
          <legend>{t("admin.sermons.field.speakers")}</legend>
          {speakers.length ? (
            speakers.map((s) => (
              <label key={s.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.speakerIds.includes(s.id)}
                  onChange={(e) =>
                    set({
                      speakerIds: e.target.checked
                        ? [...form.speakerIds, s.id]
                        : form.speakerIds.filter((x) => x !== s.id),
                    })
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
          value={form.scripture}
          onChange={(e) => set({ scripture: e.target.value })}
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
          value={form.summary}
          onChange={(e) => set({ summary: e.target.value })}
          error={fieldErrors.summary}
          maxLength={LIMITS.summaryMax}
          rows={3}
          optionalText={t("common.optional")}
        />
        <TextField
          label={t("admin.sermons.field.videoUrl")}
          type="url"
          value={form.videoUrl}
          onChange={(e) => set({ videoUrl: e.target.value })}
          error={fieldErrors.videoUrl}
          hint={t("admin.sermons.videoHint")}
          optionalText={t("common.optional")}
        />
        <div className={`field body-field${fieldErrors.notes ? " field--invalid" : ""}`}>
          <span className="body-field__label">{t("admin.sermons.field.notes")}</span>
          <Suspense fallback={<Loading />}>
            <MarkdownEditor
              key={doc.editorKey}
              label={t("admin.sermons.field.notes")}
              initialMarkdown={doc.editorMarkdown}
              onChange={onNotes}
              uploadImage={uploadImage}
              onReady={(api) => {
                normalized.current = api.getMarkdown();
              }}
            />
          </Suspense>
          {fieldErrors.notes && <p className="field__error">{fieldErrors.notes}</p>}
        </div>
        <p className="actions">
          <button type="button" className="button" disabled={busy} onClick={() => void togglePublished()}>
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
