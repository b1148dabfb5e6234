import { useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminPageEditorPageDocument,
  useAdminPageEditorPage,
  useCreatePage,
  useDeletePage,
  usePublishPage,
  useUnpublishPage,
  useUpdatePage,
  usePublishPageChanges,
  useDiscardPageChanges,
  useRestorePageRevision,
  type AdminPageEditorFieldsFragment,
} from "./AdminPageEditorPage.generated.ts";
import type { PageInput } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { removeLocalCopy } from "./autosave.ts";
import { BodyEditor, MediaLibraryLink } from "./BodyEditor.tsx";
import { draftKey, StatusBadge, usePermissions } from "./common.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { ContentPreview } from "./ContentPreview.tsx";
import { ConflictPanel, EditorTop, KeptVersionNotice, RestoreOffer } from "./EditorPanels.tsx";
import { HistoryPanel, PublishChecklist, UnpublishedChanges } from "./Revisions.tsx";
import { oneLine, titleKeyDown, useFocusMode, useSettingsPanel } from "./Canvas.tsx";
import { slugFollowsTitle, slugify } from "./slug.ts";
import { useDocumentEditor, type BaseForm } from "./useDocumentEditor.ts";
import { useNewDocument } from "./newDocument.ts";
import "../../../styles/staff.css";
import { LIMITS } from "@flock/shared/limits";
import { SLUG_MAX } from "@flock/shared/slug";

interface PageForm extends BaseForm {
  showInNav: boolean;
  seoDescription: string;
}

/** What the editor edits: a published page's working copy when it has one (the site keeps the live text). */
function formFromPage(page: AdminPageEditorFieldsFragment): PageForm {
  const source = page.working ?? page;
  return {
    title: source.title,
    slug: source.slug,
    slugAuto: slugFollowsTitle(source.slug, source.title, !!page.publishedAt),
    body: source.body,
    showInNav: source.showInNav,
    seoDescription: source.seoDescription,
  };
}

/** What "New page" shows before anything is typed (nothing is stored until then). */
const NEW_PAGE: AdminPageEditorFieldsFragment = {
  __typename: "Page",
  id: "",
  title: "",
  slug: "",
  path: "",
  body: "",
  status: "DRAFT",
  showInNav: false,
  navOrder: 0,
  seoDescription: "",
  publishedAt: null,
  revision: 0,
  updated: "",
  working: null,
  history: [],
};

/** `untitled`: what a draft is saved as while its title is empty (saving never waits for a title). */
function toInput(form: PageForm, untitled: string): PageInput {
  return {
    title: form.title.trim() ? form.title : untitled,
    slug: form.slugAuto ? "" : form.slug,
    body: form.body,
    showInNav: form.showInNav,
    seoDescription: form.seoDescription,
  };
}

export function AdminPageEditorPage() {
  const { id = "" } = useParams();
  const newPage = useNewDocument(id, "/admin/pages");
  if (newPage.isNew) return <NewPage key={newPage.key} onCreated={newPage.created} />;
  return <PageLoader key={id} id={id} />;
}

/** An empty editor until the first save creates the page; then the page as the cache has it. */
function NewPage({ onCreated }: { onCreated(id: string): void }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [created, setCreated] = useState<AdminPageEditorFieldsFragment | null>(null);
  const { data } = useAdminPageEditorPage({ variables: { id: created?.id ?? "" }, skip: !created, fetchPolicy: "cache-only" });
  usePageTitle(t("admin.content.pages.new"));
  return (
    <PageEditor
      page={data?.pageById ?? created ?? NEW_PAGE}
      onCreated={(page) => {
        // The editor reads the page from the cache from now on, as if it had been opened.
        client.writeQuery({ query: AdminPageEditorPageDocument, variables: { id: page.id }, data: { pageById: page } });
        setCreated(page);
        onCreated(page.id);
      }}
    />
  );
}

function PageLoader({ id }: { id: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error } = useAdminPageEditorPage({ variables: { id }, fetchPolicy: "network-only", nextFetchPolicy: "cache-first" });
  usePageTitle(data?.pageById?.title ?? t("admin.content.page.edit"));
  if (loading && !data) return <Loading />;
  if (error && !data) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!data?.pageById) {
    return (
      <div className="page">
        <h1>{t("notFound.title")}</h1>
        <Link to="/admin/pages">{t("admin.content.page.back")}</Link>
      </div>
    );
  }
  return <PageEditor page={data.pageById} />;
}

function PageEditor({ page, onCreated }: { page: AdminPageEditorFieldsFragment; onCreated?(page: AdminPageEditorFieldsFragment): void }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { canPublish } = usePermissions();
  const { format } = useChurchDateTime();
  // The page's id: "" for a new page until its first save creates it. Actions read the ref: one
  // clicked before that save ends (Publish saves first) must use the id the save just got.
  const pageId = useRef(page.id);
  if (page.id) pageId.current = page.id;
  const [isNew] = useState(!page.id);
  const storageKey = draftKey("page", page.id || "new");
  const [createPage] = useCreatePage();
  const [updatePage] = useUpdatePage();
  const [publishPage] = usePublishPage();
  const [unpublishPage] = useUnpublishPage();
  const [publishPageChanges] = usePublishPageChanges();
  const [discardPageChanges] = useDiscardPageChanges();
  const [restorePageRevision] = useRestorePageRevision();
  const focusMode = useFocusMode();
  const settingsPanel = useSettingsPanel("editor-side");
  /** The confirm step (checklist) open for "publish" or "update". */
  const [confirming, setConfirming] = useState<"publish" | "update" | null>(null);
  const [deletePage] = useDeletePage();

  const doc = useDocumentEditor<PageForm>({
    storageKey,
    revision: page.revision,
    serverForm: formFromPage(page),
    save: async (form, expectedRevision) => {
      const input = toInput(form, t("admin.content.page.untitled"));
      if (!pageId.current) {
        const created = (await createPage({ variables: { input } })).data!.createPage;
        pageId.current = created.id;
        onCreated?.(created);
        return created.revision;
      }
      const result = await updatePage({ variables: { id: pageId.current, input, expectedRevision } });
      return result.data!.updatePage.revision;
    },
    reload: async () => {
      const { data } = await client.query({ query: AdminPageEditorPageDocument, variables: { id: pageId.current }, fetchPolicy: "network-only" });
      const fresh = data?.pageById;
      if (!fresh) throw new Error("The page is gone");
      return { form: formFromPage(fresh), revision: fresh.revision };
    },
  });
  const { form, set, status, fieldErrors } = doc;
  const readOnly = !canPublish && page.status !== "DRAFT";
  const slug = form.slugAuto ? slugify(form.title) : form.slug;
  const showServer = (result: AdminPageEditorFieldsFragment) => doc.replace(formFromPage(result), result.revision);
  const top = (
    <EditorTop status={status} heading={page.id ? t("admin.content.page.edit") : t("admin.content.pages.new")} backTo="/admin/pages" backLabel={t("admin.content.page.back")} badge={<StatusBadge status={page.status} />}>
      {settingsPanel.button}
      {focusMode.button}
      <ContentPreview title={form.title} markdown={form.body} />
    </EditorTop>
  );

  return (
    <div className={`page editor-page${focusMode.className}${settingsPanel.className}`}>
      {top}
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
              <StatusBadge status={page.status} />{" "}
              {page.status === "PUBLISHED" && page.publishedAt && <span>{t("admin.content.publishedOn", { time: format(page.publishedAt) })}</span>}
            </p>
            {doc.notice && <Alert kind="success">{doc.notice}</Alert>}
            {doc.actionError && <Alert kind="error">{doc.actionError.message}</Alert>}
            {!canPublish ? (
              <p className="muted">{t("admin.content.onlyPublishers")}</p>
            ) : (
              <div className="workflow">
                {page.status === "DRAFT" ? (
                  <button
                    type="button"
                    className="button"
                    disabled={doc.busy}
                    onClick={() => setConfirming("publish")}
                  >
                    {t("admin.content.action.publish")}
                  </button>
                ) : (
                  <>
                    <UnpublishedChanges
                      pending={!!page.working}
                      canPublish={canPublish}
                      busy={doc.busy}
                      onUpdate={() => setConfirming("update")}
                      onDiscard={() => {
                        if (!window.confirm(t("admin.content.confirmDiscard"))) return;
                        void doc.runAction(async () => {
                          const result = (await discardPageChanges({ variables: { id: pageId.current } })).data?.discardPageChanges ?? null;
                          if (result) showServer(result);
                          return result;
                        }, t("admin.content.done.discarded"));
                      }}
                    />
                    <a className="button button--ghost" href={page.path} target="_blank" rel="noopener">
                      {t("admin.content.action.view")}
                    </a>
                    <button
                      type="button"
                      className="button button--ghost"
                      disabled={doc.busy}
                      onClick={() => void doc.runAction(async () => (await unpublishPage({ variables: { id: pageId.current } })).data?.unpublishPage ?? null, t("admin.content.done.unpublished"))}
                    >
                      {t("admin.content.action.unpublish")}
                    </button>
                  </>
                )}
                <button
                  type="button"
                  className="button button--danger-ghost"
                  disabled={doc.busy}
                  onClick={() => {
                    if (!window.confirm(t("admin.content.page.confirmDelete", { title: form.title }))) return;
                    void doc.runAction(async () => {
                      // A new page that was never saved has nothing to delete on the server.
                      if (pageId.current) await deletePage({ variables: { id: pageId.current } });
                      removeLocalCopy(storageKey);
                      await client.refetchQueries({ include: ["AdminPagesPage", "NavigationOrderEditor"] });
                      void navigate("/admin/pages", { replace: true });
                      return null;
                    }, t("admin.content.done.deleted"));
                  }}
                >
                  {t("admin.content.action.delete")}
                </button>
              </div>
            )}
          </section>

          <section className="card editor-card form" aria-labelledby="page-settings-title">
            <h2 id="page-settings-title">{t("admin.content.settings")}</h2>
            <TextField
              label={t("admin.content.field.slug")}
              value={slug}
              readOnly={readOnly}
              maxLength={SLUG_MAX}
              spellCheck={false}
              autoCapitalize="off"
              onChange={(e) => set({ slug: e.target.value, slugAuto: false })}
              hint={t("admin.content.field.slugHint", { path: `/p/${slug}` })}
              error={fieldErrors.slug}
            />
            <CheckboxField label={t("admin.content.field.showInNav")} hint={t("admin.content.field.showInNavHint")} checked={form.showInNav} disabled={readOnly} onChange={(e) => set({ showInNav: e.target.checked })} />
            <TextAreaField
              label={t("admin.content.field.seoDescription")}
              optionalText={t("common.optional")}
              hint={t("admin.content.field.seoDescriptionHint")}
              rows={3}
              maxLength={LIMITS.seoDescriptionMax}
              readOnly={readOnly}
              value={form.seoDescription}
              onChange={(e) => set({ seoDescription: e.target.value })}
              error={fieldErrors.seoDescription}
            />
          </section>
          <HistoryPanel
            entries={page.history}
            busy={doc.busy}
            readOnly={readOnly}
            onRestore={(entry) =>
              void doc.runAction(async () => {
                const result =
                  (await restorePageRevision({ variables: { id: pageId.current, revisionId: entry.id, expectedRevision: doc.autosave.currentRevision } })).data?.restorePageRevision ?? null;
                if (result) showServer(result);
                return result;
              }, t("admin.content.done.restored"))
            }
          />
        </aside>
      </div>
      <PublishChecklist
        open={confirming !== null}
        input={{ title: form.title, body: form.body, when: t("admin.content.checklist.now") }}
        confirmLabel={confirming === "update" ? t("admin.content.action.update") : t("admin.content.action.publish")}
        busy={doc.busy}
        onCancel={() => setConfirming(null)}
        onFixAlt={(id) => {
          setConfirming(null);
          document.querySelector<HTMLElement>(`[data-media-id="${id}"] button`)?.click();
        }}
        onConfirm={() => {
          const mode = confirming;
          setConfirming(null);
          if (mode === "update") {
            void doc.runAction(async () => (await publishPageChanges({ variables: { id: pageId.current } })).data?.publishPageChanges ?? null, t("admin.content.done.updated"));
          } else {
            void doc.runAction(async () => (await publishPage({ variables: { id: pageId.current } })).data?.publishPage ?? null, t("admin.content.done.published"));
          }
        }}
      />
    </div>
  );
}
