import { useState } from "react";
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
import { CheckboxField, TextAreaField } from "../../../components/Field.tsx";
import { AltTextDialog, type AltTextTarget } from "./AltTextDialog.tsx";
import { ContentPreview } from "./ContentPreview.tsx";
import {
  DocumentEditorRoute,
  DocumentEditorScreen,
  type DocumentKind,
  type DocumentOperations,
  type FieldsContext,
} from "./DocumentEditor.tsx";
import { MediaPicker } from "./MediaPicker.tsx";
import { slugFollowsTitle } from "../../../editor/autosave/slug.ts";
import type { BaseForm } from "../../../editor/autosave/useDocumentEditor.ts";
import { LIMITS } from "@flock/shared/limits";

type Post = AdminPostEditorFieldsFragment;

interface PostForm extends BaseForm {
  summary: string;
  coverId: string | null;
  pinned: boolean;
  audience: Audience;
}

interface Cover {
  id: string;
  url: string;
  thumbnail: string;
  alt: string;
}

/** What the editor edits: a published post's working copy when it has one (the site keeps the live text). */
function formFromPost(post: Post): PostForm {
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

const coverOf = (post: Post): Cover | null => {
  const cover = post.working ? post.working.cover : post.cover;
  return cover ? { id: cover.id, url: cover.url, thumbnail: cover.thumbnail, alt: cover.alt } : null;
};

const POST: DocumentKind<Post> = {
  name: "post",
  listPath: "/admin/news",
  publicPrefix: "/news/",
  blank: {
    __typename: "Post",
    id: "",
    can: { __typename: "ContentCan", edit: true, publish: false, delete: false },
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
    byApiToken: false,
    revision: 0,
    updated: "",
    working: null,
    history: [],
    cover: null,
  },
  messages: {
    new: "admin.content.news.new",
    edit: "admin.content.post.edit",
    back: "admin.content.post.back",
    confirmDelete: "admin.content.post.confirmDelete",
  },
  listQueries: ["AdminNewsPage"],
  schedulable: true,
  useDocument(id, mode) {
    // Opening: always the server's current revision (the cache may hold an older one).
    const { data, loading, error } = useAdminPostEditorPage(
      mode === "open"
        ? { variables: { id }, fetchPolicy: "network-only", nextFetchPolicy: "cache-first" }
        : { variables: { id }, skip: !id, fetchPolicy: "cache-only" },
    );
    return { document: data?.postById, loading, error };
  },
  useRemember() {
    const client = useApolloClient();
    return (post) =>
      client.writeQuery({
        query: AdminPostEditorPageDocument,
        variables: { id: post.id },
        data: { postById: post },
      });
  },
};

/** The post mutations, in the shape the editor screen calls them. */
function usePostOperations(): DocumentOperations<Post, PostForm> {
  const { t } = useI18n();
  const client = useApolloClient();
  const [createPost] = useCreatePost();
  const [updatePost] = useUpdatePost();
  const [publishPost] = usePublishPost();
  const [unpublishPost] = useUnpublishPost();
  const [archivePost] = useArchivePost();
  const [deletePost] = useDeletePost();
  const [publishPostChanges] = usePublishPostChanges();
  const [discardPostChanges] = useDiscardPostChanges();
  const [restorePostRevision] = useRestorePostRevision();
  /** Saving never waits for a title: an empty one is saved as "Untitled post". */
  const toInput = (form: PostForm): PostInput => ({
    title: form.title.trim() ? form.title : t("admin.content.post.untitled"),
    // Empty: the gateway generates the address from the title (and keeps it free).
    slug: form.slugAuto ? "" : form.slug,
    summary: form.summary,
    body: form.body,
    coverId: form.coverId,
    pinned: form.pinned,
    audience: form.audience,
  });
  return {
    create: async (form) => (await createPost({ variables: { input: toInput(form) } })).data!.createPost,
    update: async (id, form, expectedRevision) =>
      (await updatePost({ variables: { id, input: toInput(form), expectedRevision } })).data!.updatePost
        .revision,
    fetch: async (id) =>
      (
        await client.query({
          query: AdminPostEditorPageDocument,
          variables: { id },
          fetchPolicy: "network-only",
        })
      ).data?.postById ?? null,
    publish: async (id, publishAt) =>
      (await publishPost({ variables: { id, publishAt } })).data?.publishPost ?? null,
    unpublish: async (id) => (await unpublishPost({ variables: { id } })).data?.unpublishPost ?? null,
    archive: async (id) => (await archivePost({ variables: { ids: [id] } })).data?.archivePosts[0] ?? null,
    publishChanges: async (id) =>
      (await publishPostChanges({ variables: { id } })).data?.publishPostChanges ?? null,
    discardChanges: async (id) =>
      (await discardPostChanges({ variables: { id } })).data?.discardPostChanges ?? null,
    restoreRevision: async (id, revisionId, expectedRevision) =>
      (await restorePostRevision({ variables: { id, revisionId, expectedRevision } })).data
        ?.restorePostRevision ?? null,
    remove: async (id) => void (await deletePost({ variables: { id } })),
  };
}

export function AdminPostEditorPage() {
  return (
    <DocumentEditorRoute
      kind={POST}
      render={(post, onCreated) => <PostEditor post={post} onCreated={onCreated} />}
    />
  );
}

function PostEditor({ post, onCreated }: { post: Post; onCreated?(post: Post): void }) {
  const { t } = useI18n();
  const operations = usePostOperations();
  const [cover, setCover] = useState(() => coverOf(post));
  const [coverAlt, setCoverAlt] = useState<AltTextTarget | null>(null);
  return (
    <DocumentEditorScreen
      kind={POST}
      document={post}
      onCreated={onCreated}
      formOf={formFromPost}
      operations={operations}
      onServer={(server) => setCover(coverOf(server))}
      preview={(form) => (
        <ContentPreview
          title={form.title}
          summary={form.summary}
          markdown={form.body}
          cover={cover ? { url: cover.url, alt: cover.alt } : null}
        />
      )}
      settings={(context) => (
        <PostSettings {...context} cover={cover} setCover={setCover} askAlt={setCoverAlt} />
      )}
      checklist={(form) => ({
        summary: form.summary,
        cover: cover ? { alt: cover.alt } : null,
        audience: t(`admin.content.audience.${form.audience}`),
      })}
      onFixAlt={(mediaId) => {
        if (!cover || mediaId !== cover.id) return false;
        setCoverAlt({ id: cover.id, alt: "", filename: "", thumbnail: cover.thumbnail });
        return true;
      }}
    >
      <AltTextDialog
        target={coverAlt}
        onDone={(alt) => {
          if (alt && cover && coverAlt?.id === cover.id) setCover({ ...cover, alt });
          setCoverAlt(null);
        }}
      />
    </DocumentEditorScreen>
  );
}

/** A post's own settings: summary, cover image, audience, pinned. */
function PostSettings({
  form,
  set,
  readOnly,
  fieldErrors,
  cover,
  setCover,
  askAlt,
}: FieldsContext<PostForm> & {
  cover: Cover | null;
  setCover(cover: Cover | null): void;
  askAlt(target: AltTextTarget): void;
}) {
  const { t } = useI18n();
  return (
    <>
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
            <button
              type="button"
              className="link-button"
              onClick={() => askAlt({ id: cover.id, alt: "", filename: "", thumbnail: cover.thumbnail })}
            >
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
                if (!image.alt.trim())
                  askAlt({ id: image.id, alt: "", filename: image.filename, thumbnail: image.thumbnail });
              }}
              onUploaded={(media) => {
                setCover({ id: media.id, url: media.url, thumbnail: media.thumbnail, alt: media.alt });
                set({ coverId: media.id });
                askAlt({
                  id: media.id,
                  alt: media.alt,
                  filename: media.filename,
                  thumbnail: media.thumbnail,
                });
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
            <input
              type="radio"
              name="audience"
              value={audience}
              checked={form.audience === audience}
              disabled={readOnly}
              onChange={() => set({ audience })}
            />
            {t(`admin.content.audience.${audience}`)}
          </label>
        ))}
      </fieldset>
      <CheckboxField
        label={t("admin.content.field.pinned")}
        hint={t("admin.content.field.pinnedHint")}
        checked={form.pinned}
        disabled={readOnly}
        onChange={(e) => set({ pinned: e.target.checked })}
      />
    </>
  );
}
