// Working copies and history of published posts and pages (issue 12): autosave never changes what
// is live; "Update" does; missing alt text blocks Update, never a save; earlier versions restore.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { HISTORY_MAX } from "../src/schema/content/revisions.ts";
import { countPocketBaseCalls, createUser, CSRF_HEADER, errorCode, fileOf, GqlClient, multipartBody, pngBytes, system, testGateway } from "./helpers.ts";

let gateway: Gateway;
let editor: GqlClient;
let visitor: GqlClient;
let seq = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}${seq++}`;

beforeAll(async () => {
  gateway = await testGateway();
  editor = new GqlClient(gateway, { token: (await createUser({ roles: ["Editor"], name: "Erin Editor" })).token });
  visitor = new GqlClient(gateway, {});
});
afterAll(() => gateway.server.close());

const FIELDS = "id slug title body revision status working { title body summary editorName } history { id title body published editorName }";
type Doc = { id: string; slug: string; title: string; body: string; revision: number; status: string; working: { title: string; body: string; summary: string; editorName: string } | null; history: { id: string; title: string; body: string; published: boolean; editorName: string }[] };

async function call<K extends string>(client: GqlClient, key: K, query: string, variables: Record<string, unknown>): Promise<Doc> {
  const result = await client.request<Record<K, Doc>>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data![key];
}
const create = (title: string, body: string) => call(editor, "createPost", `mutation($i: PostInput!) { createPost(input: $i) { ${FIELDS} } }`, { i: { title, body } });
const update = (id: string, input: Record<string, unknown>, revision: number) =>
  editor.request<{ updatePost: Doc }>(`mutation($id: ID!, $i: PostInput!, $r: Int!) { updatePost(id: $id, input: $i, expectedRevision: $r) { ${FIELDS} } }`, { id, i: input, r: revision });
const publish = (id: string) => call(editor, "publishPost", `mutation($id: ID!) { publishPost(id: $id) { ${FIELDS} } }`, { id });
const publicPost = async (slug: string) => (await visitor.request<{ post: { title: string; body: string } | null }>(`query($s: String!) { post(slug: $s) { title body } }`, { s: slug })).data?.post;

async function uploadImage(alt: string | null) {
  const form = multipartBody(`mutation($f: File!, $alt: String) { uploadMedia(file: $f, alt: $alt) { id url } }`, "f", fileOf(pngBytes(12, 8), "font.png", "image/png"), "font.png", { alt });
  const result = await editor.request<{ uploadMedia: { id: string; url: string } }>("", {}, { body: form, headers: { [CSRF_HEADER]: "1" } });
  expect(result.errors).toBeUndefined();
  return result.data!.uploadMedia;
}

describe("published posts keep a working copy", () => {
  it("autosave writes the working copy, the site is unchanged until Update, then the change is live", async () => {
    const title = unique("Carol service");
    const draft = await create(title, "Candles at six.");
    const live = await publish(draft.id);
    expect(live.history.map((h) => [h.body, h.published])).toContainEqual(["Candles at six.", true]);

    const saved = await update(live.id, { title, body: "Candles at half past six." }, live.revision);
    expect(saved.errors).toBeUndefined();
    const afterSave = saved.data!.updatePost;
    expect(afterSave.body).toBe("Candles at six."); // the live record
    expect(afterSave.working).toMatchObject({ body: "Candles at half past six.", editorName: "Erin Editor" });
    expect(afterSave.revision).toBe(live.revision + 1);
    expect((await publicPost(live.slug))?.body).toBe("Candles at six.");

    // A save against the old revision is a conflict (the working copy is the newer one).
    expect(errorCode(await update(live.id, { title, body: "Stale tab" }, live.revision))).toBe("CONFLICT");

    const updated = await call(editor, "publishPostChanges", `mutation($id: ID!) { publishPostChanges(id: $id) { ${FIELDS} } }`, { id: live.id });
    expect(updated.body).toBe("Candles at half past six.");
    expect(updated.working).toBeNull();
    expect(updated.revision).toBe(afterSave.revision + 1);
    expect((await publicPost(live.slug))?.body).toBe("Candles at half past six.");
  });

  it("discard drops the working copy and leaves the live post", async () => {
    const title = unique("Youth night");
    const live = await publish((await create(title, "Pizza.")).id);
    const saved = (await update(live.id, { title, body: "Pizza and games." }, live.revision)).data!.updatePost;
    const discarded = await call(editor, "discardPostChanges", `mutation($id: ID!) { discardPostChanges(id: $id) { ${FIELDS} } }`, { id: live.id });
    expect(discarded.working).toBeNull();
    expect(discarded.body).toBe("Pizza.");
    expect(discarded.revision).not.toBe(saved.revision);
    expect((await update(live.id, { title, body: "Pizza!" }, discarded.revision)).errors).toBeUndefined();
  });

  it("an image without alt text: saving goes on, Update is refused with the image named", async () => {
    const title = unique("Baptism");
    const live = await publish((await create(title, "Sunday at ten.")).id);
    const image = await uploadImage(null);
    const saved = await update(live.id, { title, body: `Sunday at ten.\n\n![](${image.url})\n` }, live.revision);
    expect(saved.errors).toBeUndefined();
    const again = await update(live.id, { title, body: `Sunday at ten, all welcome.\n\n![](${image.url})\n` }, saved.data!.updatePost.revision);
    expect(again.errors).toBeUndefined();
    const refused = await editor.request(`mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, { id: live.id });
    expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ body: "image_alt_missing" });
    expect((await publicPost(live.slug))?.body).toBe("Sunday at ten.");
  });

  it("a draft with an image without alt text keeps saving; publishing it is refused", async () => {
    const image = await uploadImage(null);
    const draft = await create(unique("Font"), "x");
    const saved = await update(draft.id, { title: draft.title, body: `![](${image.url})` }, draft.revision);
    expect(saved.errors).toBeUndefined();
    const refused = await editor.request(`mutation($id: ID!) { publishPost(id: $id) { id } }`, { id: draft.id });
    expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ body: "image_alt_missing" });
  });

  it("history: an earlier version is restored into the working copy, and goes live with Update", async () => {
    const title = unique("Harvest");
    const live = await publish((await create(title, "First text.")).id);
    const saved = (await update(live.id, { title, body: "Second text." }, live.revision)).data!.updatePost;
    const second = await call(editor, "publishPostChanges", `mutation($id: ID!) { publishPostChanges(id: $id) { ${FIELDS} } }`, { id: live.id });
    expect(second.body).toBe("Second text.");
    expect(second.history.map((h) => h.body)).toEqual(expect.arrayContaining(["Second text.", "First text."]));
    expect(second.history[0]!.body).toBe("Second text."); // newest first
    const first = second.history.find((h) => h.body === "First text." && h.published)!;
    const restored = await call(
      editor,
      "restorePostRevision",
      `mutation($id: ID!, $r: ID!, $e: Int!) { restorePostRevision(id: $id, revisionId: $r, expectedRevision: $e) { ${FIELDS} } }`,
      { id: live.id, r: first.id, e: second.revision },
    );
    expect(restored.working?.body).toBe("First text.");
    expect((await publicPost(live.slug))?.body).toBe("Second text.");
    await call(editor, "publishPostChanges", `mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, { id: live.id });
    expect((await publicPost(live.slug))?.body).toBe("First text.");
    expect(saved.working?.body).toBe("Second text.");
  });

  it("unpublishing (or archiving) a post with a working copy makes the working copy its text, and none is left behind", async () => {
    const title = unique("Picnic");
    const live = await publish((await create(title, "In the park.")).id);
    const saved = (await update(live.id, { title, body: "In the park, at noon." }, live.revision)).data!.updatePost;
    const draft = await call(editor, "unpublishPost", `mutation($id: ID!) { unpublishPost(id: $id) { ${FIELDS} } }`, { id: live.id });
    expect(draft).toMatchObject({ status: "DRAFT", body: "In the park, at noon.", working: null });
    expect(draft.revision).toBe(saved.revision + 1);
    const again = await publish(draft.id);
    expect(again).toMatchObject({ body: "In the park, at noon.", working: null });
    const changed = (await update(again.id, { title, body: "Rain: in the hall." }, again.revision)).data!.updatePost;
    const archived = (await editor.request<{ archivePosts: Doc[] }>(`mutation($ids: [ID!]!) { archivePosts(ids: $ids) { ${FIELDS} } }`, { ids: [changed.id] })).data!.archivePosts[0]!;
    expect(archived).toMatchObject({ status: "ARCHIVED", body: "Rain: in the hall.", working: null });
  });

  it("keeps at most HISTORY_MAX versions, and a visitor sees neither working copy nor history", async () => {
    const title = unique("Notices");
    let doc = await create(title, "v0");
    for (let i = 1; i <= HISTORY_MAX + 2; i++) {
      doc = await publish(doc.id);
      const saved = (await update(doc.id, { title, body: `v${i}` }, doc.revision)).data!.updatePost;
      doc = await call(editor, "publishPostChanges", `mutation($id: ID!) { publishPostChanges(id: $id) { ${FIELDS} } }`, { id: saved.id });
    }
    expect(doc.history.length).toBe(HISTORY_MAX);
    expect(doc.history[0]!.body).toBe(`v${HISTORY_MAX + 2}`);
    const seen = await visitor.request<{ post: { working: unknown; history: unknown[] } }>(`query($s: String!) { post(slug: $s) { working { body } history { id } } }`, { s: doc.slug });
    expect(seen.data?.post).toEqual({ working: null, history: [] });
  });
});

describe("published pages keep a working copy", () => {
  it("autosave → site unchanged → Update → live; restore an earlier version", async () => {
    const created = (await editor.request<{ createPage: Doc }>(`mutation($i: PageInput!) { createPage(input: $i) { ${FIELDS.replace(" summary", "")} } }`, { i: { title: unique("About"), body: "We meet on Sundays." } })).data!.createPage;
    const live = (await editor.request<{ publishPage: Doc }>(`mutation($id: ID!) { publishPage(id: $id) { id slug revision } }`, { id: created.id })).data!.publishPage;
    const pageFields = "id body revision working { body } history { id body published }";
    const saved = (await editor.request<{ updatePage: Doc }>(`mutation($id: ID!, $i: PageInput!, $r: Int!) { updatePage(id: $id, input: $i, expectedRevision: $r) { ${pageFields} } }`, { id: live.id, i: { title: created.title, body: "We meet on Sundays at ten." }, r: live.revision })).data!.updatePage;
    expect(saved.body).toBe("We meet on Sundays.");
    expect(saved.working?.body).toBe("We meet on Sundays at ten.");
    const readPage = async () => (await visitor.request<{ page: { body: string } }>(`query($s: String!) { page(slug: $s) { body } }`, { s: live.slug })).data?.page.body;
    expect(await readPage()).toBe("We meet on Sundays.");
    const updated = (await editor.request<{ publishPageChanges: Doc }>(`mutation($id: ID!) { publishPageChanges(id: $id) { ${pageFields} } }`, { id: live.id })).data!.publishPageChanges;
    expect(await readPage()).toBe("We meet on Sundays at ten.");
    const first = updated.history.find((h) => h.body === "We meet on Sundays." && h.published)!;
    const restored = (await editor.request<{ restorePageRevision: Doc }>(`mutation($id: ID!, $r: ID!, $e: Int!) { restorePageRevision(id: $id, revisionId: $r, expectedRevision: $e) { ${pageFields} } }`, { id: live.id, r: first.id, e: updated.revision })).data!.restorePageRevision;
    expect(restored.working?.body).toBe("We meet on Sundays.");
  });
});

describe("the admin list of published posts and pages (QUALITY P2)", () => {
  type ListDoc = { id: string; revision: number; working: { body: string } | null };
  const LIST = (kind: "posts" | "pages") => `query($first: Int, $search: String) { ${kind}(first: $first, search: $search) { edges { node { id revision working { body } } } } }`;

  /** 50 published documents (seeded directly, as setup), every fifth with unpublished changes. */
  async function seed(kind: "post" | "page", tag: string) {
    const su = await system();
    for (let i = 0; i < 50; i++) {
      const doc = await su.collection(`${kind}s`).create({ title: `${tag} ${i}`, slug: `${tag.toLowerCase()}-${i}`, body: "As printed.", status: "published", revision: 1, audience: "public" });
      if (i % 5 === 0) await su.collection("revisions").create({ [kind]: doc.id, working: true, published: false, title: doc.title, body: "Changed.", fields: {}, revision: 2 });
    }
  }

  for (const kind of ["post", "page"] as const) {
    it(`${kind}s: page sizes 5 and 50 cost the same PocketBase calls (every working copy in one read)`, async () => {
      const tag = unique("Harvest").replace(/\W/g, "");
      await seed(kind, tag);
      const query = LIST(`${kind}s`);
      type Result = Record<string, { edges: { node: ListDoc }[] }>;
      await editor.request(query, { first: 1, search: tag }); // warm up: the editor's session is looked up once
      const small = await countPocketBaseCalls(() => editor.request<Result>(query, { first: 5, search: tag }));
      const large = await countPocketBaseCalls(() => editor.request<Result>(query, { first: 50, search: tag }));
      expect(small.result.errors).toBeUndefined();
      expect(large.result.errors).toBeUndefined();
      const page = large.result.data![`${kind}s`]!.edges.map((e) => e.node);
      expect(page).toHaveLength(50);
      expect(page.filter((p) => p.working?.body === "Changed." && p.revision === 2)).toHaveLength(10);
      expect(large.calls).toBe(small.calls);
    });
  }
});
