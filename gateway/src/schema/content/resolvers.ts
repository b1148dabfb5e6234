import type { GatewayContext } from "../../context.ts";
import { badUserInput, pbCall } from "../../errors.ts";
import type { PageRecord, PostRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "../../validation/limits.ts";
import { Validator } from "../../validation/validate.ts";
import type { PageInput, PostInput, Resolvers } from "../__generated__/types.ts";
import { keyedConnection, keyedPageArgs, keysetAfter, sortOf, type SortKey } from "../pagination.ts";
import { requireViewer } from "../users/resolvers.ts";
import { toIso } from "../users/mappers.ts";
import { chooseSlug, isoOrNull, renderBody, requireAltText, staleRevision, writeAsCaller } from "./shared.ts";

const nowPb = () => new Date().toISOString().replace("T", " ");

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
const POSTS_LAST_EDITED: SortKey<PostRecord>[] = [
  { field: "updated", descending: true, value: (p) => p.updated },
  { field: "id", descending: true, value: (p) => p.id },
];

/** Published pages shown in the navigation, in the editors' order. */
async function navigation(ctx: GatewayContext) {
  const pages = await pbCall(() =>
    ctx.pb.collection("pages").getFullList<PageRecord>({ filter: 'status = "published" && showInNav = true', sort: "navOrder,title", fields: "title,slug" }),
  );
  return pages.map((p) => ({ title: p.title, path: `/p/${p.slug}` }));
}

/** Read one record as the caller; null when it does not exist or the rules hide it. */
async function findOne<T>(ctx: GatewayContext, collection: string, filter: string, expand?: string): Promise<T | null> {
  const page = await pbCall(() => ctx.pb.collection(collection).getList<T>(1, 1, { filter, skipTotal: true, ...(expand ? { expand } : {}) }));
  return page.items[0] ?? null;
}

async function requireRecord<T>(ctx: GatewayContext, collection: string, id: string, expand?: string): Promise<T> {
  return pbCall(() => ctx.pb.collection(collection).getOne<T>(id, expand ? { expand } : {}));
}

function validatePage(input: PageInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const body = input.body ?? undefined;
  if (body !== undefined && body.length > LIMITS.markdownMax) v.add("body", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const seoDescription = input.seoDescription == null ? undefined : v.text("seoDescription", input.seoDescription, { max: LIMITS.seoDescriptionMax });
  v.done();
  return { title, body, seoDescription, showInNav: input.showInNav ?? undefined };
}

function validatePost(input: PostInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const body = input.body ?? undefined;
  if (body !== undefined && body.length > LIMITS.markdownMax) v.add("body", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const summary = input.summary == null ? undefined : v.text("summary", input.summary, { max: LIMITS.summaryMax });
  v.done();
  return {
    title,
    body,
    summary,
    cover: input.coverId === undefined ? undefined : (input.coverId ?? ""),
    pinned: input.pinned ?? undefined,
    audience: input.audience ? input.audience.toLowerCase() : undefined,
  };
}

const defined = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

function validatePublishAt(publishAt: string | null | undefined): Date | null {
  if (!publishAt) return null;
  const date = new Date(publishAt);
  if (Number.isNaN(date.getTime())) throw badUserInput({ publishAt: { code: "invalid_date", message: "Use a valid date and time." } });
  return date;
}

export const contentResolvers: Resolvers = {
  Query: {
    page: (_, { slug }, ctx) => findOne<PageRecord>(ctx, "pages", ctx.pb.filter("slug = {:slug}", { slug })),
    pageById: (_, { id }, ctx) => findOne<PageRecord>(ctx, "pages", ctx.pb.filter("id = {:id}", { id })),
    async pages(_, { first, after, search, status }, ctx) {
      const { size, after: cursor } = keyedPageArgs(first, after, 50, PAGE_ORDER);
      const filters = [
        search?.trim() ? ctx.pb.filter("(title ~ {:q} || body ~ {:q})", { q: search.trim().slice(0, LIMITS.searchMax) }) : "",
        status ? ctx.pb.filter("status = {:s}", { s: status.toLowerCase() }) : "",
      ].filter(Boolean);
      const filter = [...filters, cursor ? keysetAfter(ctx.pb, PAGE_ORDER, cursor) : ""].filter(Boolean).join(" && ");
      const rows = await pbCall(() => ctx.pb.collection("pages").getList<PageRecord>(1, size + 1, { filter, sort: sortOf(PAGE_ORDER), skipTotal: true }));
      return keyedConnection(rows.items, size, PAGE_ORDER, async () =>
        (await pbCall(() => ctx.pb.collection("pages").getList(1, 1, { filter: filters.join(" && "), fields: "id" }))).totalItems,
      );
    },
    navigation: (_, __, ctx) => navigation(ctx),
    post: (_, { slug }, ctx) => findOne<PostRecord>(ctx, "posts", ctx.pb.filter("slug = {:slug}", { slug }), "cover"),
    postById: (_, { id }, ctx) => findOne<PostRecord>(ctx, "posts", ctx.pb.filter("id = {:id}", { id }), "cover"),
    async posts(_, { first, after, search, status, orderBy }, ctx) {
      const order = orderBy === "LAST_EDITED" ? POSTS_LAST_EDITED : POSTS_NEWEST;
      const { size, after: cursor } = keyedPageArgs(first, after, 10, order);
      const filters = [
        search?.trim() ? ctx.pb.filter("(title ~ {:q} || summary ~ {:q} || body ~ {:q})", { q: search.trim().slice(0, LIMITS.searchMax) }) : "",
        status ? ctx.pb.filter("status = {:s}", { s: status.toLowerCase() }) : "",
      ].filter(Boolean);
      const filter = [...filters, cursor ? keysetAfter(ctx.pb, order, cursor) : ""].filter(Boolean).join(" && ");
      const rows = await pbCall(() =>
        ctx.pb.collection("posts").getList<PostRecord>(1, size + 1, { filter, sort: sortOf(order), skipTotal: true, expand: "cover" }),
      );
      return keyedConnection(rows.items, size, order, async () =>
        (await pbCall(() => ctx.pb.collection("posts").getList(1, 1, { filter: filters.join(" && "), fields: "id" }))).totalItems,
      );
    },
    async homeNews(_, { limit }, ctx) {
      const count = Math.min(Math.max(limit ?? 4, 1), 12);
      const rows = await pbCall(() =>
        ctx.pb.collection("posts").getList<PostRecord>(1, count, { filter: 'status = "published"', sort: "-pinned,-publishedAt,-id", skipTotal: true, expand: "cover" }),
      );
      return rows.items;
    },
    async previewMarkdown(_, { markdown }, ctx) {
      await requireViewer(ctx);
      if (markdown.length > LIMITS.markdownMax) throw badUserInput({ markdown: { code: "too_long", message: `Use at most ${LIMITS.markdownMax} characters.` } });
      return renderBody(ctx, `preview:${markdown.length}:${hash(markdown)}`, markdown);
    },
  },

  Mutation: {
    async createPage(_, { input }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validatePage(input);
      const slug = await chooseSlug(ctx.pb, "pages", input.slug, data.title);
      return writeAsCaller(() =>
        ctx.pb.collection("pages").create<PageRecord>(defined({ ...data, body: data.body ?? "", slug, status: "draft", revision: 1, updatedBy: viewer.id, navOrder: 1000 })),
      );
    },
    async updatePage(_, { id, input, expectedRevision }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validatePage(input);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      if (current.revision !== expectedRevision) throw staleRevision(current);
      const slug = input.slug === undefined || input.slug === current.slug ? current.slug : await chooseSlug(ctx.pb, "pages", input.slug, data.title, id);
      if (current.status === "published" && data.body !== undefined) await requireAltText(ctx.pb, data.body);
      return writeAsCaller(() =>
        ctx.pb.collection("pages").update<PageRecord>(id, defined({ ...data, slug, revision: current.revision + 1, updatedBy: viewer.id })),
      );
    },
    async publishPage(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      await requireAltText(ctx.pb, current.body);
      return writeAsCaller(() =>
        ctx.pb.collection("pages").update<PageRecord>(id, { status: "published", publishedAt: current.publishedAt || nowPb(), revision: current.revision + 1 }),
      );
    },
    async unpublishPage(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await requireRecord<PageRecord>(ctx, "pages", id);
      return writeAsCaller(() => ctx.pb.collection("pages").update<PageRecord>(id, { status: "draft", revision: current.revision + 1 }));
    },
    async deletePage(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireRecord<PageRecord>(ctx, "pages", id);
      await writeAsCaller(() => ctx.pb.collection("pages").delete(id));
      return true;
    },
    async reorderNavigation(_, { pageIds }, ctx) {
      await requireViewer(ctx);
      if (pageIds.length > LIMITS.pageSizeMax) throw badUserInput({ pageIds: { code: "too_many", message: `At most ${LIMITS.pageSizeMax} pages.` } });
      for (const [index, id] of pageIds.entries()) {
        await writeAsCaller(() => ctx.pb.collection("pages").update(id, { navOrder: (index + 1) * 10 }));
      }
      return navigation(ctx);
    },

    async createPost(_, { input }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validatePost(input);
      const slug = await chooseSlug(ctx.pb, "posts", input.slug, data.title);
      const created = await writeAsCaller(() =>
        ctx.pb.collection("posts").create<PostRecord>(
          defined({ ...data, body: data.body ?? "", audience: data.audience ?? "public", slug, status: "draft", author: viewer.id, authorName: viewer.name, revision: 1, updatedBy: viewer.id }),
        ),
      );
      return requireRecord<PostRecord>(ctx, "posts", created.id, "cover");
    },
    async updatePost(_, { id, input, expectedRevision }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validatePost(input);
      const current = await requireRecord<PostRecord>(ctx, "posts", id);
      if (current.revision !== expectedRevision) throw staleRevision(current);
      const slug = input.slug === undefined || input.slug === current.slug ? current.slug : await chooseSlug(ctx.pb, "posts", input.slug, data.title, id);
      if (current.status !== "draft" && data.body !== undefined) await requireAltText(ctx.pb, data.body);
      await writeAsCaller(() => ctx.pb.collection("posts").update(id, defined({ ...data, slug, revision: current.revision + 1, updatedBy: viewer.id })));
      return requireRecord<PostRecord>(ctx, "posts", id, "cover");
    },
    async publishPost(_, { id, publishAt }, ctx) {
      await requireViewer(ctx);
      const when = validatePublishAt(publishAt);
      const current = await requireRecord<PostRecord>(ctx, "posts", id);
      await requireAltText(ctx.pb, current.body);
      const scheduled = when !== null && when.getTime() > Date.now();
      const change = scheduled
        ? { status: "scheduled", publishAt: when.toISOString().replace("T", " ") }
        : { status: "published", publishedAt: current.publishedAt || nowPb(), publishAt: "" };
      await writeAsCaller(() => ctx.pb.collection("posts").update(id, { ...change, revision: current.revision + 1 }));
      return requireRecord<PostRecord>(ctx, "posts", id, "cover");
    },
    async unpublishPost(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await requireRecord<PostRecord>(ctx, "posts", id);
      await writeAsCaller(() => ctx.pb.collection("posts").update(id, { status: "draft", publishAt: "", revision: current.revision + 1 }));
      return requireRecord<PostRecord>(ctx, "posts", id, "cover");
    },
    async archivePosts(_, { ids }, ctx) {
      await requireViewer(ctx);
      if (ids.length > LIMITS.pageSizeMax) throw badUserInput({ ids: { code: "too_many", message: `At most ${LIMITS.pageSizeMax} posts at once.` } });
      const archived: PostRecord[] = [];
      for (const id of ids) {
        const current = await requireRecord<PostRecord>(ctx, "posts", id);
        archived.push(
          await writeAsCaller(() => ctx.pb.collection("posts").update<PostRecord>(id, { status: "archived", revision: current.revision + 1 }, { expand: "cover" })),
        );
      }
      return archived;
    },
    async deletePost(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireRecord<PostRecord>(ctx, "posts", id);
      await writeAsCaller(() => ctx.pb.collection("posts").delete(id));
      return true;
    },
  },

  Page: {
    path: (p) => `/p/${p.slug}`,
    body: (p) => p.body ?? "",
    html: (p, _, ctx) => renderBody(ctx, `pages:${p.id}:${p.updated}`, p.body ?? ""),
    status: (p) => (p.status === "published" ? "PUBLISHED" : "DRAFT"),
    showInNav: (p) => !!p.showInNav,
    navOrder: (p) => p.navOrder ?? 0,
    seoDescription: (p) => p.seoDescription ?? "",
    publishedAt: (p) => isoOrNull(p.publishedAt),
    revision: (p) => p.revision ?? 0,
    updated: (p) => toIso(p.updated),
  },
  Post: {
    path: (p) => `/news/${p.slug}`,
    summary: (p) => p.summary ?? "",
    body: (p) => p.body ?? "",
    html: (p, _, ctx) => renderBody(ctx, `posts:${p.id}:${p.updated}`, p.body ?? ""),
    cover: (p) => p.expand?.cover ?? null,
    status: (p) => p.status.toUpperCase() as "DRAFT" | "SCHEDULED" | "PUBLISHED" | "ARCHIVED",
    publishAt: (p) => isoOrNull(p.publishAt),
    publishedAt: (p) => isoOrNull(p.publishedAt),
    pinned: (p) => !!p.pinned,
    audience: (p) => (p.audience === "members" ? "MEMBERS" : "PUBLIC"),
    authorName: (p) => p.authorName ?? "",
    revision: (p) => p.revision ?? 0,
    created: (p) => toIso(p.created),
    updated: (p) => toIso(p.updated),
  },
};

/** A short non-cryptographic hash for cache keys (FNV-1a). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
