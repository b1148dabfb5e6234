/**
 * QUALITY.md S1 for publishing: persona × (posts, pages, revisions, media) × operation. Every cell is checked
 * directly against PocketBase's REST API and, where the gateway has the operation, through GraphQL.
 * Targets are fresh records made by the system account for each check, so cells are independent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, errorCode, fileOf, GqlClient, pbAs, pngBytes, restStatus, system, testGateway, type TestUser } from "./helpers.ts";

const PERSONAS = ["anonymous", "pending", "member", "writer", "editor", "pastor", "careTeam", "admin"] as const;
type Persona = (typeof PERSONAS)[number];
type Expected = "allow" | "deny";
type Row8 = [Expected, Expected, Expected, Expected, Expected, Expected, Expected, Expected];
const A = "allow" as const;
const D = "deny" as const;
const cells = (...values: Row8) => Object.fromEntries(PERSONAS.map((p, i) => [p, values[i]])) as Record<Persona, Expected>;

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
  const writerRole = await su.collection("roles").create({ name: `Writer ${slug("w")}`, permissions: ["content.edit"] });
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
afterAll(() => gateway.server.close());

const post = (fields: Record<string, unknown> = {}) =>
  su.collection("posts").create({ title: "Target post", slug: slug("post"), status: "draft", audience: "public", author: adminId, revision: 1, ...fields });
const page = (fields: Record<string, unknown> = {}) => su.collection("pages").create({ title: "Target page", slug: slug("page"), status: "draft", revision: 1, ...fields });
const media = () => su.collection("media").create({ file: fileOf(pngBytes(), "t.png", "image/png"), kind: "image", filename: "t.png", uploadedBy: adminId });
const revision = async () => su.collection("revisions").create({ post: (await post()).id, title: "Saved", body: "An earlier text", editedBy: adminId });
const rest = (persona: Persona) => pbAs(users[persona]);
const gql = (persona: Persona) => new GqlClient(gateway, { token: users[persona]?.token });

/** REST: allowed → 200; refused → 400 (create), 403 or 404 (never 200). */
function expectRest(expected: Expected, status: number) {
  if (expected === "allow") expect(status).toBe(200);
  else expect([400, 401, 403, 404]).toContain(status);
}
/** GraphQL writes: allowed → no error; refused → UNAUTHENTICATED for visitors, FORBIDDEN otherwise. */
function expectGql(expected: Expected, persona: Persona, result: { errors?: unknown[] }) {
  if (expected === "allow") expect(result.errors).toBeUndefined();
  else expect(errorCode(result as never)).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN");
}

type Check = (persona: Persona, expected: Expected) => Promise<void>;
const CHECKS: { [C in keyof typeof MATRIX]: { [O in keyof (typeof MATRIX)[C]]: Check } } = {
  posts: {
    async viewPublicPublished(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
      expect(!!(await gql(persona).request<{ post: unknown }>(`query($s: String!) { post(slug: $s) { id } }`, { s: target.slug })).data?.post).toBe(expected === "allow");
    },
    async viewMembersPublished(persona, expected) {
      const target = await post({ status: "published", audience: "members" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
      expect(!!(await gql(persona).request<{ post: unknown }>(`query($s: String!) { post(slug: $s) { id } }`, { s: target.slug })).data?.post).toBe(expected === "allow");
    },
    async viewDraft(persona, expected) {
      const target = await post();
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").getOne(target.id)));
      expect(!!(await gql(persona).request<{ postById: unknown }>(`query($id: ID!) { postById(id: $id) { id } }`, { id: target.id })).data?.postById).toBe(expected === "allow");
    },
    async listDrafts(persona, expected) {
      const target = await post();
      const listed = await rest(persona).collection("posts").getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
      const viaGql = await gql(persona).request<{ posts: { edges: unknown[] } }>(`query($q: String!) { posts(first: 5, search: $q, status: DRAFT) { edges { node { id } } } }`, { q: target.slug });
      expect(viaGql.data?.posts.edges.length ?? 0).toBe(0); // the search matches titles/bodies, not the slug: nothing leaks either way
    },
    async createDraft(persona, expected) {
      const author = users[persona]?.id ?? adminId;
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").create({ title: "New", slug: slug("new"), status: "draft", audience: "public", author })));
      expectGql(expected, persona, await gql(persona).request(`mutation { createPost(input: { title: "Via GraphQL" }) { id } }`));
    },
    async createPublished(persona, expected) {
      const author = users[persona]?.id ?? adminId;
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").create({ title: "Live", slug: slug("live"), status: "published", audience: "public", author })));
    },
    async updateDraft(persona, expected) {
      const target = await post();
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").update(target.id, { title: "Changed" })));
      const other = await post();
      const result = await gql(persona).request(`mutation($id: ID!) { updatePost(id: $id, input: { title: "Changed" }, expectedRevision: 1) { id } }`, { id: other.id });
      if (expected === "allow") expect(result.errors).toBeUndefined();
      else expect(errorCode(result)).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : "NOT_FOUND"); // drafts are hidden from them
    },
    async publish(persona, expected) {
      const target = await post();
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").update(target.id, { status: "published" })));
      const other = await post();
      const result = await gql(persona).request(`mutation($id: ID!) { publishPost(id: $id) { id } }`, { id: other.id });
      if (expected === "allow") expect(result.errors).toBeUndefined();
      else expect(errorCode(result)).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : persona === "writer" ? "FORBIDDEN" : "NOT_FOUND");
    },
    async updatePublished(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").update(target.id, { title: "Live change" })));
    },
    async saveWorkingCopy(persona, expected) {
      const target = await post({ status: "published" });
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { updatePost(id: $id, input: { title: "Live change" }, expectedRevision: 1) { id } }`, { id: target.id }));
      expect((await su.collection("posts").getOne(target.id)).title).toBe("Target post");
    },
    async publishChanges(persona, expected) {
      const target = await post({ status: "published" });
      await su.collection("revisions").create({ post: target.id, working: true, title: "Changed", body: "", revision: 2, editedBy: adminId });
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, { id: target.id }));
      expect((await su.collection("posts").getOne(target.id)).title).toBe(expected === "allow" ? "Changed" : "Target post");
    },
    async delete(persona, expected) {
      const target = await post({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("posts").delete(target.id)));
      const other = await post({ status: "published" });
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { deletePost(id: $id) }`, { id: other.id }));
    },
  },
  pages: {
    async viewPublished(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").getOne(target.id)));
      expect(!!(await gql(persona).request<{ page: unknown }>(`query($s: String!) { page(slug: $s) { id } }`, { s: target.slug })).data?.page).toBe(expected === "allow");
    },
    async viewDraft(persona, expected) {
      const target = await page();
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").getOne(target.id)));
      expect(!!(await gql(persona).request<{ page: unknown }>(`query($s: String!) { page(slug: $s) { id } }`, { s: target.slug })).data?.page).toBe(expected === "allow");
    },
    async createDraft(persona, expected) {
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").create({ title: "New", slug: slug("new"), status: "draft" })));
      expectGql(expected, persona, await gql(persona).request(`mutation { createPage(input: { title: "Via GraphQL" }) { id } }`));
    },
    async publish(persona, expected) {
      const target = await page();
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").update(target.id, { status: "published" })));
    },
    async updatePublished(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").update(target.id, { title: "Live change" })));
    },
    async saveWorkingCopy(persona, expected) {
      const target = await page({ status: "published" });
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { updatePage(id: $id, input: { title: "Live change" }, expectedRevision: 1) { id } }`, { id: target.id }));
      expect((await su.collection("pages").getOne(target.id)).title).toBe("Target page");
    },
    async publishChanges(persona, expected) {
      const target = await page({ status: "published" });
      await su.collection("revisions").create({ page: target.id, working: true, title: "Changed", body: "", revision: 2, editedBy: adminId });
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { publishPageChanges(id: $id) { id } }`, { id: target.id }));
      expect((await su.collection("pages").getOne(target.id)).title).toBe(expected === "allow" ? "Changed" : "Target page");
    },
    async delete(persona, expected) {
      const target = await page({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("pages").delete(target.id)));
    },
  },
  revisions: {
    async list(persona, expected) {
      const target = await revision();
      const listed = await rest(persona).collection("revisions").getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").getOne(target.id)));
    },
    async create(persona, expected) {
      const target = await post();
      const editedBy = users[persona]?.id ?? adminId;
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").create({ post: target.id, title: "x", body: "", editedBy })));
    },
    async update(persona, expected) {
      const target = await revision();
      const editedBy = users[persona]?.id ?? adminId;
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").update(target.id, { body: "changed", editedBy })));
    },
    async delete(persona, expected) {
      const target = await revision();
      expectRest(expected, await restStatus(() => rest(persona).collection("revisions").delete(target.id)));
    },
  },
  media: {
    async list(persona, expected) {
      const target = await media();
      const listed = await rest(persona).collection("media").getList(1, 1, { filter: `id = "${target.id}"` });
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
      expectRest(expected, await restStatus(() => rest(persona).collection("media").create({ file: fileOf(pngBytes(), "a.png", "image/png"), kind: "image", uploadedBy })));
    },
    async update(persona, expected) {
      const target = await media();
      expectRest(expected, await restStatus(() => rest(persona).collection("media").update(target.id, { alt: "New alt" })));
      const other = await media();
      expectGql(expected, persona, await gql(persona).request(`mutation($id: ID!) { updateMedia(id: $id, input: { alt: "x" }) { id } }`, { id: other.id }));
    },
    async delete(persona, expected) {
      const target = await media();
      expectRest(expected, await restStatus(() => rest(persona).collection("media").delete(target.id)));
    },
  },
};

const ROWS = Object.entries(MATRIX).flatMap(([collection, operations]) =>
  Object.entries(operations).flatMap(([operation, byPersona]) =>
    PERSONAS.map((persona) => ({ collection, operation, persona, expected: (byPersona as Record<Persona, Expected>)[persona] })),
  ),
);

describe("authorization table: posts, pages, revisions, media (REST and GraphQL)", () => {
  it.each(ROWS)("$collection $operation as $persona → $expected", async ({ collection, operation, persona, expected }) => {
    const check = (CHECKS as Record<string, Record<string, Check>>)[collection]![operation]!;
    await check(persona, expected);
  });

  it("a writer may delete their own upload but not someone else's (content.edit without media.manage)", async () => {
    const writer = users.writer!;
    const own = await rest("writer").collection("media").create({ file: fileOf(pngBytes(), "own.png", "image/png"), kind: "image", uploadedBy: writer.id });
    expect(await restStatus(() => rest("writer").collection("media").delete(own.id))).toBe(200);
    const forged = await restStatus(() => rest("writer").collection("media").create({ file: fileOf(pngBytes(), "f.png", "image/png"), kind: "image", uploadedBy: adminId }));
    expect(forged).toBe(400); // nobody can upload in someone else's name
  });
});

