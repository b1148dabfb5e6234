import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, pbCall, staleRevision } from "../../errors.ts";
import type { PageRecord, PostRecord, RevisionRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { PageInput, PostInput, Resolvers } from "../__generated__/types.ts";
import { keyedConnection, keyedPageArgs, keysetAfter, sortOf, type SortKey } from "../pagination.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import type { GraphQLError } from "graphql";
import { chooseSlug, slugTaken } from "../../pocketbase/slugs.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { mediaByIds } from "../../pocketbase/media.ts";
import { renderBody } from "../../markdown/body.ts";
import { requireAltText } from "./save-checks.ts";
import {
  deleteWorkingCopy,
  readHistory,
  readHistoryEntry,
  readWorkingCopy,
  recordHistory,
  saveWorkingCopy,
  userWriter,
  workingOf,
  type RevisionContent,
  type Writer,
} from "./revisions.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull } from "../../pocketbase/dates.ts";
import { pocketBaseNow, toPocketBaseDate } from "../../pocketbase/dates.ts";
import { can } from "../../access/abilities.ts";
import { clientPostCan, contentCan, readsPostDrafts } from "../../access/content.ts";
import { publishedRangeFilter } from "../published-range.ts";

// The orders the SDL promises. A never-published post has an empty publishedAt, which sorts last.
const PAGE_ORDER: SortKey<PageRecord>[] = [
  { field: "navOrder", descending: false, value: (p) => p.navOrder },
  { field: "title", descending: false, value: (p) => p.title },
  { field: "id", descending: false, value: (p) => p.id },
];
const POSTS_NEWEST: SortKey<PostRecord>[] = [
  { field: "publishedAt", descending: true, value: (p) => p.publishedAt },
  { field: "created", descending: true, value: (p) => p.created },
  { field: "id", descending: true, value: (p) => p.id },
];
// editedAt, not updated: autosave of a live post writes its working copy, which touches only editedAt.
const POSTS_LAST_EDITED: SortKey<PostRecord>[] = [
  { field: "editedAt", descending: true, value: (p) => p.editedAt },
  { field: "id", descending: true, value: (p) => p.id },
];

/** The most pages a menu shows. */
const NAV_MAX = 50;

/**
 * Published pages shown in the navigation, in the editors' order. Every page view reads it, so for
 * everyone but editors it is the rule's own list (published pages) read without a filter, menu pages
 * first: a filtered list that comes back empty (a church with no menu pages yet) is answered after
 * PocketBase's per-IP random delay on a busy Sunday. Editors, who also read drafts, filter (they are few).
 */
async function navigation(ctx: GatewayContext) {
  const editor = can(await ctx.viewer(), "editContent");
  const pages = await pbCall(() =>
    ctx.pb.collection("pages").getList<PageRecord>(1, NAV_MAX, {
      filter: editor ? 'status = "published" && showInNav = true' : "",
      sort: "-showInNav,navOrder,title",
      fields: "title,slug,showInNav",
      skipTotal: true,
    }),
  );
  return pages.items.filter((p) => p.showInNav).map((p) => ({ title: p.title, path: `/p/${p.slug}` }));
}

/** Read one record as the caller; null when it does not exist or the rules hide it. */
async function findOne<T>(
  ctx: GatewayContext,
  collection: string,
  filter: string,
  expand?: string,
): Promise<T | null> {
  const page = await pbCall(() =>
    ctx.pb
      .collection(collection)
      .getList<T>(1, 1, { filter, skipTotal: true, ...(expand ? { expand } : {}) }),
  );
  return page.items[0] ?? null;
}

async function requireRecord<T>(
  ctx: GatewayContext,
  collection: string,
  id: string,
  expand?: string,
): Promise<T> {
  return pbCall(() => ctx.pb.collection(collection).getOne<T>(id, expand ? { expand } : {}));
}

function validatePage(input: PageInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const body = input.body ?? undefined;
  if (body !== undefined && body.length > LIMITS.markdownMax)
    v.add("body", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const seoDescription =
    input.seoDescription == null
      ? undefined
      : v.text("seoDescription", input.seoDescription, { max: LIMITS.seoDescriptionMax });
  v.done();
  return { title, body, seoDescription, showInNav: input.showInNav ?? undefined };
}

function validatePost(input: PostInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const body = input.body ?? undefined;
  if (body !== undefined && body.length > LIMITS.markdownMax)
    v.add("body", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const summary =
    input.summary == null ? undefined : v.text("summary", input.summary, { max: LIMITS.summaryMax });
  v.done();
  return {
    title,
    body,
    summary,
    cover: input.coverId === undefined ? undefined : (input.coverId ?? ""),
    pinned: input.pinned ?? undefined,
    audience: input.audience ?? undefined,
  };
}

const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

/** A post's form fields besides title and body, as a revision keeps them. */
const postFields = (p: PostRecord) => ({
  slug: p.slug,
  summary: p.summary ?? "",
  cover: p.cover ?? "",
  pinned: !!p.pinned,
  audience: p.audience,
});
const pageFields = (p: PageRecord) => ({
  slug: p.slug,
  seoDescription: p.seoDescription ?? "",
  showInNav: !!p.showInNav,
});
const contentOf = (
  record: { title: string; body: string },
  fields: Record<string, unknown>,
): RevisionContent => ({ title: record.title, body: record.body ?? "", fields });

/**
 * A person's content operation. An API token is a valid identity but not a person: whatever it may
 * not do here answers FORBIDDEN (not UNAUTHENTICATED, which would tell it to sign in).
 */
async function requirePerson(ctx: GatewayContext) {
  if (ctx.apiClient) throw forbidden();
  return requireViewer(ctx);
}

/**
 * Who writes a post: a signed-in person, or an API token with the content.write scope (drafts it
 * creates and its own drafts only — PocketBase's rules hold it to that; see
 * pb_migrations/1732540000_content_write_scope.js). A token without the scope: FORBIDDEN.
 */
async function requirePostWriter(ctx: GatewayContext): Promise<Writer> {
  if (ctx.apiClient) {
    const { client } = ctx.apiClient;
    if (!client.scopes.includes("content.write")) throw forbidden();
    return { kind: "client", id: client.id, name: client.name };
  }
  return userWriter(await requireViewer(ctx));
}

/** A post's attribution when it is created. */
const createdBy = (writer: Writer) =>
  writer.kind === "client"
    ? { authorClient: writer.id, authorName: writer.name, updatedByClient: writer.id }
    : { author: writer.id, authorName: writer.name, updatedBy: writer.id };
/** Who saved a post or page last (posts name a client or a person; pages only people). */
const savedBy = (kind: "post" | "page", writer: Writer) =>
  writer.kind === "client"
    ? { updatedByClient: writer.id, updatedBy: "" }
    : kind === "post"
      ? { updatedBy: writer.id, updatedByClient: "" }
      : { updatedBy: writer.id };

/**
 * Save a post or page as its editor sees it: a published one into its working copy (the site is
 * unchanged until "Update"), any other into the record. Missing alt text never blocks a save (only
 * publishing). Returns the record with its working copy attached.
 */
async function saveDocument<R extends PostRecord | PageRecord>(
  ctx: GatewayContext,
  writer: Writer,
  kind: "post" | "page",
  current: R,
  expectedRevision: number,
  change: {
    title: string;
    body: string | undefined;
    slugInput: string | null | undefined;
    fields: Record<string, unknown>;
  },
): Promise<R> {
  const collection = kind === "post" ? "posts" : "pages";
  const base = kind === "post" ? postFields(current as PostRecord) : pageFields(current as PageRecord);
  const working = await workingOf(ctx, kind, current);
  const effective = working ?? current;
  if (effective.revision !== expectedRevision) throw staleRevision(effective);
  const before = { ...base, ...(working?.fields ?? {}) } as Record<string, unknown> & { slug: string };
  const slug =
    change.slugInput === undefined || change.slugInput === before.slug
      ? before.slug
      : await chooseSlug(ctx.pb, collection, change.slugInput, change.title, current.id);
  const content: RevisionContent = {
    title: change.title,
    body: change.body ?? effective.body ?? "",
    fields: { ...before, ...defined(change.fields), slug },
  };
  if (working || current.status === "published") {
    const saved = await saveWorkingCopy(
      ctx,
      kind,
      current.id,
      working,
      content,
      expectedRevision + 1,
      writer,
    );
    await recordHistory(ctx, kind, current.id, content, writer, false);
    return { ...current, working: saved };
  }
  await writeAsCaller(() =>
    ctx.pb.collection(collection).update(current.id, {
      title: content.title,
      body: content.body,
      ...content.fields,
      revision: current.revision + 1,
      ...savedBy(kind, writer),
    }),
  );
  await recordHistory(ctx, kind, current.id, content, writer, false);
  const fresh = await requireRecord<R>(ctx, collection, current.id, kind === "post" ? "cover" : undefined);
  return { ...fresh, working: null };
}

/** "Update": the working copy goes live (alt text required), and is kept in the history. */
async function publishChanges<R extends PostRecord | PageRecord>(
  ctx: GatewayContext,
  writer: Writer,
  kind: "post" | "page",
  current: R,
): Promise<R> {
  const collection = kind === "post" ? "posts" : "pages";
  const working = await readWorkingCopy(ctx, kind, current.id);
  if (!working) return { ...current, working: null };
  await requireAltText(ctx.pb, working.body);
  const fields = {
    ...(kind === "post" ? postFields(current as PostRecord) : pageFields(current as PageRecord)),
    ...(working.fields ?? {}),
  };
  await writeAsCaller(() =>
    ctx.pb.collection(collection).update(current.id, {
      title: working.title,
      body: working.body,
      ...fields,
      revision: working.revision + 1,
      ...savedBy(kind, writer),
    }),
  );
  await deleteWorkingCopy(ctx, working);
  await recordHistory(ctx, kind, current.id, contentOf(working, fields), writer, true);
  const fresh = await requireRecord<R>(ctx, collection, current.id, kind === "post" ? "cover" : undefined);
  return { ...fresh, working: null };
}

async function discardChanges<R extends PostRecord | PageRecord>(
  ctx: GatewayContext,
  kind: "post" | "page",
  current: R,
): Promise<R> {
  const working = await readWorkingCopy(ctx, kind, current.id);
  if (working) await deleteWorkingCopy(ctx, working);
  return { ...current, working: null };
}

/**
 * A published document leaving the site (unpublish, archive): its working copy becomes the
 * record's text (what the editor sees stays what they edit), with the revision after it.
 */
async function takeOffSite(
  ctx: GatewayContext,
  kind: "post" | "page",
  current: PostRecord | PageRecord,
  change: Record<string, unknown>,
): Promise<void> {
  const collection = kind === "post" ? "posts" : "pages";
  const working = current.status === "published" ? await readWorkingCopy(ctx, kind, current.id) : null;
  const content = working ? { title: working.title, body: working.body, ...(working.fields ?? {}) } : {};
  await writeAsCaller(() =>
    ctx.pb
      .collection(collection)
      .update(current.id, { ...content, ...change, revision: (working?.revision ?? current.revision) + 1 }),
  );
  if (working) await deleteWorkingCopy(ctx, working);
}

/** Fields of a history entry as a save's change. */
function changeFrom(entry: RevisionRecord) {
  const fields = { ...(entry.fields ?? {}) };
  const slugInput = typeof fields.slug === "string" ? fields.slug : undefined;
  delete fields.slug;
  return { title: entry.title, body: entry.body, slugInput, fields };
}

/** The working copy as GraphQL's WorkingCopy reads it. */
const workingField = (w: RevisionRecord, name: string) => (w.fields ?? {})[name];

function validatePublishAt(publishAt: string | null | undefined): Date | null {
  if (!publishAt) return null;
  const date = new Date(publishAt);
  if (Number.isNaN(date.getTime()))
    throw badUserInput({ publishAt: { code: "invalid_date", message: "Use a valid date and time." } });
  return date;
}

export const contentResolvers: Resolvers = {
  Query: {
    page: (_, { slug }, ctx) => findOne<PageRecord>(ctx, "pages", ctx.pb.filter("slug = {:slug}", { slug })),
    pageById: (_, { id }, ctx) => findOne<PageRecord>(ctx, "pages", ctx.pb.filter("id = {:id}", { id })),
    async pages(_, { first, after, search, status }, ctx) {
      const { size, after: cursor } = keyedPageArgs(first, after, 50, PAGE_ORDER);
      const filters = [
        search?.trim()
          ? ctx.pb.filter("(title ~ {:q} || body ~ {:q})", { q: search.trim().slice(0, LIMITS.searchMax) })
          : "",
        status ? ctx.pb.filter("status = {:s}", { s: status }) : "",
      ].filter(Boolean);
      const filter = [...filters, cursor ? keysetAfter(ctx.pb, PAGE_ORDER, cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      const rows = await pbCall(() =>
        ctx.pb
          .collection("pages")
          .getList<PageRecord>(1, size + 1, { filter, sort: sortOf(PAGE_ORDER), skipTotal: true }),
      );
      return keyedConnection(
        rows.items,
        size,
        PAGE_ORDER,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("pages").getList(1, 1, { filter: filters.join(" && "), fields: "id" }),
            )
          ).totalItems,
      );
    },
    navigation: (_, __, ctx) => navigation(ctx),
    post: (_, { slug }, ctx) =>
      findOne<PostRecord>(ctx, "posts", ctx.pb.filter("slug = {:slug}", { slug }), "cover"),
    postById: (_, { id }, ctx) =>
      findOne<PostRecord>(ctx, "posts", ctx.pb.filter("id = {:id}", { id }), "cover"),
    async posts(_, { first, after, search, status, orderBy, publishedAfter, publishedBefore }, ctx) {
      const order = orderBy === "LAST_EDITED" ? POSTS_LAST_EDITED : POSTS_NEWEST;
      const { size, after: cursor } = keyedPageArgs(first, after, 10, order);
      // Published posts, for a caller who reads no drafts, are the list rule's own answer: no filter.
      const ruleSays =
        status === "published" && !readsPostDrafts(await ctx.viewer(), ctx.apiClient?.client ?? null);
      const filters = [
        search?.trim()
          ? ctx.pb.filter("(title ~ {:q} || summary ~ {:q} || body ~ {:q})", {
              q: search.trim().slice(0, LIMITS.searchMax),
            })
          : "",
        status && !ruleSays ? ctx.pb.filter("status = {:s}", { s: status }) : "",
        ...publishedRangeFilter(ctx.pb, publishedAfter, publishedBefore),
      ].filter(Boolean);
      const filter = [...filters, cursor ? keysetAfter(ctx.pb, order, cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      const rows = await pbCall(() =>
        ctx.pb.collection("posts").getList<PostRecord>(1, size + 1, {
          filter,
          sort: sortOf(order),
          skipTotal: true,
          expand: "cover",
        }),
      );
      return keyedConnection(
        rows.items,
        size,
        order,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("posts").getList(1, 1, { filter: filters.join(" && "), fields: "id" }),
            )
          ).totalItems,
      );
    },
    async homeNews(_, { limit }, ctx) {
      const count = Math.min(Math.max(limit ?? 4, 1), 12);
      // On every home page; see posts above (a church that has not posted yet).
      const drafts = readsPostDrafts(await ctx.viewer(), ctx.apiClient?.client ?? null);
      const rows = await pbCall(() =>
        ctx.pb.collection("posts").getList<PostRecord>(1, count, {
          filter: drafts ? 'status = "published"' : "",
          sort: "-pinned,-publishedAt,-id",
          skipTotal: true,
          expand: "cover",
        }),
      );
      return rows.items;
    },
    async previewMarkdown(_, { markdown }, ctx) {
      await requireViewer(ctx);
      if (markdown.length > LIMITS.markdownMax)
        throw badUserInput({
          markdown: { code: "too_long", message: `Use at most ${LIMITS.markdownMax} characters.` },
        });
      return renderBody(ctx, `preview:${markdown.length}:${hash(markdown)}`, markdown);
    },
  },

  Mutation: {
    async createPage(_, { input }, ctx) {
      const viewer = await requirePerson(ctx);
      const data = validatePage(input);
      const slug = await chooseSlug(ctx.pb, "pages", input.slug, data.title);
      return writeAsCaller(() =>
        ctx.pb.collection("pages").create<PageRecord>(
          defined({
            ...data,
            body: data.body ?? "",
            slug,
            status: "draft",
            revision: 1,
            updatedBy: viewer.id,
            navOrder: 1000,
          }),
        ),
      );
    },
    async updatePage(_, { id, input, expectedRevision }, ctx) {
      const viewer = await requirePerson(ctx);
      const data = validatePage(input);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      const { title, body, ...fields } = data;
      return saveDocument(ctx, userWriter(viewer), "page", current, expectedRevision, {
        title,
        body,
        slugInput: input.slug,
        fields,
      });
    },
    async publishPageChanges(_, { id }, ctx) {
      // Putting changes live needs publishContent (the pages rules say the same when there are changes).
      await requirePerson(ctx);
      const viewer = await requireAbility(ctx, "publishContent");
      return publishChanges(
        ctx,
        userWriter(viewer),
        "page",
        await requireRecord<PageRecord>(ctx, "pages", id),
      );
    },
    async discardPageChanges(_, { id }, ctx) {
      await requirePerson(ctx);
      await requireAbility(ctx, "editContent");
      return discardChanges(ctx, "page", await requireRecord<PageRecord>(ctx, "pages", id));
    },
    async restorePageRevision(_, { id, revisionId, expectedRevision }, ctx) {
      const viewer = await requirePerson(ctx);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      const entry = await readHistoryEntry(ctx, "page", id, revisionId);
      return saveDocument(ctx, userWriter(viewer), "page", current, expectedRevision, changeFrom(entry));
    },
    async publishPage(_, { id }, ctx) {
      const viewer = await requirePerson(ctx);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      await requireAltText(ctx.pb, current.body);
      const published = await writeAsCaller(() =>
        ctx.pb.collection("pages").update<PageRecord>(id, {
          status: "published",
          publishedAt: current.publishedAt || pocketBaseNow(),
          revision: current.revision + 1,
        }),
      );
      await recordHistory(ctx, "page", id, contentOf(current, pageFields(current)), userWriter(viewer), true);
      return published;
    },
    async unpublishPage(_, { id }, ctx) {
      await requirePerson(ctx);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      await takeOffSite(ctx, "page", current, { status: "draft" });
      return { ...(await requireRecord<PageRecord>(ctx, "pages", id)), working: null };
    },
    async deletePage(_, { id }, ctx) {
      await requirePerson(ctx);
      await requireRecord<PageRecord>(ctx, "pages", id);
      await writeAsCaller(() => ctx.pb.collection("pages").delete(id));
      return true;
    },
    async reorderNavigation(_, { pageIds }, ctx) {
      await requirePerson(ctx);
      if (pageIds.length > LIMITS.pageSizeMax)
        throw badUserInput({
          pageIds: { code: "too_many", message: `At most ${LIMITS.pageSizeMax} pages.` },
        });
      for (const [index, id] of pageIds.entries()) {
        await writeAsCaller(() => ctx.pb.collection("pages").update(id, { navOrder: (index + 1) * 10 }));
      }
      return navigation(ctx);
    },

    async createPost(_, { input }, ctx) {
      const writer = await requirePostWriter(ctx);
      const data = validatePost(input);
      const create = (slug: string) =>
        writeAsCaller(() =>
          ctx.pb.collection("posts").create<PostRecord>(
            defined({
              ...data,
              body: data.body ?? "",
              audience: data.audience ?? "public",
              slug,
              status: "draft",
              revision: 1,
              ...createdBy(writer),
            }),
          ),
        );
      const slug = await chooseSlug(ctx.pb, "posts", input.slug, data.title);
      let created: PostRecord;
      try {
        created = await create(slug);
      } catch (error) {
        // An API client does not see others' drafts, so a generated slug may be taken by one it
        // cannot see: it gets a random ending instead (its own choice of slug stays a CONFLICT).
        if (writer.kind !== "client" || input.slug?.trim() || !isSlugTaken(error)) throw error;
        created = await create(`${slug.slice(0, 110)}-${Math.random().toString(36).slice(2, 8)}`);
      }
      return requireRecord<PostRecord>(ctx, "posts", created.id, "cover");
    },
    async updatePost(_, { id, input, expectedRevision }, ctx) {
      const writer = await requirePostWriter(ctx);
      const data = validatePost(input);
      const current = await requireRecord<PostRecord>(ctx, "posts", id, "cover");
      // A client edits drafts only (the rules refuse the rest; a published post's working copy too).
      if (writer.kind === "client" && current.status !== "draft") throw forbidden();
      const { title, body, ...fields } = data;
      return saveDocument(ctx, writer, "post", current, expectedRevision, {
        title,
        body,
        slugInput: input.slug,
        fields,
      });
    },
    async publishPostChanges(_, { id }, ctx) {
      // Putting changes live needs publishContent (the posts rules say the same when there are changes).
      await requirePerson(ctx);
      const viewer = await requireAbility(ctx, "publishContent");
      return publishChanges(
        ctx,
        userWriter(viewer),
        "post",
        await requireRecord<PostRecord>(ctx, "posts", id, "cover"),
      );
    },
    async discardPostChanges(_, { id }, ctx) {
      await requirePerson(ctx);
      await requireAbility(ctx, "editContent");
      return discardChanges(ctx, "post", await requireRecord<PostRecord>(ctx, "posts", id, "cover"));
    },
    async restorePostRevision(_, { id, revisionId, expectedRevision }, ctx) {
      const viewer = await requirePerson(ctx);
      const current = await requireRecord<PostRecord>(ctx, "posts", id, "cover");
      const entry = await readHistoryEntry(ctx, "post", id, revisionId);
      return saveDocument(ctx, userWriter(viewer), "post", current, expectedRevision, changeFrom(entry));
    },
    async publishPost(_, { id, publishAt }, ctx) {
      const viewer = await requirePerson(ctx);
      const when = validatePublishAt(publishAt);
      const current = await requireRecord<PostRecord>(ctx, "posts", id);
      await requireAltText(ctx.pb, current.body);
      const scheduled = when !== null && when.getTime() > Date.now();
      const change = scheduled
        ? { status: "scheduled", publishAt: toPocketBaseDate(when) }
        : { status: "published", publishedAt: current.publishedAt || pocketBaseNow(), publishAt: "" };
      await writeAsCaller(() =>
        ctx.pb.collection("posts").update(id, { ...change, revision: current.revision + 1 }),
      );
      if (!scheduled)
        await recordHistory(
          ctx,
          "post",
          id,
          contentOf(current, postFields(current)),
          userWriter(viewer),
          true,
        );
      return requireRecord<PostRecord>(ctx, "posts", id, "cover");
    },
    async unpublishPost(_, { id }, ctx) {
      await requirePerson(ctx);
      const current = await requireRecord<PostRecord>(ctx, "posts", id);
      await takeOffSite(ctx, "post", current, { status: "draft", publishAt: "" });
      return { ...(await requireRecord<PostRecord>(ctx, "posts", id, "cover")), working: null };
    },
    async archivePosts(_, { ids }, ctx) {
      await requirePerson(ctx);
      if (ids.length > LIMITS.pageSizeMax)
        throw badUserInput({
          ids: { code: "too_many", message: `At most ${LIMITS.pageSizeMax} posts at once.` },
        });
      const archived: PostRecord[] = [];
      for (const id of ids) {
        const current = await requireRecord<PostRecord>(ctx, "posts", id);
        await takeOffSite(ctx, "post", current, { status: "archived" });
        archived.push({ ...(await requireRecord<PostRecord>(ctx, "posts", id, "cover")), working: null });
      }
      return archived;
    },
    async deletePost(_, { id }, ctx) {
      await requirePerson(ctx);
      await requireRecord<PostRecord>(ctx, "posts", id);
      await writeAsCaller(() => ctx.pb.collection("posts").delete(id));
      return true;
    },
  },

  Page: {
    path: (p) => `/p/${p.slug}`,
    url: (p, _, ctx) => `${new URL(ctx.config.publicUrl).origin}/p/${p.slug}`,
    body: (p) => p.body ?? "",
    html: (p, _, ctx) => renderBody(ctx, `pages:${p.id}:${p.updated}`, p.body ?? ""),
    status: (p) => (p.status === "published" ? "published" : "draft"),
    showInNav: (p) => !!p.showInNav,
    navOrder: (p) => p.navOrder ?? 0,
    seoDescription: (p) => p.seoDescription ?? "",
    publishedAt: (p) => fromPocketBaseDateOrNull(p.publishedAt),
    revision: async (p, _, ctx) => (await workingOf(ctx, "page", p))?.revision ?? p.revision ?? 0,
    updated: (p) => fromPocketBaseDate(p.updated),
    working: (p, _, ctx) => workingOf(ctx, "page", p),
    history: (p, _, ctx) => readHistory(ctx, "page", p.id),
    can: async (p, _, ctx) => contentCan(await ctx.viewer(), p.status),
  },
  Post: {
    path: (p) => `/news/${p.slug}`,
    url: (p, _, ctx) => `${new URL(ctx.config.publicUrl).origin}/news/${p.slug}`,
    summary: (p) => p.summary ?? "",
    body: (p) => p.body ?? "",
    html: (p, _, ctx) => renderBody(ctx, `posts:${p.id}:${p.updated}`, p.body ?? ""),
    cover: (p) => p.expand?.cover ?? null,
    publishAt: (p) => fromPocketBaseDateOrNull(p.publishAt),
    publishedAt: (p) => fromPocketBaseDateOrNull(p.publishedAt),
    pinned: (p) => !!p.pinned,
    audience: (p) => (p.audience === "members" ? "members" : "public"),
    authorName: (p) => p.authorName ?? "",
    byApiToken: (p) => !!p.authorClient,
    revision: async (p, _, ctx) => (await workingOf(ctx, "post", p))?.revision ?? p.revision ?? 0,
    created: (p) => fromPocketBaseDate(p.created),
    updated: (p) => fromPocketBaseDate(p.updated),
    working: (p, _, ctx) => workingOf(ctx, "post", p),
    history: (p, _, ctx) => readHistory(ctx, "post", p.id),
    can: async (p, _, ctx) =>
      ctx.apiClient ? clientPostCan(ctx.apiClient.client, p) : contentCan(await ctx.viewer(), p.status),
  },
  WorkingCopy: {
    slug: (w) => String(workingField(w, "slug") ?? ""),
    summary: (w) => String(workingField(w, "summary") ?? ""),
    async cover(w, _, ctx) {
      const id = workingField(w, "cover");
      if (typeof id !== "string" || !id) return null;
      return (await mediaByIds(ctx.pb, [id])).get(id) ?? null;
    },
    pinned: (w) => !!workingField(w, "pinned"),
    audience: (w) => (workingField(w, "audience") === "members" ? "members" : "public"),
    seoDescription: (w) => String(workingField(w, "seoDescription") ?? ""),
    showInNav: (w) => !!workingField(w, "showInNav"),
    updated: (w) => fromPocketBaseDate(w.updated),
    editorName: (w) => w.editorName ?? "",
  },
  Revision: {
    published: (r) => !!r.published,
    byApiToken: (r) => !!r.editedByClient,
    saved: (r) => fromPocketBaseDate(r.updated),
    editorName: (r) => r.editorName ?? "",
  },
};

/** The CONFLICT a taken slug answers (shared.ts: slugTaken). */
function isSlugTaken(error: unknown): boolean {
  const extensions = (error as GraphQLError | undefined)?.extensions as
    { code?: string; fieldErrorCodes?: Record<string, string> } | undefined;
  return extensions?.code === slugTaken().extensions.code && extensions?.fieldErrorCodes?.slug === "taken";
}

/** A short non-cryptographic hash for cache keys (FNV-1a). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
