/**
 * Every list field returns its items in the order its SDL description promises, page after page.
 * The data is arranged so that the promised order differs from the order of creation and from the
 * order of the last edit (editing an old item must not move it to the top of a "newest first" list).
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import {
  createUser,
  CSRF_HEADER,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import {
  ListOrdersCreatePageDocument,
  ListOrdersCreatePostDocument,
  ListOrdersHomeNewsDocument,
  ListOrdersNavigationDocument,
  ListOrdersRolesDocument,
  ListOrdersSubmitPrayerDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let su: PocketBase;
let editor: GqlClient;
let admin: GqlClient;
let staff: TestUser;

const tag = () => randomUUID().replace(/-/g, "").slice(0, 10);
const pause = () => new Promise((resolve) => setTimeout(resolve, 5)); // distinct millisecond timestamps

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  editor = new GqlClient(gateway, { token: (await createUser({ roles: ["Editor"] })).token });
  admin = new GqlClient(gateway, { token: (await createUser({ roles: ["Administrator"] })).token });
  staff = await createUser({ roles: ["Pastor"] });
});
afterAll(() => gateway.close());

async function ok<T>(result: Promise<{ data?: T | null; errors?: unknown }>): Promise<T> {
  const { data, errors } = await result;
  expect(errors).toBeUndefined();
  return data!;
}

/**
 * Reads a connection to the end, one item per page (so every cursor is used), and returns the
 * values `pick` takes from each node.
 */
async function readAll(
  client: GqlClient,
  field: string,
  args: string,
  selection: string,
  variables: Record<string, unknown> = {},
): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const data: Record<
      string,
      {
        edges: Array<{ node: Record<string, string> }>;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      }
    > = await ok(
      client.request(
        `query($after: String, $q: String) { ${field}(first: 1, after: $after${args ? `, ${args}` : ""}) { edges { node { ${selection} } } pageInfo { hasNextPage endCursor } } }`,
        { ...variables, after },
      ),
    );
    const page = data[field]!;
    out.push(...page.edges.map((e) => Object.values(e.node).join(" ")));
    if (!page.pageInfo.hasNextPage) return out;
    after = page.pageInfo.endCursor;
  }
  throw new Error("too many pages");
}

describe("content", () => {
  const POST = ListOrdersCreatePostDocument; // ./operations/list-orders.graphql
  const PUBLISH = `mutation($id: ID!) { publishPost(id: $id) { revision } }`;
  const EDIT = `mutation($id: ID!, $i: PostInput!, $r: Int!) { updatePost(id: $id, input: $i, expectedRevision: $r) { revision } }`;

  it("posts: newest publication first, then never-published posts newest created first; LAST_EDITED by last change", async () => {
    const t = tag();
    const create = async (name: string) =>
      (await ok(editor.execute(POST, { i: { title: `${name} ${t}` } }))).createPost;
    const early = await create("Early");
    await pause();
    const draftOld = await create("DraftOld");
    await pause();
    const late = await create("Late");
    await pause();
    await create("DraftNew");
    // Publish "Late" before "Early": Early is the newest publication although it was created first.
    await ok(editor.request(PUBLISH, { id: late.id }));
    await pause();
    await ok(editor.request(PUBLISH, { id: early.id }));
    await pause();
    // Then edit the oldest things: an edit must not move them up a "newest first" list.
    await ok(
      editor.request(EDIT, {
        id: draftOld.id,
        i: { title: `DraftOld ${t}`, summary: "edited" },
        r: draftOld.revision,
      }),
    );
    await pause();
    await ok(
      editor.request(EDIT, {
        id: late.id,
        i: { title: `Late ${t}`, summary: "edited" },
        r: late.revision + 1,
      }),
    );

    const titles = (list: string[]) => list.map((s) => s.split(" ")[0]);
    expect(titles(await readAll(editor, "posts", "search: $q", "title", { q: t }))).toEqual([
      "Early",
      "Late",
      "DraftNew",
      "DraftOld",
    ]);
    expect(
      titles(await readAll(editor, "posts", "search: $q, status: PUBLISHED", "title", { q: t })),
    ).toEqual(["Early", "Late"]);
    expect(titles(await readAll(new GqlClient(gateway), "posts", "search: $q", "title", { q: t }))).toEqual([
      "Early",
      "Late",
    ]);
    expect(
      titles(await readAll(editor, "posts", "search: $q, orderBy: LAST_EDITED", "title", { q: t })),
    ).toEqual(["Late", "DraftOld", "Early", "DraftNew"]);
  });

  it("pages: by navigation order, then title — not by last edit", async () => {
    const t = tag();
    const create = async (title: string) =>
      (
        await ok(
          editor.execute(ListOrdersCreatePageDocument, { i: { title: `${title} ${t}`, showInNav: true } }),
        )
      ).createPage;
    const c = await create("Charlie");
    const a = await create("Alpha");
    const b = await create("Bravo");
    await create("Zulu"); // drafts, not in the editors' order: after it, by title
    await create("Yankee");
    for (const page of [a, b, c])
      await ok(editor.request(`mutation($id: ID!) { publishPage(id: $id) { id } }`, { id: page.id }));
    await ok(
      editor.request(`mutation($ids: [ID!]!) { reorderNavigation(pageIds: $ids) { path } }`, {
        ids: [b.id, c.id, a.id],
      }),
    );
    await pause();
    // Edit the page that comes last: it must stay last.
    await ok(
      editor.request(
        `mutation($id: ID!, $i: PageInput!, $r: Int!) { updatePage(id: $id, input: $i, expectedRevision: $r) { id } }`,
        {
          id: a.id,
          i: { title: `Alpha ${t}`, body: "edited" },
          r: (
            await ok(
              editor.request<{ pageById: { revision: number } }>(
                `query($id: ID!) { pageById(id: $id) { revision } }`,
                { id: a.id },
              ),
            )
          ).pageById.revision,
        },
      ),
    );

    const first = (list: string[]) => list.map((s) => s.split(" ")[0]);
    expect(first(await readAll(editor, "pages", "search: $q", "title", { q: t }))).toEqual([
      "Bravo",
      "Charlie",
      "Alpha",
      "Yankee",
      "Zulu",
    ]);
    expect(first(await readAll(editor, "pages", "search: $q, status: PUBLISHED", "title", { q: t }))).toEqual(
      ["Bravo", "Charlie", "Alpha"],
    );
    const nav = (await ok(new GqlClient(gateway).execute(ListOrdersNavigationDocument))).navigation
      .map((l) => l.title)
      .filter((title) => title.endsWith(t));
    expect(first(nav)).toEqual(["Bravo", "Charlie", "Alpha"]);
  });

  it("homeNews: pinned posts first, then the most recent publication", async () => {
    const t = tag();
    const made: Record<string, string> = {};
    for (const [name, pinned] of [
      ["Pinned", true],
      ["Older", false],
      ["Newer", false],
    ] as const) {
      const post = (await ok(editor.execute(POST, { i: { title: `${name} ${t}`, pinned } }))).createPost;
      made[name] = post.id;
    }
    for (const name of ["Pinned", "Older", "Newer"]) {
      await ok(editor.request(PUBLISH, { id: made[name] }));
      await pause();
    }
    const home = (await ok(new GqlClient(gateway).execute(ListOrdersHomeNewsDocument))).homeNews.map(
      (p) => p.title,
    );
    const ours = home.filter((title) => title.endsWith(t)).map((s) => s.split(" ")[0]);
    expect(ours).toEqual(["Pinned", "Newer", "Older"]);
  });
});

describe("media, accounts, people", () => {
  it("mediaLibrary: newest first, whatever was edited since", async () => {
    const t = tag();
    const upload = async (name: string) => {
      const form = multipartBody(
        `mutation($f: File!) { uploadMedia(file: $f, alt: "x") { id } }`,
        "f",
        fileOf(pngBytes(), `${name}-${t}.png`, "image/png"),
        `${name}-${t}.png`,
      );
      return (
        await ok(
          editor.request<{ uploadMedia: { id: string } }>(
            "",
            {},
            { body: form, headers: { [CSRF_HEADER]: "1" } },
          ),
        )
      ).uploadMedia.id;
    };
    const older = await upload("older");
    await pause();
    const newer = await upload("newer");
    await pause();
    await ok(
      editor.request(`mutation($id: ID!) { updateMedia(id: $id, input: { alt: "edited" }) { id } }`, {
        id: older,
      }),
    );
    const ids = await readAll(editor, "mediaLibrary", "search: $q", "id", { q: t });
    expect(ids).toEqual([newer, older]);
  });

  it("users: newest first, whatever was edited since", async () => {
    const t = tag();
    const older = await createUser({ name: `Older ${t}` });
    await pause();
    const newer = await createUser({ name: `Newer ${t}` });
    await su.collection("users").update(older.id, { name: `Older ${t} edited` });
    expect(await readAll(admin, "users", "search: $q", "id", { q: t })).toEqual([newer.id, older.id]);
  });

  it("people by last then first name; households by name", async () => {
    const t = tag();
    const person = (firstName: string, lastName: string) =>
      su.collection("people").create({
        firstName,
        lastName: `${lastName}${t}`,
        recordStatus: "active",
        membershipStatus: "member",
      });
    const people = [await person("Zed", "Brown"), await person("Amy", "Brown"), await person("Bea", "Adams")];
    await su.collection("people").update(people[2]!.id, { preferredName: "edited" });
    const staffClient = new GqlClient(gateway, { token: staff.token });
    const names = await readAll(staffClient, "people", "filter: { search: $q }", "firstName lastName", {
      q: t,
    });
    expect(names).toEqual([`Bea Adams${t}`, `Amy Brown${t}`, `Zed Brown${t}`]);

    for (const name of [`Carter ${t}`, `Abbott ${t}`, `Baker ${t}`])
      await su.collection("households").create({ name });
    expect(await readAll(staffClient, "households", "search: $q", "name", { q: t })).toEqual([
      `Abbott ${t}`,
      `Baker ${t}`,
      `Carter ${t}`,
    ]);
  });
});

describe("prayer, visits, directory, roles", () => {
  /** The ids of a connection's first 100 nodes (other files' data is there too: callers filter). */
  async function first100(client: GqlClient, field: string, args = "") {
    const data = await ok(
      client.request<Record<string, { edges: Array<{ node: { id: string } }> }>>(
        `{ ${field}(first: 100${args ? `, ${args}` : ""}) { edges { node { id } } } }`,
      ),
    );
    return data[field]!.edges.map((e) => e.node.id);
  }
  const only = (ids: string[], ours: string[]) => ids.filter((id) => ours.includes(id));

  it("prayer: the queue oldest first; the wall and my requests newest first, whatever was approved or edited since", async () => {
    const moderator = new GqlClient(gateway, { token: staff.token });
    const requester = await createUser();
    const mine = new GqlClient(gateway, { token: requester.token });
    const settings = (await su.collection("settings").getFullList())[0]!;
    await su.collection("settings").update(settings.id, { prayerRequiresApproval: true });
    try {
      const ids: string[] = [];
      for (const label of ["first", "second", "third"]) {
        const result = await ok(
          mine.execute(ListOrdersSubmitPrayerDocument, {
            i: {
              body: `Please pray for our ${label} week of moving house ${tag()}`,
              visibility: "PUBLIC",
              anonymous: false,
            },
          }),
        );
        ids.push(result.submitPrayerRequest.id);
        await pause();
      }
      expect(only(await first100(moderator, "prayerQueue"), ids)).toEqual(ids); // oldest first
      // Approve newest first: approval order must not become the wall's order.
      for (const id of [...ids].reverse())
        await ok(moderator.request(`mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`, { id }));
      const newestFirst = [...ids].reverse();
      expect(only(await first100(new GqlClient(gateway), "prayerWall"), ids)).toEqual(newestFirst);
      expect(only(await first100(mine, "myPrayerRequests"), ids)).toEqual(newestFirst);
    } finally {
      await su
        .collection("settings")
        .update(settings.id, { prayerRequiresApproval: settings.prayerRequiresApproval });
    }
  });

  it("visit requests: newest first, whatever was handled since", async () => {
    const ids: string[] = [];
    for (const name of ["Older", "Newer"]) {
      const row = await su
        .collection("visit_requests")
        .create({ name: `${name} ${tag()}`, email: `${tag()}@test.example`, status: "new", partySize: 1 });
      ids.push(row.id);
      await pause();
    }
    await su.collection("visit_requests").update(ids[0]!, { status: "contacted" });
    expect(
      only(await first100(new GqlClient(gateway, { token: staff.token }), "visitRequests"), ids),
    ).toEqual([ids[1], ids[0]]);
  });

  it("the directory by household name; roles by name", async () => {
    const t = tag();
    const listed = async (name: string) => {
      const household = await su.collection("households").create({ name: `${name} ${t}` });
      await su.collection("people").create({
        firstName: "Pat",
        lastName: name,
        household: household.id,
        householdRole: "head",
        recordStatus: "active",
        membershipStatus: "member",
      });
      return household.id;
    };
    const c = await listed("Cole");
    const a = await listed("Abel");
    const b = await listed("Boyd");
    const member = new GqlClient(gateway, { token: (await createUser()).token });
    expect(await readAll(member, "directory", "search: $q", "id", { q: t })).toEqual([a, b, c]);

    const roles = (await ok(admin.execute(ListOrdersRolesDocument))).roles.map((r) => r.name);
    expect(roles).toEqual([...roles].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
  });
});
