import { useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminPostEditorPageDocument,
  useAdminPostEditorPage,
  useArchivePost,
  useCreatePost,
  useDeletePost,
  usePublishPost,
  useUnpublishPost,
  useUpdatePost,
  usePublishPostChanges,
  useDiscardPostChanges,
  useRestorePostRevision,
  type AdminPostEditorFieldsFragment,
} from "./AdminPostEditorPage.generated.ts";
import type { Audience, PostInput } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { removeLocalCopy } from "./autosave.ts";
import { AltTextDialog, type AltTextTarget } from "./AltTextDialog.tsx";
import { BodyEditor, MediaLibraryLink } from "./BodyEditor.tsx";
import { draftKey, StatusBadge, usePermissions } from "./common.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { ContentPreview } from "./ContentPreview.tsx";
import { ConflictPanel, EditorTop, KeptVersionNotice, RestoreOffer } from "./EditorPanels.tsx";
import { MediaPicker } from "./MediaPicker.tsx";
import { ScheduleForm } from "./ScheduleForm.tsx";
import { HistoryPanel, PublishChecklist, UnpublishedChanges } from "./Revisions.tsx";
import { oneLine, titleKeyDown, useFocusMode, useSettingsPanel } from "./Canvas.tsx";
import { slugFollowsTitle, slugify } from "./slug.ts";
import { useDocumentEditor, type BaseForm } from "./useDocumentEditor.ts";
import { useNewDocument } from "./newDocument.ts";
import "../../../styles/staff.css";
import { LIMITS } from "@flock/shared/limits";
import { SLUG_MAX } from "@flock/shared/slug";

interface PostForm extends BaseForm {
  summary: string;
  coverId: string | null;
  pinned: boolean;
  audience: Audience;
}

/** What the editor edits: a published post's working copy when it has one (the site keeps the live text). */
function formFromPost(post: AdminPostEditorFieldsFragment): PostForm {
  const source = post.working ?? post;
  return {
    title: source.title,
    slug: source.slug,
    slugAuto: slugFollowsTitle(source.slug, source.title, !!post.publishedAt),
    body: source.body,
    summary: source.summary,
    coverId: source.cover?.id ?? null,
    pinned: source.pinned,
    audience: source.audience,
  };
}

const coverOf = (post: AdminPostEditorFieldsFragment) => {
  const cover = post.working ? post.working.cover : post.cover;
  return cover ? { id: cover.id, url: cover.url, thumbnail: cover.thumbnail, alt: cover.alt } : null;
};

/** What "New post" shows before anything is typed (nothing is stored until then). */
const NEW_POST: AdminPostEditorFieldsFragment = {
  __typename: "Post",
  id: "",
  title: "",
  slug: "",
  path: "",
  summary: "",
  body: "",
  status: "DRAFT",
  publishAt: null,
  publishedAt: null,
  pinned: false,
  audience: "PUBLIC",
  authorName: "",
  revision: 0,
  updated: "",
  working: null,
  history: [],
  cover: null,
};

/** `untitled`: what a draft is saved as while its title is empty (saving never waits for a title). */
function toInput(form: PostForm, untitled: string): PostInput {
  return {
    title: form.title.trim() ? form.title : untitled,
    // Empty: the gateway generates the address from the title (and keeps it free).
    slug: form.slugAuto ? "" : form.slug,
    summary: form.summary,
    body: form.body,
    coverId: form.coverId,
    pinned: form.pinned,
    audience: form.audience,
  };
}

export function AdminPostEditorPage() {
  const { id = "" } = useParams();
  const newPost = useNewDocument(id, "/admin/news");
  if (newPost.isNew) return <NewPost key={newPost.key} onCreated={newPost.created} />;
  return <PostLoader key={id} id={id} />;
}

/** An empty editor until the first save creates the post; then the post as the cache has it. */
function NewPost({ onCreated }: { onCreated(id: string): void }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [created, setCreated] = useState<AdminPostEditorFieldsFragment | null>(null);
  const { data } = useAdminPostEditorPage({ variables: { id: created?.id ?? "" }, skip: !created, fetchPolicy: "cache-only" });
  usePageTitle(t("admin.content.news.new"));
  return (
    <PostEditor
      post={data?.postById ?? created ?? NEW_POST}
      onCreated={(post) => {
        // The editor reads the post from the cache from now on, as if it had been opened.
        client.writeQuery({ query: AdminPostEditorPageDocument, variables: { id: post.id }, data: { postById: post } });
        setCreated(post);
        onCreated(post.id);
      }}
    />
  );
}

function PostLoader({ id }: { id: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  // Always the server's current revision when opening (the cache may hold an older one).
  const { data, loading, error } = useAdminPostEditorPage({ variables: { id }, fetchPolicy: "network-only", nextFetchPolicy: "cache-first" });
  usePageTitle(data?.postById?.title ?? t("admin.content.post.edit"));
  if (loading && !data) return <Loading />;
  if (error && !data) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!data?.postById) {
    return (
      <div className="page">
        <h1>{t("notFound.title")}</h1>
        <Link to="/admin/news">{t("admin.content.post.back")}</Link>
      </div>
    );
  }
  return <PostEditor post={data.postById} />;
}

function PostEditor({ post, onCreated }: { post: AdminPostEditorFieldsFragment; onCreated?(post: AdminPostEditorFieldsFragment): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const navigate = useNavigate();
  const { canPublish } = usePermissions();
  const { format } = useChurchDateTime();
  // The post's id: "" for a new post until its first save creates it. Actions read the ref: one
  // clicked before that save ends (Publish saves first) must use the id the save just got.
  const postId = useRef(post.id);
  if (post.id) postId.current = post.id;
  const [isNew] = useState(!post.id);
  const storageKey = draftKey("post", post.id || "new");
  const [createPost] = useCreatePost();
  const [updatePost] = useUpdatePost();
  const [publishPost] = usePublishPost();
  const [unpublishPost] = useUnpublishPost();
  const [archivePost] = useArchivePost();
  const [deletePost] = useDeletePost();
  const [publishPostChanges] = usePublishPostChanges();
  const [discardPostChanges] = useDiscardPostChanges();
  const [restorePostRevision] = useRestorePostRevision();
  const [cover, setCover] = useState(() => coverOf(post));
  const focusMode = useFocusMode();
  const settingsPanel = useSettingsPanel("editor-side");
  /** The confirm step (checklist) open for "publish" or "update". */
  const [confirming, setConfirming] = useState<"publish" | "update" | null>(null);
  const [coverAlt, setCoverAlt] = useState<AltTextTarget | null>(null);

  const doc = useDocumentEditor<PostForm>({
    storageKey,
    revision: post.revision,
    serverForm: formFromPost(post),
    save: async (form, expectedRevision) => {
      const input = toInput(form, t("admin.content.post.untitled"));
      if (!postId.current) {
        const created = (await createPost({ variables: { input } })).data!.createPost;
        postId.current = created.id;
        onCreated?.(created);
        return created.revision;
      }
      const result = await updatePost({ variables: { id: postId.current, input, expectedRevision } });
      return result.data!.updatePost.revision;
    },
    reload: async () => {
      const { data } = await client.query({ query: AdminPostEditorPageDocument, variables: { id: postId.current }, fetchPolicy: "network-only" });
      const fresh = data?.postById;
      if (!fresh) throw new Error("The post is gone");
      setCover(coverOf(fresh));
      return { form: formFromPost(fresh), revision: fresh.revision };
    },
  });
  const { form, set, status, fieldErrors } = doc;
  // Publishers only may change what is live (PocketBase's rules say the same).
  const readOnly = !canPublish && post.status !== "DRAFT";
  const slug = form.slugAuto ? slugify(form.title) : form.slug;

  /** Show what the server returned after discarding or restoring (the editor reloads). */
  function showServer(result: AdminPostEditorFieldsFragment) {
    setCover(coverOf(result));
    doc.replace(formFromPost(result), result.revision);
  }

  return (
    <div className={`page editor-page${focusMode.className}${settingsPanel.className}`}>
      <EditorTop status={status} heading={post.id ? t("admin.content.post.edit") : t("admin.content.news.new")} backTo="/admin/news" backLabel={t("admin.content.post.back")} badge={<StatusBadge status={post.status} />}>
        {settingsPanel.button}
        {focusMode.button}
        <ContentPreview title={form.title} summary={form.summary} markdown={form.body} cover={cover ? { url: cover.url, alt: cover.alt } : null} />
      </EditorTop>
      {/* What this device kept, compared with the text below (which stays in view). */}
      {doc.offer && <RestoreOffer copy={doc.offer} current={form} onRestore={doc.restore} onDiscard={doc.discard} />}
      {status.kind === "conflict" && <ConflictPanel mine={form} theirs={status.theirs} onKeepMine={doc.keepMine} onKeepTheirs={() => void doc.keepTheirs()} busy={doc.conflictBusy} />}
      <KeptVersionNotice storageKey={storageKey} version={doc.kept} onForget={doc.forgetKept} />
      {readOnly && <Alert kind="info">{t("admin.content.readOnlyLive")}</Alert>}

      <div className="editor-layout">
        <div className="editor-main form">
          <TextAreaField
            label={t("admin.content.field.title")}
            hideLabel
            placeholder={t("admin.content.field.titlePlaceholder")}
            required
            maxLength={LIMITS.nameMax}
            value={form.title}
            className="editor-title-input"
            rows={1}
            onKeyDown={titleKeyDown}
            readOnly={readOnly}
            autoFocus={isNew}
            onChange={(e) => {
              const title = oneLine(e.target.value);
              set(form.slugAuto ? { title, slug: slugify(title) } : { title });
            }}
            error={fieldErrors.title}
          />
          <BodyEditor
            editorKey={doc.editorKey}
            initialMarkdown={doc.editorMarkdown}
            markdown={form.body}
            onChange={(body) => set({ body })}
            label={t("admin.content.field.body")}
            readOnly={readOnly}
            error={fieldErrors.body}
            errorHint={fieldErrors.body ? <MediaLibraryLink /> : null}
          />
        </div>

        <aside className="editor-side" id="editor-side" aria-label={t("admin.content.side")}>
          <section className="card editor-card editor-card--publishing" aria-labelledby="publishing-title">
            <h2 id="publishing-title">{t("admin.content.publishing")}</h2>
            <p className="editor-card__status">
              <StatusBadge status={post.status} />{" "}
              {post.status === "SCHEDULED" && post.publishAt && <span>{t("admin.content.post.scheduledFor", { time: format(post.publishAt) })}</span>}
              {post.status === "PUBLISHED" && post.publishedAt && <span>{t("admin.content.publishedOn", { time: format(post.publishedAt) })}</span>}
            </p>
            {doc.notice && <Alert kind="success">{doc.notice}</Alert>}
            {doc.actionError && <Alert kind="error">{doc.actionError.message}</Alert>}
            {!canPublish ? (
              <p className="muted">{t("admin.content.onlyPublishers")}</p>
            ) : (
              <div className="workflow">
                {post.status !== "PUBLISHED" && (
                  <button
                    type="button"
                    className="button"
                    disabled={doc.busy}
                    onClick={() => setConfirming("publish")}
                  >
                    {post.status === "ARCHIVED" ? t("admin.content.action.republish") : t("admin.content.action.publish")}
                  </button>
                )}
                {post.status !== "PUBLISHED" && (
                  <ScheduleForm
                    current={post.status === "SCHEDULED" ? post.publishAt : null}
                    busy={doc.busy}
                    error={fieldErrors.publishAt}
                    onSchedule={(iso) =>
                      doc.runAction(async () => (await publishPost({ variables: { id: postId.current, publishAt: iso } })).data?.publishPost ?? null, t("admin.content.done.scheduled", { time: format(iso) }))
                    }
                  />
                )}
                {post.status === "PUBLISHED" && (
                  <UnpublishedChanges
                    pending={!!post.working}
                    canPublish={canPublish}
                    busy={doc.busy}
                    onUpdate={() => setConfirming("update")}
                    onDiscard={() => {
                      if (!window.confirm(t("admin.content.confirmDiscard"))) return;
                      void doc.runAction(async () => {
                        const result = (await discardPostChanges({ variables: { id: postId.current } })).data?.discardPostChanges ?? null;
                        if (result) showServer(result);
                        return result;
                      }, t("admin.content.done.discarded"));
                    }}
                  />
                )}
                {post.status === "PUBLISHED" && (
                  <a className="button button--ghost" href={post.path} target="_blank" rel="noopener">
                    {t("admin.content.action.view")}
                  </a>
                )}
                {(post.status === "PUBLISHED" || post.status === "SCHEDULED" || post.status === "ARCHIVED") && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={doc.busy}
                    onClick={() => void doc.runAction(async () => (await unpublishPost({ variables: { id: postId.current } })).data?.unpublishPost ?? null, t("admin.content.done.unpublished"))}
                  >
                    {post.status === "SCHEDULED" ? t("admin.content.action.unschedule") : post.status === "ARCHIVED" ? t("admin.content.action.toDraft") : t("admin.content.action.unpublish")}
                  </button>
                )}
                {post.status !== "ARCHIVED" && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={doc.busy}
                    onClick={() => void doc.runAction(async () => (await archivePost({ variables: { ids: [postId.current] } })).data?.archivePosts[0] ?? null, t("admin.content.done.archived"))}
                  >
                    {t("admin.content.action.archive")}
                  </button>
                )}
                <button
                  type="button"
                  className="button button--danger-ghost"
                  disabled={doc.busy}
                  onClick={() => {
                    if (!window.confirm(t("admin.content.post.confirmDelete", { title: form.title }))) return;
                    void doc.runAction(async () => {
                      // A new post that was never saved has nothing to delete on the server.
                      if (postId.current) await deletePost({ variables: { id: postId.current } });
                      removeLocalCopy(storageKey);
                      await client.refetchQueries({ include: ["AdminNewsPage"] });
                      void navigate("/admin/news", { replace: true });
                      return null;
                    }, t("admin.content.done.deleted"));
                  }}
                >
                  {t("admin.content.action.delete")}
                </button>
              </div>
            )}
          </section>

          <section className="card editor-card form" aria-labelledby="post-settings-title">
            <h2 id="post-settings-title">{t("admin.content.settings")}</h2>
            <TextField
              label={t("admin.content.field.slug")}
              value={slug}
              readOnly={readOnly}
              maxLength={SLUG_MAX}
              spellCheck={false}
              autoCapitalize="off"
              onChange={(e) => set({ slug: e.target.value, slugAuto: false })}
              hint={t("admin.content.field.slugHint", { path: `/news/${slug}` })}
              error={fieldErrors.slug}
            />
            <TextAreaField
              label={t("admin.content.field.summary")}
              optionalText={t("common.optional")}
              hint={t("admin.content.field.summaryHint")}
              rows={3}
              maxLength={LIMITS.summaryMax}
              readOnly={readOnly}
              value={form.summary}
              onChange={(e) => set({ summary: e.target.value })}
              error={fieldErrors.summary}
            />
            <div className="field">
              <span className="field__label">{t("admin.content.field.cover")}</span>
              {cover ? (
                <img className="cover-preview" src={cover.thumbnail} alt={cover.alt} />
              ) : (
                <p className="muted small">{t("admin.content.field.noCover")}</p>
              )}
              {cover && !cover.alt.trim() && (
                <p className="small">
                  <span className="badge badge--warn">{t("admin.content.images.needsAlt")}</span>{" "}
                  <button type="button" className="link-button" onClick={() => setCoverAlt({ id: cover.id, alt: "", filename: "", thumbnail: cover.thumbnail })}>
                    {t("admin.content.images.addAlt")}
                  </button>
                </p>
              )}
              {!readOnly && (
                <div className="actions">
                  <MediaPicker
                    label={cover ? t("admin.content.field.changeCover") : t("admin.content.field.chooseCover")}
                    onPick={(image) => {
                      setCover({ id: image.id, url: image.url, thumbnail: image.thumbnail, alt: image.alt });
                      set({ coverId: image.id });
                      if (!image.alt.trim()) setCoverAlt({ id: image.id, alt: "", filename: image.filename, thumbnail: image.thumbnail });
                    }}
                    onUploaded={(media) => {
                      setCover({ id: media.id, url: media.url, thumbnail: media.thumbnail, alt: media.alt });
                      set({ coverId: media.id });
                      setCoverAlt({ id: media.id, alt: media.alt, filename: media.filename, thumbnail: media.thumbnail });
                    }}
                  />
                  {cover && (
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      onClick={() => {
                        setCover(null);
                        set({ coverId: null });
                      }}
                    >
                      {t("admin.content.field.removeCover")}
                    </button>
                  )}
                </div>
              )}
            </div>
            <fieldset className="field radio-group">
              <legend>{t("admin.content.field.audience")}</legend>
              {(["PUBLIC", "MEMBERS"] as const).map((audience) => (
                <label key={audience} className="field--checkbox">
                  <input type="radio" name="audience" value={audience} checked={form.audience === audience} disabled={readOnly} onChange={() => set({ audience })} />
                  {t(`admin.content.audience.${audience}`)}
                </label>
              ))}
            </fieldset>
            <CheckboxField label={t("admin.content.field.pinned")} hint={t("admin.content.field.pinnedHint")} checked={form.pinned} disabled={readOnly} onChange={(e) => set({ pinned: e.target.checked })} />
          </section>
          <HistoryPanel
            entries={post.history}
            busy={doc.busy}
            readOnly={readOnly}
            onRestore={(entry) =>
              void doc.runAction(async () => {
                const result =
                  (await restorePostRevision({ variables: { id: postId.current, revisionId: entry.id, expectedRevision: doc.autosave.currentRevision } })).data?.restorePostRevision ?? null;
                if (result) showServer(result);
                return result;
              }, t("admin.content.done.restored"))
            }
          />
        </aside>
      </div>
      <PublishChecklist
        open={confirming !== null}
        input={{
          title: form.title,
          summary: form.summary,
          body: form.body,
          cover: cover ? { alt: cover.alt } : null,
          audience: t(`admin.content.audience.${form.audience}`),
          when: t("admin.content.checklist.now"),
        }}
        confirmLabel={confirming === "update" ? t("admin.content.action.update") : t("admin.content.action.publish")}
        busy={doc.busy}
        onCancel={() => setConfirming(null)}
        onFixAlt={(id) => {
          setConfirming(null);
          if (cover && id === cover.id) setCoverAlt({ id: cover.id, alt: "", filename: "", thumbnail: cover.thumbnail });
          else document.querySelector<HTMLElement>(`[data-media-id="${id}"] button`)?.click();
        }}
        onConfirm={() => {
          const mode = confirming;
          setConfirming(null);
          if (mode === "update") {
            void doc.runAction(async () => (await publishPostChanges({ variables: { id: postId.current } })).data?.publishPostChanges ?? null, t("admin.content.done.updated"));
          } else {
            void doc.runAction(async () => (await publishPost({ variables: { id: postId.current } })).data?.publishPost ?? null, t("admin.content.done.published"));
          }
        }}
      />
      <AltTextDialog
        target={coverAlt}
        onDone={(alt) => {
          if (alt && cover && coverAlt?.id === cover.id) setCover({ ...cover, alt });
          setCoverAlt(null);
        }}
      />
    </div>
  );
}
