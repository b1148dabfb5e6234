// Working copies and history of published posts and pages (issue 12): autosave never changes what
// is live; "Update" does; missing alt text blocks Update, never a save; earlier versions restore.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { HISTORY_MAX } from "../src/schema/content/revisions.ts";
import {
  countPocketBaseCalls,
  createUser,
  CSRF_HEADER,
  errorCode,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
} from "./helpers.ts";
import {
  RevisionsArchivePostsDocument,
  RevisionsCreatePageDocument,
  RevisionsCreatePostDocument,
  RevisionsDiscardPostChangesDocument,
  RevisionsPageListDocument,
  RevisionsPostListDocument,
  RevisionsPublicPostDocument,
  RevisionsPublicPostHistoryDocument,
  RevisionsPublishPageChangesDocument,
  RevisionsPublishPageDocument,
  RevisionsPublishPostChangesDocument,
  RevisionsPublishPostDocument,
  RevisionsReadPageDocument,
  RevisionsRestorePageRevisionDocument,
  RevisionsRestorePostRevisionDocument,
  RevisionsUnpublishPostDocument,
  RevisionsUpdatePageDocument,
  RevisionsUpdatePostDocument,
  type PostInput,
} from "./__generated__/operations.ts";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";

let gateway: Gateway;
let editor: GqlClient;
let visitor: GqlClient;
let seq = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}${seq++}`;

beforeAll(async () => {
  gateway = await testGateway();
  editor = new GqlClient(gateway, {
    token: (await createUser({ roles: ["Editor"], name: "Erin Editor" })).token,
  });
  visitor = new GqlClient(gateway, {});
});
afterAll(() => gateway.close());

// The operations are in ./operations/revisions.graphql (typed by npm run codegen).
async function call<K extends string, R extends Record<K, unknown>, V extends Record<string, unknown>>(
  client: GqlClient,
  key: K,
  document: TypedDocumentNode<R, V>,
  variables: V,
): Promise<R[K]> {
  const result = await client.request<R>(document, variables);
  expect(result.errors).toBeUndefined();
  return result.data![key];
}
const create = (title: string, body: string) =>
  call(editor, "createPost", RevisionsCreatePostDocument, { i: { title, body } });
const update = (id: string, input: PostInput, revision: number) =>
  editor.execute(RevisionsUpdatePostDocument, { id, i: input, r: revision });
const publish = (id: string) => call(editor, "publishPost", RevisionsPublishPostDocument, { id });
const publicPost = async (slug: string) =>
  (await visitor.execute(RevisionsPublicPostDocument, { s: slug })).data?.post;

async function uploadImage(alt: string | null) {
  const form = multipartBody(
    `mutation($f: File!, $alt: String) { uploadMedia(file: $f, alt: $alt) { id url } }`,
    "f",
    fileOf(pngBytes(12, 8), "font.png", "image/png"),
    "font.png",
    { alt },
  );
  const result = await editor.request<{ uploadMedia: { id: string; url: string } }>(
    "",
    {},
    { body: form, headers: { [CSRF_HEADER]: "1" } },
  );
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

    const updated = await call(editor, "publishPostChanges", RevisionsPublishPostChangesDocument, {
      id: live.id,
    });
    expect(updated.body).toBe("Candles at half past six.");
    expect(updated.working).toBeNull();
    expect(updated.revision).toBe(afterSave.revision + 1);
    expect((await publicPost(live.slug))?.body).toBe("Candles at half past six.");
  });

  it("discard drops the working copy and leaves the live post", async () => {
    const title = unique("Youth night");
    const live = await publish((await create(title, "Pizza.")).id);
    const saved = (await update(live.id, { title, body: "Pizza and games." }, live.revision)).data!
      .updatePost;
    const discarded = await call(editor, "discardPostChanges", RevisionsDiscardPostChangesDocument, {
      id: live.id,
    });
    expect(discarded.working).toBeNull();
    expect(discarded.body).toBe("Pizza.");
    expect(discarded.revision).not.toBe(saved.revision);
    expect((await update(live.id, { title, body: "Pizza!" }, discarded.revision)).errors).toBeUndefined();
  });

  it("an image without alt text: saving goes on, Update is refused with the image named", async () => {
    const title = unique("Baptism");
    const live = await publish((await create(title, "Sunday at ten.")).id);
    const image = await uploadImage(null);
    const saved = await update(
      live.id,
      { title, body: `Sunday at ten.\n\n![](${image.url})\n` },
      live.revision,
    );
    expect(saved.errors).toBeUndefined();
    const again = await update(
      live.id,
      { title, body: `Sunday at ten, all welcome.\n\n![](${image.url})\n` },
      saved.data!.updatePost.revision,
    );
    expect(again.errors).toBeUndefined();
    const refused = await editor.request(`mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, {
      id: live.id,
    });
    expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ body: "image_alt_missing" });
    expect((await publicPost(live.slug))?.body).toBe("Sunday at ten.");
  });

  it("a draft with an image without alt text keeps saving; publishing it is refused", async () => {
    const image = await uploadImage(null);
    const draft = await create(unique("Font"), "x");
    const saved = await update(draft.id, { title: draft.title, body: `![](${image.url})` }, draft.revision);
    expect(saved.errors).toBeUndefined();
    const refused = await editor.request(`mutation($id: ID!) { publishPost(id: $id) { id } }`, {
      id: draft.id,
    });
    expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ body: "image_alt_missing" });
  });

  it("history: an earlier version is restored into the working copy, and goes live with Update", async () => {
    const title = unique("Harvest");
    const live = await publish((await create(title, "First text.")).id);
    const saved = (await update(live.id, { title, body: "Second text." }, live.revision)).data!.updatePost;
    const second = await call(editor, "publishPostChanges", RevisionsPublishPostChangesDocument, {
      id: live.id,
    });
    expect(second.body).toBe("Second text.");
    expect(second.history.map((h) => h.body)).toEqual(
      expect.arrayContaining(["Second text.", "First text."]),
    );
    expect(second.history[0]!.body).toBe("Second text."); // newest first
    const first = second.history.find((h) => h.body === "First text." && h.published)!;
    const restored = await call(editor, "restorePostRevision", RevisionsRestorePostRevisionDocument, {
      id: live.id,
      r: first.id,
      e: second.revision,
    });
    expect(restored.working?.body).toBe("First text.");
    expect((await publicPost(live.slug))?.body).toBe("Second text.");
    await call(editor, "publishPostChanges", RevisionsPublishPostChangesDocument, { id: live.id });
    expect((await publicPost(live.slug))?.body).toBe("First text.");
    expect(saved.working?.body).toBe("Second text.");
  });

  it("unpublishing (or archiving) a post with a working copy makes the working copy its text, and none is left behind", async () => {
    const title = unique("Picnic");
    const live = await publish((await create(title, "In the park.")).id);
    const saved = (await update(live.id, { title, body: "In the park, at noon." }, live.revision)).data!
      .updatePost;
    const draft = await call(editor, "unpublishPost", RevisionsUnpublishPostDocument, { id: live.id });
    expect(draft).toMatchObject({ status: "DRAFT", body: "In the park, at noon.", working: null });
    expect(draft.revision).toBe(saved.revision + 1);
    const again = await publish(draft.id);
    expect(again).toMatchObject({ body: "In the park, at noon.", working: null });
    const changed = (await update(again.id, { title, body: "Rain: in the hall." }, again.revision)).data!
      .updatePost;
    const archived = (await editor.execute(RevisionsArchivePostsDocument, { ids: [changed.id] })).data!
      .archivePosts[0]!;
    expect(archived).toMatchObject({ status: "ARCHIVED", body: "Rain: in the hall.", working: null });
  });

  it("keeps at most HISTORY_MAX versions, and a visitor sees neither working copy nor history", async () => {
    const title = unique("Notices");
    let doc = await create(title, "v0");
    for (let i = 1; i <= HISTORY_MAX + 2; i++) {
      doc = await publish(doc.id);
      const saved = (await update(doc.id, { title, body: `v${i}` }, doc.revision)).data!.updatePost;
      doc = await call(editor, "publishPostChanges", RevisionsPublishPostChangesDocument, { id: saved.id });
    }
    expect(doc.history.length).toBe(HISTORY_MAX);
    expect(doc.history[0]!.body).toBe(`v${HISTORY_MAX + 2}`);
    const seen = await visitor.execute(RevisionsPublicPostHistoryDocument, { s: doc.slug });
    expect(seen.data?.post).toEqual({ working: null, history: [] });
  });
});

describe("published pages keep a working copy", () => {
  it("autosave → site unchanged → Update → live; restore an earlier version", async () => {
    const created = (
      await editor.execute(RevisionsCreatePageDocument, {
        i: { title: unique("About"), body: "We meet on Sundays." },
      })
    ).data!.createPage;
    const live = (await editor.execute(RevisionsPublishPageDocument, { id: created.id })).data!.publishPage;
    const saved = (
      await editor.execute(RevisionsUpdatePageDocument, {
        id: live.id,
        i: { title: created.title, body: "We meet on Sundays at ten." },
        r: live.revision,
      })
    ).data!.updatePage;
    expect(saved.body).toBe("We meet on Sundays.");
    expect(saved.working?.body).toBe("We meet on Sundays at ten.");
    const readPage = async () =>
      (await visitor.execute(RevisionsReadPageDocument, { s: live.slug })).data?.page!.body;
    expect(await readPage()).toBe("We meet on Sundays.");
    const updated = (await editor.execute(RevisionsPublishPageChangesDocument, { id: live.id })).data!
      .publishPageChanges;
    expect(await readPage()).toBe("We meet on Sundays at ten.");
    const first = updated.history.find((h) => h.body === "We meet on Sundays." && h.published)!;
    const restored = (
      await editor.execute(RevisionsRestorePageRevisionDocument, {
        id: live.id,
        r: first.id,
        e: updated.revision,
      })
    ).data!.restorePageRevision;
    expect(restored.working?.body).toBe("We meet on Sundays.");
  });
});

describe("the admin list of published posts and pages (QUALITY P2)", () => {
  /** 50 published documents (seeded directly, as setup), every fifth with unpublished changes. */
  async function seed(kind: "post" | "page", tag: string) {
    const su = await system();
    for (let i = 0; i < 50; i++) {
      const doc = await su.collection(`${kind}s`).create({
        title: `${tag} ${i}`,
        slug: `${tag.toLowerCase()}-${i}`,
        body: "As printed.",
        status: "published",
        revision: 1,
        audience: "public",
      });
      if (i % 5 === 0)
        await su.collection("revisions").create({
          [kind]: doc.id,
          working: true,
          published: false,
          title: doc.title,
          body: "Changed.",
          fields: {},
          revision: 2,
        });
    }
  }

  for (const kind of ["post", "page"] as const) {
    it(`${kind}s: page sizes 5 and 50 cost the same PocketBase calls (every working copy in one read)`, async () => {
      const tag = unique("Harvest").replace(/\W/g, "");
      await seed(kind, tag);
      // The list of this kind: its errors and its rows.
      const list = (first: number) =>
        kind === "post"
          ? editor
              .execute(RevisionsPostListDocument, { first, search: tag })
              .then((r) => ({ errors: r.errors, rows: r.data?.posts.edges.map((e) => e.node) }))
          : editor
              .execute(RevisionsPageListDocument, { first, search: tag })
              .then((r) => ({ errors: r.errors, rows: r.data?.pages.edges.map((e) => e.node) }));
      await list(1); // warm up: the editor's session is looked up once
      const small = await countPocketBaseCalls(() => list(5));
      const large = await countPocketBaseCalls(() => list(50));
      expect(small.result.errors).toBeUndefined();
      expect(large.result.errors).toBeUndefined();
      const page = large.result.rows!;
      expect(page).toHaveLength(50);
      expect(page.filter((p) => p.working?.body === "Changed." && p.revision === 2)).toHaveLength(10);
      expect(large.calls).toBe(small.calls);
    });
  }
});
