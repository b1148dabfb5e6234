import { useRef, useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import type { PageStatus, PostStatus } from "../../../gql/types.ts";
import type { MessageKey } from "../../../i18n/catalogs.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { TextAreaField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useAbilities } from "../../../lib/abilities.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { removeLocalCopy } from "../../../editor/autosave/autosave.ts";
import { BodyEditor, MediaLibraryLink } from "./BodyEditor.tsx";
import { draftKey, StatusBadge } from "./common.tsx";
import {
  ConflictPanel,
  EditorTop,
  KeptVersionNotice,
  RestoreOffer,
} from "../../../editor/autosave/EditorPanels.tsx";
import { ScheduleForm } from "./ScheduleForm.tsx";
import {
  HistoryPanel,
  PublishChecklist,
  UnpublishedChanges,
  type ChecklistInput,
  type HistoryEntry,
} from "./Revisions.tsx";
import { oneLine, titleKeyDown, useFocusMode, useSettingsPanel } from "./Canvas.tsx";
import { slugify } from "../../../editor/autosave/slug.ts";
import { useDocumentEditor, type BaseForm } from "../../../editor/autosave/useDocumentEditor.ts";
import { useNewDocument } from "./newDocument.ts";
import "../../../styles/staff.css";
import { LIMITS } from "@flock/shared/limits";
import { SLUG_MAX } from "@flock/shared/slug";

/*
 * The one editor screen for posts and pages. What differs between them (their fields, their
 * mutations, a post's cover, schedule and archive) comes in through a `DocumentKind`; the canvas,
 * autosave, conflicts, workflow, history and checklist are written once, here.
 */

/** What the screen needs of a post or a page, as the editor's query returns it. */
export interface EditorDocument {
  id: string;
  title: string;
  status: PostStatus | PageStatus;
  path: string;
  publishAt?: string | null;
  publishedAt?: string | null;
  /** Posts: the byline, and whether an API token (CONTENT_WRITE) wrote it. */
  authorName?: string;
  byApiToken?: boolean;
  revision: number;
  /** What the viewer may do with it (the server's word; PocketBase's rules decide). */
  can: { edit: boolean; publish: boolean; delete: boolean };
  /** A published document's changes not live yet. */
  working: object | null;
  history: readonly HistoryEntry[];
}

/** The server calls for one kind of document. Each returns the document as it is afterwards. */
export interface DocumentOperations<D extends EditorDocument, F extends BaseForm> {
  create(form: F): Promise<D>;
  /** Saves the form over `expectedRevision`; returns the new revision. */
  update(id: string, form: F, expectedRevision: number): Promise<number>;
  /** The document as the server has it now (null: deleted meanwhile). */
  fetch(id: string): Promise<D | null>;
  /** Publishes now, or at `publishAt` (kinds that can be scheduled). */
  publish(id: string, publishAt?: string): Promise<D | null>;
  unpublish(id: string): Promise<D | null>;
  publishChanges(id: string): Promise<D | null>;
  discardChanges(id: string): Promise<D | null>;
  restoreRevision(id: string, revisionId: string, expectedRevision: number): Promise<D | null>;
  remove(id: string): Promise<void>;
  /** Kinds that can be archived (posts). */
  archive?(id: string): Promise<D | null>;
}

/** The messages a kind uses ("post" or "page" flavoured). */
interface KindMessages {
  new: MessageKey;
  edit: MessageKey;
  back: MessageKey;
  confirmDelete: MessageKey;
}

export interface DocumentKind<D extends EditorDocument> {
  name: "post" | "page";
  /** The staff list the editor comes from and returns to. */
  listPath: string;
  /** The public address's prefix, shown under the slug. */
  publicPrefix: string;
  /** What "New" shows before anything is typed (nothing is stored until then). */
  blank: D;
  messages: KindMessages;
  /** Queries to refresh after a delete (the lists it appeared in). */
  listQueries: string[];
  /** Whether it can be scheduled for later. */
  schedulable: boolean;
  /** The editor's query: from the network when opening, from the cache once a new one is created. */
  useDocument(
    id: string,
    mode: "open" | "created",
  ): { document: D | null | undefined; loading: boolean; error: unknown };
  /** Puts a created document in the cache where `useDocument(id, "created")` reads it. */
  useRemember(): (document: D) => void;
}

/** /admin/<list>/:id — the editor of one document, or of a new one (`:id` = "new"). */
export function DocumentEditorRoute<D extends EditorDocument>({
  kind,
  render,
}: {
  kind: DocumentKind<D>;
  render(document: D, onCreated?: (created: D) => void): ReactNode;
}) {
  const { id = "" } = useParams();
  const fresh = useNewDocument(id, kind.listPath);
  if (fresh.isNew)
    return <NewDocument key={fresh.key} kind={kind} render={render} onCreated={fresh.created} />;
  return <DocumentLoader key={id} id={id} kind={kind} render={render} />;
}

/** An empty editor until the first save creates the document; then the document as the cache has it. */
function NewDocument<D extends EditorDocument>({
  kind,
  render,
  onCreated,
}: {
  kind: DocumentKind<D>;
  render(document: D, onCreated: (created: D) => void): ReactNode;
  onCreated(id: string): void;
}) {
  const { t } = useI18n();
  const remember = kind.useRemember();
  const abilities = useAbilities();
  const [created, setCreated] = useState<D | null>(null);
  const { document } = kind.useDocument(created?.id ?? "", "created");
  usePageTitle(t(kind.messages.new));
  // Not stored yet, so the server cannot say: a draft, which its writer may edit; publishers may
  // publish (and delete) it, as they may any draft.
  const blank = {
    ...kind.blank,
    can: {
      ...kind.blank.can,
      edit: true,
      publish: abilities.publishContent,
      delete: abilities.publishContent,
    },
  };
  return render(document ?? created ?? blank, (doc) => {
    // The editor reads the document from the cache from now on, as if it had been opened.
    remember(doc);
    setCreated(doc);
    onCreated(doc.id);
  });
}

function DocumentLoader<D extends EditorDocument>({
  id,
  kind,
  render,
}: {
  id: string;
  kind: DocumentKind<D>;
  render(document: D): ReactNode;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { document, loading, error } = kind.useDocument(id, "open");
  usePageTitle(document?.title ?? t(kind.messages.edit));
  if (loading && !document) return <Loading />;
  if (error && !document) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!document) {
    return (
      <div className="page">
        <h1>{t("notFound.title")}</h1>
        <Link to={kind.listPath}>{t(kind.messages.back)}</Link>
      </div>
    );
  }
  return render(document);
}

/** What a kind's own fields are given: the form, how to change it, and whether it may. */
export interface FieldsContext<F extends BaseForm> {
  form: F;
  set(patch: Partial<F>): void;
  readOnly: boolean;
  fieldErrors: Record<string, string>;
}

export function DocumentEditorScreen<D extends EditorDocument, F extends BaseForm>({
  kind,
  document,
  onCreated,
  formOf,
  operations,
  onServer,
  preview,
  settings,
  checklist,
  onFixAlt,
  children,
}: {
  kind: DocumentKind<D>;
  document: D;
  onCreated?(created: D): void;
  /** What the editor edits: a published document's working copy when it has one. */
  formOf(document: D): F;
  operations: DocumentOperations<D, F>;
  /** Called with what the server returned after a reload, discard or restore. */
  onServer?(document: D): void;
  /** The preview button in the top bar. */
  preview(form: F): ReactNode;
  /** The kind's own settings, under the address in the settings card. */
  settings(context: FieldsContext<F>): ReactNode;
  /** The kind's own lines of the pre-publish checklist. */
  checklist(form: F): Omit<ChecklistInput, "title" | "body" | "when">;
  /** The checklist's "add alt text" for an image the kind handles itself (a cover); false: an image in the text. */
  onFixAlt?(mediaId: string): boolean;
  /** Dialogs of the kind's own. */
  children?: ReactNode;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const navigate = useNavigate();
  const { format } = useChurchDateTime();
  // The document's id: "" for a new one until its first save creates it. Actions read the ref: one
  // clicked before that save ends (Publish saves first) must use the id the save just got.
  const documentId = useRef(document.id);
  if (document.id) documentId.current = document.id;
  const [isNew] = useState(!document.id);
  const storageKey = draftKey(kind.name, document.id || "new");
  const focusMode = useFocusMode();
  const settingsPanel = useSettingsPanel("editor-side");
  /** The confirm step (checklist) open for "publish" or "update". */
  const [confirming, setConfirming] = useState<"publish" | "update" | null>(null);

  const doc = useDocumentEditor<F>({
    storageKey,
    revision: document.revision,
    serverForm: formOf(document),
    save: async (form, expectedRevision) => {
      if (!documentId.current) {
        const created = await operations.create(form);
        documentId.current = created.id;
        onCreated?.(created);
        return created.revision;
      }
      return operations.update(documentId.current, form, expectedRevision);
    },
    reload: async () => {
      const fresh = await operations.fetch(documentId.current);
      if (!fresh) throw new Error(`The ${kind.name} is gone`);
      onServer?.(fresh);
      return { form: formOf(fresh), revision: fresh.revision };
    },
  });
  const { form, set, status, fieldErrors } = doc;
  // Publishers only may change what is live: the server says so per document (a new one is a draft).
  const { can } = document;
  const canPublish = can.publish;
  const readOnly = !can.edit;
  const slug = form.slugAuto ? slugify(form.title) : form.slug;
  const id = () => documentId.current;

  /** Show what the server returned after discarding or restoring (the editor reloads). */
  async function showServer(result: Promise<D | null>): Promise<D | null> {
    const server = await result;
    if (server) {
      onServer?.(server);
      doc.replace(formOf(server), server.revision);
    }
    return server;
  }

  const unpublishLabel =
    document.status === "SCHEDULED"
      ? t("admin.content.action.unschedule")
      : document.status === "ARCHIVED"
        ? t("admin.content.action.toDraft")
        : t("admin.content.action.unpublish");

  return (
    <div className={`page editor-page${focusMode.className}${settingsPanel.className}`}>
      <EditorTop
        status={status}
        heading={document.id ? t(kind.messages.edit) : t(kind.messages.new)}
        backTo={kind.listPath}
        backLabel={t(kind.messages.back)}
        badge={<StatusBadge status={document.status} />}
      >
        {settingsPanel.button}
        {focusMode.button}
        {preview(form)}
      </EditorTop>
      {/* What this device kept, compared with the text below (which stays in view). */}
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
              set((form.slugAuto ? { title, slug: slugify(title) } : { title }) as Partial<F>);
            }}
            error={fieldErrors.title}
          />
          <BodyEditor
            editorKey={doc.editorKey}
            initialMarkdown={doc.editorMarkdown}
            markdown={form.body}
            onChange={(body) => set({ body } as Partial<F>)}
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
              <StatusBadge status={document.status} />{" "}
              {document.status === "SCHEDULED" && document.publishAt && (
                <span>{t("admin.content.post.scheduledFor", { time: format(document.publishAt) })}</span>
              )}
              {document.status === "PUBLISHED" && document.publishedAt && (
                <span>{t("admin.content.publishedOn", { time: format(document.publishedAt) })}</span>
              )}
            </p>
            {document.byApiToken && (
              <p className="small">
                {t("admin.content.post.byApiToken", { name: document.authorName ?? "" })}
              </p>
            )}
            {doc.notice && <Alert kind="success">{doc.notice}</Alert>}
            {doc.actionError && <Alert kind="error">{doc.actionError.message}</Alert>}
            {!canPublish ? (
              <p className="muted">{t("admin.content.onlyPublishers")}</p>
            ) : (
              <div className="workflow">
                {document.status !== "PUBLISHED" && (
                  <button
                    type="button"
                    className="button"
                    disabled={doc.busy}
                    onClick={() => setConfirming("publish")}
                  >
                    {document.status === "ARCHIVED"
                      ? t("admin.content.action.republish")
                      : t("admin.content.action.publish")}
                  </button>
                )}
                {kind.schedulable && document.status !== "PUBLISHED" && (
                  <ScheduleForm
                    current={document.status === "SCHEDULED" ? (document.publishAt ?? null) : null}
                    busy={doc.busy}
                    error={fieldErrors.publishAt}
                    onSchedule={(iso) =>
                      doc.runAction(
                        () => operations.publish(id(), iso),
                        t("admin.content.done.scheduled", { time: format(iso) }),
                      )
                    }
                  />
                )}
                {document.status === "PUBLISHED" && (
                  <>
                    <UnpublishedChanges
                      pending={!!document.working}
                      canPublish={canPublish}
                      busy={doc.busy}
                      onUpdate={() => setConfirming("update")}
                      onDiscard={() => {
                        if (!window.confirm(t("admin.content.confirmDiscard"))) return;
                        void doc.runAction(
                          () => showServer(operations.discardChanges(id())),
                          t("admin.content.done.discarded"),
                        );
                      }}
                    />
                    <a className="button button--ghost" href={document.path} target="_blank" rel="noopener">
                      {t("admin.content.action.view")}
                    </a>
                  </>
                )}
                {document.status !== "DRAFT" && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={doc.busy}
                    onClick={() =>
                      void doc.runAction(
                        () => operations.unpublish(id()),
                        t("admin.content.done.unpublished"),
                      )
                    }
                  >
                    {unpublishLabel}
                  </button>
                )}
                {operations.archive && document.status !== "ARCHIVED" && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={doc.busy}
                    onClick={() =>
                      void doc.runAction(() => operations.archive!(id()), t("admin.content.done.archived"))
                    }
                  >
                    {t("admin.content.action.archive")}
                  </button>
                )}
                {can.delete && (
                  <button
                    type="button"
                    className="button button--danger-ghost"
                    disabled={doc.busy}
                    onClick={() => {
                      if (!window.confirm(t(kind.messages.confirmDelete, { title: form.title }))) return;
                      void doc.runAction(async () => {
                        // A new document that was never saved has nothing to delete on the server.
                        if (id()) await operations.remove(id());
                        removeLocalCopy(storageKey);
                        await client.refetchQueries({ include: kind.listQueries });
                        void navigate(kind.listPath, { replace: true });
                        return null;
                      }, t("admin.content.done.deleted"));
                    }}
                  >
                    {t("admin.content.action.delete")}
                  </button>
                )}
              </div>
            )}
          </section>

          <section className="card editor-card form" aria-labelledby="document-settings-title">
            <h2 id="document-settings-title">{t("admin.content.settings")}</h2>
            <TextField
              label={t("admin.content.field.slug")}
              value={slug}
              readOnly={readOnly}
              maxLength={SLUG_MAX}
              spellCheck={false}
              autoCapitalize="off"
              onChange={(e) => set({ slug: e.target.value, slugAuto: false } as Partial<F>)}
              hint={t("admin.content.field.slugHint", { path: `${kind.publicPrefix}${slug}` })}
              error={fieldErrors.slug}
            />
            {settings({ form, set, readOnly, fieldErrors })}
          </section>
          <HistoryPanel
            entries={document.history}
            busy={doc.busy}
            readOnly={readOnly}
            onRestore={(entry) =>
              void doc.runAction(
                () => showServer(operations.restoreRevision(id(), entry.id, doc.autosave.currentRevision)),
                t("admin.content.done.restored"),
              )
            }
          />
        </aside>
      </div>
      <PublishChecklist
        open={confirming !== null}
        input={{
          title: form.title,
          body: form.body,
          when: t("admin.content.checklist.now"),
          ...checklist(form),
        }}
        confirmLabel={
          confirming === "update" ? t("admin.content.action.update") : t("admin.content.action.publish")
        }
        busy={doc.busy}
        onCancel={() => setConfirming(null)}
        onFixAlt={(mediaId) => {
          setConfirming(null);
          if (onFixAlt?.(mediaId)) return;
          window.document.querySelector<HTMLElement>(`[data-media-id="${mediaId}"] button`)?.click();
        }}
        onConfirm={() => {
          const mode = confirming;
          setConfirming(null);
          if (mode === "update")
            void doc.runAction(() => operations.publishChanges(id()), t("admin.content.done.updated"));
          else void doc.runAction(() => operations.publish(id()), t("admin.content.done.published"));
        }}
      />
      {children}
    </div>
  );
}
