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
import { CheckboxField, TextAreaField } from "../../../components/Field.tsx";
import { ContentPreview } from "./ContentPreview.tsx";
import {
  DocumentEditorRoute,
  DocumentEditorScreen,
  type DocumentKind,
  type DocumentOperations,
  type FieldsContext,
} from "./DocumentEditor.tsx";
import { slugFollowsTitle } from "../../../editor/autosave/slug.ts";
import type { BaseForm } from "../../../editor/autosave/useDocumentEditor.ts";
import { LIMITS } from "@flock/shared/limits";

type Page = AdminPageEditorFieldsFragment;

interface PageForm extends BaseForm {
  showInNav: boolean;
  seoDescription: string;
}

/** What the editor edits: a published page's working copy when it has one (the site keeps the live text). */
function formFromPage(page: Page): PageForm {
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

const PAGE: DocumentKind<Page> = {
  name: "page",
  listPath: "/admin/pages",
  publicPrefix: "/p/",
  blank: {
    __typename: "Page",
    id: "",
    can: { __typename: "ContentCan", edit: true, publish: false, delete: false },
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
  },
  messages: {
    new: "admin.content.pages.new",
    edit: "admin.content.page.edit",
    back: "admin.content.page.back",
    confirmDelete: "admin.content.page.confirmDelete",
  },
  listQueries: ["AdminPagesPage", "NavigationOrderEditor"],
  schedulable: false,
  useDocument(id, mode) {
    const { data, loading, error } = useAdminPageEditorPage(
      mode === "open"
        ? { variables: { id }, fetchPolicy: "network-only", nextFetchPolicy: "cache-first" }
        : { variables: { id }, skip: !id, fetchPolicy: "cache-only" },
    );
    return { document: data?.pageById, loading, error };
  },
  useRemember() {
    const client = useApolloClient();
    return (page) =>
      client.writeQuery({
        query: AdminPageEditorPageDocument,
        variables: { id: page.id },
        data: { pageById: page },
      });
  },
};

/** The page mutations, in the shape the editor screen calls them. */
function usePageOperations(): DocumentOperations<Page, PageForm> {
  const { t } = useI18n();
  const client = useApolloClient();
  const [createPage] = useCreatePage();
  const [updatePage] = useUpdatePage();
  const [publishPage] = usePublishPage();
  const [unpublishPage] = useUnpublishPage();
  const [deletePage] = useDeletePage();
  const [publishPageChanges] = usePublishPageChanges();
  const [discardPageChanges] = useDiscardPageChanges();
  const [restorePageRevision] = useRestorePageRevision();
  /** Saving never waits for a title: an empty one is saved as "Untitled page". */
  const toInput = (form: PageForm): PageInput => ({
    title: form.title.trim() ? form.title : t("admin.content.page.untitled"),
    // Empty: the gateway generates the address from the title (and keeps it free).
    slug: form.slugAuto ? "" : form.slug,
    body: form.body,
    showInNav: form.showInNav,
    seoDescription: form.seoDescription,
  });
  return {
    create: async (form) => (await createPage({ variables: { input: toInput(form) } })).data!.createPage,
    update: async (id, form, expectedRevision) =>
      (await updatePage({ variables: { id, input: toInput(form), expectedRevision } })).data!.updatePage
        .revision,
    fetch: async (id) =>
      (
        await client.query({
          query: AdminPageEditorPageDocument,
          variables: { id },
          fetchPolicy: "network-only",
        })
      ).data?.pageById ?? null,
    publish: async (id) => (await publishPage({ variables: { id } })).data?.publishPage ?? null,
    unpublish: async (id) => (await unpublishPage({ variables: { id } })).data?.unpublishPage ?? null,
    publishChanges: async (id) =>
      (await publishPageChanges({ variables: { id } })).data?.publishPageChanges ?? null,
    discardChanges: async (id) =>
      (await discardPageChanges({ variables: { id } })).data?.discardPageChanges ?? null,
    restoreRevision: async (id, revisionId, expectedRevision) =>
      (await restorePageRevision({ variables: { id, revisionId, expectedRevision } })).data
        ?.restorePageRevision ?? null,
    remove: async (id) => void (await deletePage({ variables: { id } })),
  };
}

export function AdminPageEditorPage() {
  return (
    <DocumentEditorRoute
      kind={PAGE}
      render={(page, onCreated) => <PageEditor page={page} onCreated={onCreated} />}
    />
  );
}

function PageEditor({ page, onCreated }: { page: Page; onCreated?(page: Page): void }) {
  const operations = usePageOperations();
  return (
    <DocumentEditorScreen
      kind={PAGE}
      document={page}
      onCreated={onCreated}
      formOf={formFromPage}
      operations={operations}
      preview={(form) => <ContentPreview title={form.title} markdown={form.body} />}
      settings={(context) => <PageSettings {...context} />}
      checklist={() => ({})}
    />
  );
}

/** A page's own settings: in the main navigation, and its description for search engines. */
function PageSettings({ form, set, readOnly, fieldErrors }: FieldsContext<PageForm>) {
  const { t } = useI18n();
  return (
    <>
      <CheckboxField
        label={t("admin.content.field.showInNav")}
        hint={t("admin.content.field.showInNavHint")}
        checked={form.showInNav}
        disabled={readOnly}
        onChange={(e) => set({ showInNav: e.target.checked })}
      />
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
    </>
  );
}
