/**
 * The CONTENT_WRITE journey through GraphQL (issue 16): staff create a token with the scope; the token
 * creates a draft post and edits it; staff see it in the admin list and editor attributed to the token
 * (byline, history), edit it too, and publish it; from then on the token can no longer change it. The
 * rules behind each refusal are the table in authorization-tokens.int.test.ts; this is the flow.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, errorCode, GqlClient, system, testGateway, type TestUser } from "./helpers.ts";

const run = `cw${randomUUID().slice(0, 8)}`;
let gateway: Gateway;
let su: PocketBase;
let admin: TestUser;
let editor: TestUser;
let writer: { id: string; secret: string; name: string };
let reader: { secret: string };

const POST_FIELDS = `id slug title summary status authorName byApiToken revision can { edit publish delete } history { editorName byApiToken }`;
type PostAnswer = {
  id: string;
  slug: string;
  title: string;
  summary: string;
  status: string;
  authorName: string;
  byApiToken: boolean;
  revision: number;
  can: { edit: boolean; publish: boolean; delete: boolean };
  history: Array<{ editorName: string; byApiToken: boolean }>;
};
const CREATE = `mutation ($input: PostInput!) { createPost(input: $input) { ${POST_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: PostInput!, $rev: Int!) { updatePost(id: $id, input: $input, expectedRevision: $rev) { ${POST_FIELDS} } }`;
const BY_ID = `query ($id: ID!) { postById(id: $id) { ${POST_FIELDS} } }`;
const DRAFTS = `query ($q: String) { posts(first: 50, search: $q, status: DRAFT, orderBy: LAST_EDITED) { edges { node { id authorName byApiToken } } } }`;

async function createToken(name: string, scopes: string[]) {
  const answer = await new GqlClient(gateway, { token: admin.token }).request<{
    createApiToken: { secret: string; token: { id: string; scopes: string[] } };
  }>(
    `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id scopes } } }`,
    { input: { name, scopes } },
  );
  expect(answer.errors).toBeUndefined();
  return {
    id: answer.data!.createApiToken.token.id,
    secret: answer.data!.createApiToken.secret,
    name,
    scopes: answer.data!.createApiToken.token.scopes,
  };
}

const asToken = (secret: string) => new GqlClient(gateway, { token: secret, ip: "198.51.100.90" });
const asUser = (user: TestUser) => new GqlClient(gateway, { token: user.token });

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  admin = await createUser({ roles: ["Administrator"], name: "Ada Admin" });
  editor = await createUser({ roles: ["Editor"], name: "Eddie Editor" });
  const created = await createToken(`Website form ${run}`, ["CONTENT_WRITE"]);
  expect(created.scopes).toEqual(["CONTENT_WRITE"]);
  writer = created;
  reader = await createToken(`Lobby screen ${run}`, ["CONTENT_MEMBERS"]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe("a CONTENT_WRITE token", () => {
  it("creates a draft and edits it; staff see it as the token's, edit it and publish it; then the token can no longer change it", async () => {
    const token = asToken(writer.secret);
    // Create: always a draft, bylined with the token's name.
    const created = await token.request<{ createPost: PostAnswer }>(CREATE, {
      input: {
        title: `Youth retreat ${run}`,
        summary: "Sign-ups open",
        body: "Bring a sleeping bag.",
        audience: "MEMBERS",
      },
    });
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    const post = created.data!.createPost;
    // `can`: the token may edit its draft, never publish or delete it.
    expect(post).toMatchObject({
      status: "DRAFT",
      authorName: writer.name,
      byApiToken: true,
      revision: 1,
      can: { edit: true, publish: false, delete: false },
    });
    const stored = await su.collection("posts").getOne(post.id);
    expect(stored).toMatchObject({
      authorClient: writer.id,
      updatedByClient: writer.id,
      author: "",
      updatedBy: "",
      publishAt: "",
      status: "draft",
    });

    // Edit its own draft: a history entry names the token.
    const edited = await token.request<{ updatePost: PostAnswer }>(UPDATE, {
      id: post.id,
      input: { title: `Youth retreat ${run} (March)`, body: "Bring a sleeping bag and a torch." },
      rev: 1,
    });
    expect(edited.errors, JSON.stringify(edited.errors)).toBeUndefined();
    expect(edited.data!.updatePost).toMatchObject({
      title: `Youth retreat ${run} (March)`,
      revision: 2,
      history: [{ editorName: writer.name, byApiToken: true }],
    });
    // A stale revision is a CONFLICT for a token as for anyone.
    expect(errorCode(await token.request(UPDATE, { id: post.id, input: { title: "Stale" }, rev: 1 }))).toBe(
      "CONFLICT",
    );

    // It reads its own draft, and only its own drafts.
    const staffDraft = await su.collection("posts").create({
      title: `Staff draft ${run}`,
      slug: `staff-draft-${run}`,
      status: "draft",
      audience: "public",
      author: editor.id,
      authorName: "Eddie Editor",
      revision: 1,
    });
    const tokenDrafts = await token.request<{ posts: { edges: Array<{ node: { id: string } }> } }>(DRAFTS, {
      q: run,
    });
    expect(tokenDrafts.errors).toBeUndefined();
    expect(tokenDrafts.data!.posts.edges.map((e) => e.node.id)).toEqual([post.id]);
    // Another token (even one reading members' content) sees none of the drafts.
    const readerDrafts = await asToken(reader.secret).request<{ posts: { edges: unknown[] } }>(DRAFTS, {
      q: run,
    });
    expect(readerDrafts.data!.posts.edges).toEqual([]);
    expect(errorCode(await asToken(reader.secret).request(CREATE, { input: { title: "Not allowed" } }))).toBe(
      "FORBIDDEN",
    );

    // Staff: the admin list (last edited first) and the editor name the token.
    const list = await asUser(editor).request<{
      posts: { edges: Array<{ node: { id: string; authorName: string; byApiToken: boolean } }> };
    }>(DRAFTS, { q: run });
    expect(list.data!.posts.edges.map((e) => e.node)).toEqual([
      { id: staffDraft.id, authorName: "Eddie Editor", byApiToken: false },
      { id: post.id, authorName: writer.name, byApiToken: true },
    ]);
    const opened = await asUser(editor).request<{ postById: PostAnswer }>(BY_ID, { id: post.id });
    expect(opened.data!.postById).toMatchObject({
      authorName: writer.name,
      byApiToken: true,
      can: { edit: true },
      history: [{ editorName: writer.name, byApiToken: true }],
    });

    // Staff edit the token's draft: the history shows both; "last saved by" is the person now.
    const staffEdit = await asUser(editor).request<{ updatePost: PostAnswer }>(UPDATE, {
      id: post.id,
      input: { title: `Youth retreat ${run}: 14–16 March` },
      rev: 2,
    });
    expect(staffEdit.errors, JSON.stringify(staffEdit.errors)).toBeUndefined();
    expect(staffEdit.data!.updatePost.history).toEqual([
      { editorName: "Eddie Editor", byApiToken: false },
      { editorName: writer.name, byApiToken: true },
    ]);
    expect(await su.collection("posts").getOne(post.id)).toMatchObject({
      updatedBy: editor.id,
      updatedByClient: "",
      authorClient: writer.id,
    });

    // The token edits it again (still a draft): the last save is the token's again.
    const again = await token.request<{ updatePost: PostAnswer }>(UPDATE, {
      id: post.id,
      input: { title: `Youth retreat ${run}: 14–16 March`, summary: "Sign-ups open until 1 March" },
      rev: 3,
    });
    expect(again.errors, JSON.stringify(again.errors)).toBeUndefined();
    expect(again.data!.updatePost.history[0]).toEqual({ editorName: writer.name, byApiToken: true });
    expect(await su.collection("posts").getOne(post.id)).toMatchObject({
      updatedBy: "",
      updatedByClient: writer.id,
    });

    // The token cannot publish, schedule, unpublish or delete it.
    for (const mutation of [
      `mutation ($id: ID!) { publishPost(id: $id) { id } }`,
      `mutation ($id: ID!) { publishPost(id: $id, publishAt: "2099-01-01T10:00:00Z") { id } }`,
      `mutation ($id: ID!) { unpublishPost(id: $id) { id } }`,
      `mutation ($id: ID!) { archivePosts(ids: [$id]) { id } }`,
      `mutation ($id: ID!) { deletePost(id: $id) }`,
    ]) {
      expect(errorCode(await token.request(mutation, { id: post.id })), mutation).toBe("FORBIDDEN");
    }
    expect((await su.collection("posts").getOne(post.id)).status).toBe("draft");

    // Staff publish it as they publish any draft.
    const published = await asUser(admin).request<{ publishPost: { status: string; authorName: string } }>(
      `mutation ($id: ID!) { publishPost(id: $id) { status authorName } }`,
      { id: post.id },
    );
    expect(published.errors, JSON.stringify(published.errors)).toBeUndefined();
    expect(published.data!.publishPost).toEqual({ status: "PUBLISHED", authorName: writer.name });
    // Members read it with the token's byline.
    const member = await createUser();
    const live = await asUser(member).request<{ post: { title: string; authorName: string } | null }>(
      `query ($slug: String!) { post(slug: $slug) { title authorName } }`,
      { slug: post.slug },
    );
    expect(live.data!.post).toEqual({ title: `Youth retreat ${run}: 14–16 March`, authorName: writer.name });

    // Published: no longer the token's to change (not even through a working copy). A members-only post
    // is not even the token's to read any more (it lacks CONTENT_MEMBERS): NOT_FOUND, as for a member.
    expect(errorCode(await token.request(BY_ID, { id: post.id }))).toBeUndefined();
    expect((await token.request<{ postById: unknown }>(BY_ID, { id: post.id })).data!.postById).toBeNull();
    expect(
      errorCode(await token.request(UPDATE, { id: post.id, input: { title: "Sneaky change" }, rev: 5 })),
    ).toBe("NOT_FOUND");
    expect(
      await su
        .collection("revisions")
        .getFullList({ filter: su.filter("post = {:id} && working = true", { id: post.id }) }),
    ).toEqual([]);
    expect((await su.collection("posts").getOne(post.id)).title).toBe(`Youth retreat ${run}: 14–16 March`);
  });

  it("gets a free slug even when a draft it cannot see has the one its title makes; its own choice of a taken slug is a CONFLICT", async () => {
    const hidden = await su.collection("posts").create({
      title: "Hidden",
      slug: `bake-sale-${run}`,
      status: "draft",
      audience: "public",
      author: editor.id,
      revision: 1,
    });
    const token = asToken(writer.secret);
    const created = await token.request<{ createPost: { slug: string } }>(CREATE, {
      input: { title: `Bake sale ${run}` },
    });
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    expect(created.data!.createPost.slug).not.toBe(hidden.slug);
    expect(created.data!.createPost.slug.startsWith(`bake-sale-${run}-`)).toBe(true);
    expect(errorCode(await token.request(CREATE, { input: { title: "Mine", slug: hidden.slug } }))).toBe(
      "CONFLICT",
    );
  });

  it("writes no pages and cannot reach staff-only content operations", async () => {
    const token = asToken(writer.secret);
    expect(errorCode(await token.request(`mutation { createPage(input: { title: "A page" }) { id } }`))).toBe(
      "FORBIDDEN",
    );
    const page = await su
      .collection("pages")
      .create({ title: "About", slug: `about-${run}`, status: "draft", revision: 1 });
    expect(
      errorCode(
        await token.request(
          `mutation ($id: ID!) { updatePage(id: $id, input: { title: "x" }, expectedRevision: 1) { id } }`,
          { id: page.id },
        ),
      ),
    ).toBe("FORBIDDEN");
    expect(
      errorCode(await token.request(`mutation ($id: ID!) { publishPage(id: $id) { id } }`, { id: page.id })),
    ).toBe("FORBIDDEN");
  });
});
