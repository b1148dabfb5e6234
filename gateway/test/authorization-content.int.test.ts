/**
 * QUALITY.md S1 for publishing: persona × (posts, pages, revisions, media) × operation. Every cell is checked
 * directly against PocketBase's REST API and, where the gateway has the operation, through GraphQL
 * (./authorization-table.ts: the gaps say why not).
 * Targets are fresh records made by the system account for each check, so cells are independent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import {
  createUser,
  errorCode,
  fileOf,
  GqlClient,
  pbAs,
  pngBytes,
  restStatus,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import {
  AuthzDraftPostsDocument,
  AuthzPageBySlugDocument,
  AuthzPostByIdDocument,
  AuthzPostBySlugDocument,
} from "./__generated__/operations.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  expectGql,
  expectRest,
  type Check,
} from "./authorization-table.ts";

const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "writer",
  "editor",
  "pastor",
  "careTeam",
  "admin",
] as const;
type Persona = (typeof PERSONAS)[number];
const { cells } = columns(PERSONAS);

// Columns: anonymous, pending member, member, writer (content.edit only), editor, pastor, care team, admin.
const MATRIX = {
  posts: {
    viewPublicPublished: cells(A, A, A, A, A, A, A, A),
    viewMembersPublished: cells(D, D, A, A, A, A, A, A),
    viewDraft: cells(D, D, D, A, A, A, D, A),
    listDrafts: cells(D, D, D, A, A, A, D, A),
    createDraft: cells(D, D, D, A, A, A, D, A),
    createPublished: cells(D, D, D, D, A, A, D, A),
    updateDraft: cells(D, D, D, A, A, A, D, A),
    publish: cells(D, D, D, D, A, A, D, A),
    updatePublished: cells(D, D, D, D, A, A, D, A),
    // A published post's changes go to its working copy (not live): content.edit is enough…
    saveWorkingCopy: cells(D, D, D, A, A, A, D, A),
    // …and putting them live ("Update") needs content.publish.
    publishChanges: cells(D, D, D, D, A, A, D, A),
    delete: cells(D, D, D, D, A, A, D, A),
  },
  pages: {
    viewPublished: cells(A, A, A, A, A, A, A, A),
    viewDraft: cells(D, D, D, A, A, A, D, A),
    createDraft: cells(D, D, D, A, A, A, D, A),
    publish: cells(D, D, D, D, A, A, D, A),
    updatePublished: cells(D, D, D, D, A, A, D, A),
    saveWorkingCopy: cells(D, D, D, A, A, A, D, A),
    publishChanges: cells(D, D, D, D, A, A, D, A),
    delete: cells(D, D, D, D, A, A, D, A),
  },
  // Working copies and history (editors only; never public).
  revisions: {
    list: cells(D, D, D, A, A, A, D, A),
    create: cells(D, D, D, A, A, A, D, A),
    update: cells(D, D, D, A, A, A, D, A),
    delete: cells(D, D, D, A, A, A, D, A),
  },
  media: {
    list: cells(D, D, D, A, A, A, D, A),
    view: cells(A, A, A, A, A, A, A, A),
    download: cells(A, A, A, A, A, A, A, A),
    create: cells(D, D, D, A, A, A, D, A),
    update: cells(D, D, D, A, A, A, D, A),
    // media.manage (editor, admin), or content.edit on one's own upload; the target is the admin's.
    delete: cells(D, D, D, D, A, D, D, A),
  },
} as const;

let gateway: Gateway;
let su: PocketBase;
let adminId: string;
const users = {} as Record<Persona, TestUser | null>;
let n = 0;
const slug = (label: string) => `${label}-${Date.now().toString(36)}-${n++}`;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const writerRole = await su
    .collection("roles")
    .create({ name: `Writer ${slug("w")}`, permissions: ["content.edit"] });
  users.anonymous = null;
  users.pending = await createUser({ person: "pending" });
  users.member = await createUser();
  users.writer = await createUser();
  await su.collection("users").update(users.writer.id, { roles: [writerRole.id] });
  users.editor = await createUser({ roles: ["Editor"] });
  users.pastor = await createUser({ roles: ["Pastor"] });
  users.careTeam = await createUser({ roles: ["Care Team"] });
  users.admin = await createUser({ roles: ["Administrator"] });
  adminId = users.admin.id;
});
afterAll(() => gateway.close());

const post = (fields: Record<string, unknown> = {}) =>
  su.collection("posts").create({
    title: "Target post",
    slug: slug("post"),
    status: "draft",
    audience: "public",
    author: adminId,
    revision: 1,
    ...fields,
  });
const page = (fields: Record<string, unknown> = {}) =>
  su
    .collection("pages")
    .create({ title: "Target page", slug: slug("page"), status: "draft", revision: 1, ...fields });
const media = () =>
  su.collection("media").create({
    file: fileOf(pngBytes(), "t.png", "image/png"),
    kind: "image",
    filename: "t.png",
    uploadedBy: adminId,
  });
const revision = async () =>
  su
    .collection("revisions")
    .create({ post: (await post()).id, title: "Saved", body: "An earlier text", editedBy: adminId });
const rest = (persona: Persona) => pbAs(users[persona]);
const gql = (persona: Persona) => new GqlClient(gateway, { token: users[persona]?.token });

type Table = typeof MATRIX;
const REST: { [C in keyof Table]: { [O in keyof Table[C]]?: Check<Persona> } } = {
  posts: {
    async viewPublicPublished(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
    },
    async viewMembersPublished(persona, expected) {
      const target = await post({ status: "published", audience: "members" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
    },
    async viewDraft(persona, expected) {
      const target = await post();
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
    },
    async listDrafts(persona, expected) {
      const target = await post();
      const listed = await rest(persona)
        .collection("posts")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async createDraft(persona, expected) {
      const author = users[persona]?.id ?? adminId;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("posts")
            .create({ title: "New", slug: slug("new"), status: "draft", audience: "public", author }),
        ),
      );
    },
    async createPublished(persona, expected) {
      const author = users[persona]?.id ?? adminId;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("posts")
            .create({ title: "Live", slug: slug("live"), status: "published", audience: "public", author }),
        ),
      );
    },
    async updateDraft(persona, expected) {
      const target = await post();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("posts").update(target.id, { title: "Changed" })),
      );
    },
    async publish(persona, expected) {
      const target = await post();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("posts").update(target.id, { status: "published" })),
      );
    },
    async updatePublished(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("posts").update(target.id, { title: "Live change" })),
      );
    },
    async delete(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").delete(target.id)));
    },
  },
  pages: {
    async viewPublished(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").getOne(target.id)));
    },
    async viewDraft(persona, expected) {
      const target = await page();
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").getOne(target.id)));
    },
    async createDraft(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("pages")
            .create({ title: "New", slug: slug("new"), status: "draft" }),
        ),
      );
    },
    async publish(persona, expected) {
      const target = await page();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("pages").update(target.id, { status: "published" })),
      );
    },
    async updatePublished(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("pages").update(target.id, { title: "Live change" })),
      );
    },
    async delete(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").delete(target.id)));
    },
  },
  revisions: {
    async list(persona, expected) {
      const target = await revision();
      const listed = await rest(persona)
        .collection("revisions")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").getOne(target.id)));
    },
    async create(persona, expected) {
      const target = await post();
      const editedBy = users[persona]?.id ?? adminId;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("revisions").create({ post: target.id, title: "x", body: "", editedBy }),
        ),
      );
    },
    async update(persona, expected) {
      const target = await revision();
      const editedBy = users[persona]?.id ?? adminId;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("revisions").update(target.id, { body: "changed", editedBy }),
        ),
      );
    },
    async delete(persona, expected) {
      const target = await revision();
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").delete(target.id)));
    },
  },
  media: {
    async list(persona, expected) {
      const target = await media();
      const listed = await rest(persona)
        .collection("media")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async view(persona, expected) {
      const target = await media();
      expectRest(expected, await restStatus(() => rest(persona).collection("media").getOne(target.id)));
    },
    async download(persona, expected) {
      const target = await media();
      const response = await fetch(rest(persona).files.getURL(target, target.file as string));
      expect(response.status).toBe(expected === "allow" ? 200 : 404);
    },
    async create(persona, expected) {
      const uploadedBy = users[persona]?.id ?? adminId;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("media")
            .create({ file: fileOf(pngBytes(), "a.png", "image/png"), kind: "image", uploadedBy }),
        ),
      );
    },
    async update(persona, expected) {
      const target = await media();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("media").update(target.id, { alt: "New alt" })),
      );
    },
    async delete(persona, expected) {
      const target = await media();
      expectRest(expected, await restStatus(() => rest(persona).collection("media").delete(target.id)));
    },
  },
};

const GRAPHQL: { [C in keyof Table]?: { [O in keyof Table[C]]?: Check<Persona> } } = {
  posts: {
    async viewPublicPublished(persona, expected) {
      const target = await post({ status: "published" });
      expect(!!(await gql(persona).execute(AuthzPostBySlugDocument, { s: target.slug })).data?.post).toBe(
        expected === "allow",
      );
    },
    async viewMembersPublished(persona, expected) {
      const target = await post({ status: "published", audience: "members" });
      expect(!!(await gql(persona).execute(AuthzPostBySlugDocument, { s: target.slug })).data?.post).toBe(
        expected === "allow",
      );
    },
    async viewDraft(persona, expected) {
      const target = await post();
      expect(!!(await gql(persona).execute(AuthzPostByIdDocument, { id: target.id })).data?.postById).toBe(
        expected === "allow",
      );
    },
    async listDrafts(persona) {
      const target = await post();
      const viaGql = await gql(persona).execute(AuthzDraftPostsDocument, { q: target.slug });
      expect(viaGql.data?.posts.edges.length ?? 0).toBe(0); // the search matches titles/bodies, not the slug: nothing leaks either way
    },
    async createDraft(persona, expected) {
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation { createPost(input: { title: "Via GraphQL" }) { id } }`),
      );
    },
    async updateDraft(persona, expected) {
      const other = await post();
      const result = await gql(persona).request(
        `mutation($id: ID!) { updatePost(id: $id, input: { title: "Changed" }, expectedRevision: 1) { id } }`,
        { id: other.id },
      );
      if (expected === "allow") expect(result.errors).toBeUndefined();
      else expect(errorCode(result)).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : "NOT_FOUND"); // drafts are hidden from them
    },
    async publish(persona, expected) {
      const other = await post();
      const result = await gql(persona).request(`mutation($id: ID!) { publishPost(id: $id) { id } }`, {
        id: other.id,
      });
      if (expected === "allow") expect(result.errors).toBeUndefined();
      else
        expect(errorCode(result)).toBe(
          persona === "anonymous" ? "UNAUTHENTICATED" : persona === "writer" ? "FORBIDDEN" : "NOT_FOUND",
        );
    },
    async saveWorkingCopy(persona, expected) {
      const target = await post({ status: "published" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updatePost(id: $id, input: { title: "Live change" }, expectedRevision: 1) { id } }`,
          { id: target.id },
        ),
      );
      expect((await su.collection("posts").getOne(target.id)).title).toBe("Target post");
    },
    async publishChanges(persona, expected) {
      const target = await post({ status: "published" });
      await su.collection("revisions").create({
        post: target.id,
        working: true,
        title: "Changed",
        body: "",
        revision: 2,
        editedBy: adminId,
      });
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, {
          id: target.id,
        }),
      );
      expect((await su.collection("posts").getOne(target.id)).title).toBe(
        expected === "allow" ? "Changed" : "Target post",
      );
    },
    async delete(persona, expected) {
      const other = await post({ status: "published" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deletePost(id: $id) }`, { id: other.id }),
      );
    },
  },
  pages: {
    async viewPublished(persona, expected) {
      const target = await page({ status: "published" });
      expect(!!(await gql(persona).execute(AuthzPageBySlugDocument, { s: target.slug })).data?.page).toBe(
        expected === "allow",
      );
    },
    async viewDraft(persona, expected) {
      const target = await page();
      expect(!!(await gql(persona).execute(AuthzPageBySlugDocument, { s: target.slug })).data?.page).toBe(
        expected === "allow",
      );
    },
    async createDraft(persona, expected) {
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation { createPage(input: { title: "Via GraphQL" }) { id } }`),
      );
    },
    async saveWorkingCopy(persona, expected) {
      const target = await page({ status: "published" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updatePage(id: $id, input: { title: "Live change" }, expectedRevision: 1) { id } }`,
          { id: target.id },
        ),
      );
      expect((await su.collection("pages").getOne(target.id)).title).toBe("Target page");
    },
    async publishChanges(persona, expected) {
      const target = await page({ status: "published" });
      await su.collection("revisions").create({
        page: target.id,
        working: true,
        title: "Changed",
        body: "",
        revision: 2,
        editedBy: adminId,
      });
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { publishPageChanges(id: $id) { id } }`, {
          id: target.id,
        }),
      );
      expect((await su.collection("pages").getOne(target.id)).title).toBe(
        expected === "allow" ? "Changed" : "Target page",
      );
    },
  },
  media: {
    async update(persona, expected) {
      const other = await media();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateMedia(id: $id, input: { alt: "x" }) { id } }`,
          { id: other.id },
        ),
      );
    },
  },
};

const NOT_YET = "not checked through GraphQL yet (the operation exists): a gap to close";
describeAuthorizationTable({
  personas: PERSONAS,
  table: MATRIX,
  rest: REST,
  graphql: GRAPHQL,
  gaps: {
    rest: {
      posts: {
        saveWorkingCopy:
          "the gateway's operation: a published post's change written to its working copy (revisions rows: revisions create/update)",
        publishChanges:
          "the gateway's operation: the working copy put live (its REST cell is updatePublished)",
      },
      pages: {
        saveWorkingCopy:
          "the gateway's operation: a published page's change written to its working copy (revisions rows: revisions create/update)",
        publishChanges:
          "the gateway's operation: the working copy put live (its REST cell is updatePublished)",
      },
    },
    graphql: {
      posts: {
        createPublished: "createPost always makes a draft; going live is publishPost (the publish row)",
        updatePublished:
          "GraphQL never writes a published post in place: changes go to the working copy (saveWorkingCopy) and live with publishChanges",
      },
      pages: {
        publish: NOT_YET,
        updatePublished:
          "GraphQL never writes a published page in place: changes go to the working copy (saveWorkingCopy) and live with publishChanges",
        delete: NOT_YET,
      },
      revisions: {
        list: "revisions are read through their post or page (revisions.int.test.ts), not as a collection",
        create: "written only by the gateway's saveWorkingCopy / publishChanges rows of posts and pages",
        update: "written only by the gateway's saveWorkingCopy / publishChanges rows of posts and pages",
        delete: "no GraphQL operation deletes a revision",
      },
      media: {
        list: NOT_YET,
        view: NOT_YET,
        download: "a file, not a GraphQL field: the gateway's /files proxy (http.int.test.ts)",
        create: NOT_YET,
        delete: NOT_YET,
      },
    },
  },
});

describe("media uploads by writers", () => {
  it("a writer may delete their own upload but not someone else's (content.edit without media.manage)", async () => {
    const writer = users.writer!;
    const own = await rest("writer")
      .collection("media")
      .create({ file: fileOf(pngBytes(), "own.png", "image/png"), kind: "image", uploadedBy: writer.id });
    expect(await restStatus(() => rest("writer").collection("media").delete(own.id))).toBe(200);
    const forged = await restStatus(() =>
      rest("writer")
        .collection("media")
        .create({ file: fileOf(pngBytes(), "f.png", "image/png"), kind: "image", uploadedBy: adminId }),
    );
    expect(forged).toBe(400); // nobody can upload in someone else's name
  });
});
