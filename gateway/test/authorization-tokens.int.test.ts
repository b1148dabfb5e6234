/**
 * QUALITY.md S1 for API tokens (issue 16): one persona per scope — a token with no scope, one with
 * CONTENT_MEMBERS, one with PRAYER_MEMBERS, one with PEOPLE_DIRECTORY, one with CONTENT_WRITE (which reads
 * nothing beyond the public site but its own drafts) — each reading exactly its scope
 * of posts, events, prayer requests and the people of the member directory. Every cell is checked
 * through PocketBase's REST API as the client's own identity (the target is in its filtered list and
 * getOne answers 200, or neither) and through GraphQL with the bearer token (the target shows in the
 * persona's posts / events / prayerWall / directory, or does not). The people world is the one of
 * authorization-people.int.test.ts (people-fixtures.ts): the directory token's column is what an active
 * member reads through the directory branches only — listed people and households, and their rows
 * marked "members"; never children, opted-out or unlisted people, "private"/"groups"/"leaders" rows or
 * person_private. Subscriptions: the prayer wall over SSE, per persona.
 *
 * The second table is the one write scope, CONTENT_WRITE (pb_migrations/1732540000_content_write_scope.js):
 * its token creates draft posts and edits the drafts it created, and nothing else; every other persona
 * writes nothing. REST as the client's identity, GraphQL with the bearer token.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { errorCode, GqlClient, restStatus, system, testGateway, type GqlResult } from "./helpers.ts";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import { WALL_SUBSCRIPTION, type WallEvent } from "./realtime-support.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  expectGql,
  expectRest,
  type Cells as CellsOf,
  type Check,
} from "./authorization-table.ts";
import { buildPeopleWorld, type CONTACT_ROWS, type PeopleWorld } from "./people-fixtures.ts";

const PERSONAS = ["noScope", "contentMembers", "prayerMembers", "peopleDirectory", "contentWrite"] as const;
type Persona = (typeof PERSONAS)[number];
type Cells = CellsOf<Persona>;
const SCOPES: Record<Persona, string[]> = {
  noScope: [],
  contentMembers: ["CONTENT_MEMBERS"],
  prayerMembers: ["PRAYER_MEMBERS"],
  peopleDirectory: ["PEOPLE_DIRECTORY"],
  contentWrite: ["CONTENT_WRITE"],
};
/** Columns: noScope, contentMembers, prayerMembers, peopleDirectory, contentWrite. */
const { cells, everyone } = columns(PERSONAS);
const CONTENT = cells(D, A, D, D, D);
const PRAYER = cells(D, D, A, D, D);
const DIRECTORY = cells(D, D, D, A, D);
/** Only the CONTENT_WRITE token (its writes are in the second table, below). */
const WRITER = cells(D, D, D, D, A);
const NOBODY = everyone(D);
const ALL = everyone(A);

const CONTACT_READ = {
  memberPrivate: NOBODY,
  memberMembers: DIRECTORY,
  spouseMembers: NOBODY, // the spouse opted out of the directory
  childMembers: NOBODY, // children are never listed
  otherMemberPrivate: NOBODY,
  otherMemberLeaders: NOBODY,
  otherMemberGroups: NOBODY,
  otherMemberMembers: DIRECTORY,
  otherChildMembers: NOBODY,
  pendingMembers: NOBODY, // a pending person is not listed
  editorMembers: NOBODY, // the editor's household opted out
} satisfies Record<keyof typeof CONTACT_ROWS, Cells>;

const TABLE = {
  posts: { publishedPublic: ALL, publishedMembers: CONTENT, draftMembers: NOBODY },
  events: { public: ALL, members: CONTENT },
  prayer_requests: { approvedPublic: ALL, approvedMembers: PRAYER, pendingMembers: NOBODY },
  households: {
    A: DIRECTORY,
    B: DIRECTORY,
    E: NOBODY /* opted out */,
    X: NOBODY /* nobody listed */,
    Vprivate: DIRECTORY,
    Vleaders: DIRECTORY,
    Vgroups: DIRECTORY,
    Vmembers: DIRECTORY,
  },
  people: {
    member: DIRECTORY,
    otherMember: DIRECTORY,
    listedPrivate: DIRECTORY,
    listedMembers: DIRECTORY,
    spouse: NOBODY,
    ownChild: NOBODY,
    otherChild: NOBODY,
    pending: NOBODY,
    editor: NOBODY,
    archived: NOBODY,
  },
  person_emails: CONTACT_READ,
  person_phones: CONTACT_READ,
  person_birthdays: {
    member: NOBODY, // private
    spouse: NOBODY, // members, but opted out
    ownChild: NOBODY, // members, but a child
    otherMember: DIRECTORY,
    otherChild: NOBODY,
    pending: NOBODY,
    editor: NOBODY,
    listedPrivate: NOBODY,
    listedLeaders: NOBODY,
    listedGroups: NOBODY,
    listedMembers: DIRECTORY,
  },
  addresses: {
    A: NOBODY /* private */,
    E: NOBODY,
    X: NOBODY,
    Vprivate: NOBODY,
    Vleaders: NOBODY,
    Vgroups: NOBODY,
    Vmembers: DIRECTORY,
  },
  // The full birth date is staff's and the household's only.
  person_private: {
    member: NOBODY,
    otherMember: NOBODY,
    otherChild: NOBODY,
    pending: NOBODY,
    listedMembers: NOBODY,
  },
} satisfies Record<string, Record<string, Cells>>;
type Collection = keyof typeof TABLE;

let gateway: Gateway;
let su: PocketBase;
let world: PeopleWorld;
const run = `t${randomUUID().slice(0, 8)}`;
const tokens = {} as Record<Persona, { id: string; secret: string }>;
const content = {
  posts: {} as Record<string, string>,
  events: {} as Record<string, string>,
  prayer_requests: {} as Record<string, string>,
};

function targetId(collection: Collection, key: string): string {
  const ids: Record<Collection, Record<string, string | undefined>> = {
    ...content,
    households: world.household,
    people: world.person,
    person_emails: world.emails,
    person_phones: world.phones,
    person_birthdays: world.birthdays,
    addresses: world.addresses,
    person_private: world.privates,
  };
  const id = ids[collection][key];
  if (!id) throw new Error(`no fixture ${collection}/${key}`);
  return id;
}
const targetsOf = (collection: Collection) =>
  Object.keys(TABLE[collection]).map((key) => targetId(collection, key));

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  world = await buildPeopleWorld();
  const admin = world.users.admin!;
  for (const persona of PERSONAS) {
    const result = await new GqlClient(gateway, { token: admin.token }).request<{
      createApiToken: { secret: string; token: { id: string } };
    }>(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id } } }`, {
      input: { name: `${persona} ${run}`, scopes: SCOPES[persona] },
    });
    expect(result.errors).toBeUndefined();
    tokens[persona] = {
      id: result.data!.createApiToken.token.id,
      secret: result.data!.createApiToken.secret,
    };
  }
  const now = new Date().toISOString();
  for (const [key, status, audience] of [
    ["publishedPublic", "published", "public"],
    ["publishedMembers", "published", "members"],
    ["draftMembers", "draft", "members"],
  ] as const) {
    content.posts[key] = (
      await su.collection("posts").create({
        title: `${key} ${run}`,
        slug: `${key.toLowerCase()}-${run}`,
        status,
        audience,
        author: admin.id,
        revision: 1,
        publishedAt: status === "published" ? now : "",
      })
    ).id;
  }
  for (const visibility of ["public", "members"] as const) {
    content.events[visibility] = (
      await su.collection("events").create({
        title: `${visibility} event ${run}`,
        slug: `${visibility}-event-${run}`,
        startsAt: "2027-03-07 15:00:00.000Z",
        endsAt: "2027-03-07 16:00:00.000Z",
        timezone: "America/Chicago",
        visibility,
        status: "published",
        registrationMode: "none",
      })
    ).id;
  }
  for (const [key, status, visibility] of [
    ["approvedPublic", "approved", "public"],
    ["approvedMembers", "approved", "members"],
    ["pendingMembers", "pending", "members"],
  ] as const) {
    content.prayer_requests[key] = (
      await su
        .collection("prayer_requests")
        .create({ body: `${key} prayer ${run}`, visibility, anonymous: true, authorName: "", status })
    ).id;
  }
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

// ─── REST: the client's own PocketBase identity (impersonated by the system, as the gateway does) ──
const restClients = new Map<Persona, Promise<PocketBase>>();
const restAs = (persona: Persona) => {
  if (!restClients.has(persona))
    restClients.set(persona, su.collection("api_clients").impersonate(tokens[persona].id, 600));
  return restClients.get(persona)!;
};

/** In the persona's list (restricted to the table's targets) and viewable by id — or neither. */
async function restRead(collection: Collection, key: string, persona: Persona, expected: "allow" | "deny") {
  const pb = await restAs(persona);
  const id = targetId(collection, key);
  const filter = targetsOf(collection)
    .map((target) => su.filter("id = {:id}", { id: target }))
    .join(" || ");
  const listed = (await pb.collection(collection).getFullList({ filter, fields: "id" })).map((row) => row.id);
  expect(listed.includes(id), `${collection} ${key} listed`).toBe(expected === A);
  const status = await restStatus(() => pb.collection(collection).getOne(id));
  if (expected === A) expect(status).toBe(200);
  else expect([403, 404]).toContain(status);
}

// ─── GraphQL: what the persona's token reads, one request per persona and area ────────────────────
const gqlAs = (persona: Persona) =>
  new GqlClient(gateway, {
    token: tokens[persona].secret,
    ip: `198.51.100.${40 + PERSONAS.indexOf(persona)}`,
  });

type ContentAnswer = {
  posts: { edges: Array<{ node: { id: string } }> };
  events: Array<{ id: string }>;
  prayerWall: { edges: Array<{ node: { id: string } }> };
};
const contentAnswers = new Map<Persona, Promise<GqlResult<ContentAnswer>>>();
function contentOf(persona: Persona) {
  if (!contentAnswers.has(persona)) {
    contentAnswers.set(
      persona,
      gqlAs(persona).request<ContentAnswer>(
        `query ($q: String) { posts(first: 50, search: $q) { edges { node { id } } } events(first: 50, search: $q) { id } prayerWall(first: 100) { edges { node { id } } } }`,
        { q: run },
      ),
    );
  }
  return contentAnswers.get(persona)!;
}

type DirectoryMember = {
  id: string;
  birthDate: string | null;
  birthday: { month: number } | null;
  emails: Array<{ email: string }>;
  phones: Array<{ number: string }>;
};
type DirectoryAnswer = {
  directory: {
    edges: Array<{
      node: { id: string; address: { city: string | null } | null; members: DirectoryMember[] };
    }>;
  };
};
const directoryAnswers = new Map<Persona, Promise<GqlResult<DirectoryAnswer>>>();
function directoryOf(persona: Persona) {
  if (!directoryAnswers.has(persona)) {
    directoryAnswers.set(
      persona,
      gqlAs(persona).request<DirectoryAnswer>(
        `query ($q: String) { directory(first: 100, search: $q) { edges { node { id address { city } members { id birthDate birthday { month } emails { email } phones { number } } } } } }`,
        { q: world.run },
      ),
    );
  }
  return directoryAnswers.get(persona)!;
}

/** What the persona sees of the directory: refused (FORBIDDEN) unless the token has the scope. */
async function directorySeen(persona: Persona) {
  const answer = await directoryOf(persona);
  if (SCOPES[persona].includes("PEOPLE_DIRECTORY"))
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  else expect(errorCode(answer)).toBe("FORBIDDEN");
  const households = answer.data?.directory.edges.map((e) => e.node) ?? [];
  const members = households.flatMap((h) => h.members);
  return { households, members };
}

async function gqlContent(
  collection: "posts" | "events" | "prayer_requests",
  key: string,
  persona: Persona,
  expected: "allow" | "deny",
) {
  const answer = await contentOf(persona);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  const ids = {
    posts: answer.data!.posts.edges.map((e) => e.node.id),
    events: answer.data!.events.map((e) => e.id),
    prayer_requests: answer.data!.prayerWall.edges.map((e) => e.node.id),
  }[collection];
  expect(ids.includes(targetId(collection, key))).toBe(expected === A);
}

/** Whether a people-side target shows through GraphQL (the directory is where a token reads people). */
async function gqlPeopleSees(
  collection: Exclude<Collection, "posts" | "events" | "prayer_requests">,
  key: string,
  persona: Persona,
): Promise<boolean> {
  const { households, members } = await directorySeen(persona);
  const id = targetId(collection, key);
  const row =
    collection === "households" || collection === "people"
      ? null
      : await su.collection(collection).getOne(id);
  switch (collection) {
    case "households":
      return households.some((h) => h.id === id);
    case "people":
      return members.some((m) => m.id === id);
    case "person_emails":
      return members.some((m) => m.emails.some((e) => e.email === row!.email));
    case "person_phones":
      return members.some((m) => m.phones.some((p) => p.number === row!.number));
    case "person_birthdays":
      return members.some((m) => m.id === row!.person && m.birthday !== null);
    case "person_private":
      return members.some((m) => m.id === row!.person && m.birthDate !== null);
    case "addresses":
      return households.some((h) => h.id === row!.household && h.address !== null);
  }
}

const byTarget = <C extends Collection>(
  collection: C,
  check: (key: string, persona: Persona, expected: "allow" | "deny") => Promise<void>,
) =>
  Object.fromEntries(
    Object.keys(TABLE[collection]).map((key) => [
      key,
      (persona: Persona, expected: "allow" | "deny") => check(key, persona, expected),
    ]),
  );

const COLLECTIONS = Object.keys(TABLE) as Collection[];

describeAuthorizationTable({
  personas: PERSONAS,
  table: TABLE,
  rest: Object.fromEntries(
    COLLECTIONS.map((collection) => [
      collection,
      byTarget(collection, (key, persona, expected) => restRead(collection, key, persona, expected)),
    ]),
  ),
  graphql: Object.fromEntries(
    COLLECTIONS.map((collection) => [
      collection,
      byTarget(collection, async (key, persona, expected) => {
        if (collection === "posts" || collection === "events" || collection === "prayer_requests")
          return gqlContent(collection, key, persona, expected);
        expect(await gqlPeopleSees(collection, key, persona)).toBe(expected === A);
      }),
    ]),
  ),
});

describe("the directory for API tokens", () => {
  it("answers FORBIDDEN to a token without PEOPLE_DIRECTORY (never an empty directory), and lists only listed members to one with it", async () => {
    for (const persona of ["noScope", "contentMembers", "prayerMembers", "contentWrite"] as const)
      expect(errorCode(await directoryOf(persona)), persona).toBe("FORBIDDEN");
    const { households, members } = await directorySeen("peopleDirectory");
    const names = Object.fromEntries(Object.entries(world.household).map(([key, id]) => [id, key]));
    expect(households.map((h) => names[h.id]).sort()).toEqual([
      "A",
      "B",
      "Vgroups",
      "Vleaders",
      "Vmembers",
      "Vprivate",
    ]);
    // Children never appear on a card, nor anyone opted out.
    const people = Object.fromEntries(Object.entries(world.person).map(([key, id]) => [id, key]));
    expect(members.map((m) => people[m.id]).sort()).toEqual([
      "listedGroups",
      "listedLeaders",
      "listedMembers",
      "listedPrivate",
      "member",
      "otherMember",
    ]);
  });
});

describe("subscriptions for API tokens", () => {
  it("the prayer wall goes live with members' requests to the PRAYER_MEMBERS token only; every token gets the public ones", async () => {
    const url = await gateway.listen();
    const streams = Object.fromEntries(
      PERSONAS.map((persona) => [
        persona,
        new GraphQLSseClient<WallEvent>({ url, query: WALL_SUBSCRIPTION, token: tokens[persona].secret }),
      ]),
    ) as Record<Persona, GraphQLSseClient<WallEvent>>;
    try {
      await Promise.all(Object.values(streams).map((stream) => stream.open()));
      const members = await su.collection("prayer_requests").create({
        body: `Live members prayer ${run}`,
        visibility: "members",
        anonymous: true,
        authorName: "",
        status: "approved",
      });
      const open = await su.collection("prayer_requests").create({
        body: `Live public prayer ${run}`,
        visibility: "public",
        anonymous: true,
        authorName: "",
        status: "approved",
      });
      const got = (persona: Persona, id: string) =>
        streams[persona].events.some((e) => e.data.data?.prayerWall.id === id);
      await streams.prayerMembers.waitFor(
        () => got("prayerMembers", members.id) && got("prayerMembers", open.id),
        10_000,
        "both requests",
      );
      for (const persona of ["noScope", "contentMembers", "peopleDirectory", "contentWrite"] as const) {
        // The public request was created after the members' one: once it arrived, the other never will.
        await streams[persona].waitFor(
          () => got(persona, open.id),
          10_000,
          `the public request (${persona})`,
        );
        expect(got(persona, members.id), persona).toBe(false);
      }
      // Each API client listens on a PocketBase connection of its own, not the guests'.
      expect(gateway.services.realtime.stats().connections).toBeGreaterThanOrEqual(PERSONAS.length);
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });
});

// ─── Writes: CONTENT_WRITE creates drafts and edits its own drafts, nothing more ─────────────────
/**
 * Targets are fresh records made by the system account for each cell: drafts written by the
 * contentWrite client ("own"), by another CONTENT_WRITE client, by staff; posts of the contentWrite
 * client that staff published. Only that column creates a draft and reads and edits its own drafts
 * (and their history); nobody — that token included — publishes, schedules, sets publishAt,
 * unpublishes, deletes, rewrites its byline, reads or edits anyone else's post, or writes pages.
 */
const WRITES = {
  posts: {
    createDraft: WRITER,
    createPublished: NOBODY,
    createScheduled: NOBODY,
    createDraftWithPublishAt: NOBODY,
    createAsAnotherClient: NOBODY,
    createAsPerson: NOBODY,
    readOwnDraft: WRITER,
    readOtherClientDraft: NOBODY,
    readStaffDraft: NOBODY,
    updateOwnDraft: WRITER,
    updateOtherClientDraft: NOBODY,
    updateStaffDraft: NOBODY,
    updateOwnPublished: NOBODY,
    updateStaffPublished: NOBODY,
    publishOwnDraft: NOBODY,
    scheduleOwnDraft: NOBODY,
    setPublishAtOnOwnDraft: NOBODY,
    renameOwnByline: NOBODY,
    unpublishOwnPublished: NOBODY,
    deleteOwnDraft: NOBODY,
  },
  // History entries (GraphQL: Post.history, written by updatePost).
  revisions: {
    readOwnDraftHistory: WRITER,
    readStaffDraftHistory: NOBODY,
    createOnOwnDraft: WRITER,
    createOnStaffDraft: NOBODY,
    createWorkingCopyOfOwnPublished: NOBODY,
  },
  pages: { create: NOBODY, updateDraft: NOBODY },
} satisfies Record<string, Record<string, Cells>>;
type Writes = typeof WRITES;

let otherWriterId = "";
beforeAll(async () => {
  const admin = world.users.admin!;
  const other = await new GqlClient(gateway, { token: admin.token }).request<{
    createApiToken: { token: { id: string } };
  }>(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { token { id } } }`, {
    input: { name: `Other writer ${run}`, scopes: ["CONTENT_WRITE"] },
  });
  expect(other.errors).toBeUndefined();
  otherWriterId = other.data!.createApiToken.token.id;
}, 60_000);

const clientName = (persona: Persona) => `${persona} ${run}`;
let written = 0;
const writeSlug = (label: string) => `w-${label.toLowerCase()}-${run}-${written++}`;
const soon = () => new Date(Date.now() + 7 * 86_400_000).toISOString().replace("T", " ");
const now = () => new Date().toISOString().replace("T", " ");
/** A post of the contentWrite client (a draft unless told). */
const ownPost = (fields: Record<string, unknown> = {}) =>
  su.collection("posts").create({
    title: `Own post ${run}`,
    slug: writeSlug("own"),
    status: "draft",
    audience: "public",
    revision: 1,
    authorClient: tokens.contentWrite.id,
    updatedByClient: tokens.contentWrite.id,
    authorName: clientName("contentWrite"),
    ...fields,
  });
const otherClientPost = () =>
  su.collection("posts").create({
    title: `Other client ${run}`,
    slug: writeSlug("other"),
    status: "draft",
    audience: "public",
    revision: 1,
    authorClient: otherWriterId,
    authorName: "Other writer",
  });
const staffPost = (fields: Record<string, unknown> = {}) =>
  su.collection("posts").create({
    title: `Staff post ${run}`,
    slug: writeSlug("staff"),
    status: "draft",
    audience: "public",
    revision: 1,
    author: world.users.admin!.id,
    authorName: "Admin",
    ...fields,
  });
const historyOf = (postId: string, by: Record<string, string>) =>
  su.collection("revisions").create({
    post: postId,
    title: "Saved",
    body: "An earlier text",
    fields: {},
    working: false,
    published: false,
    revision: 0,
    ...by,
  });
/** What a persona's client sends to create a draft of its own. */
const draftBody = (persona: Persona, fields: Record<string, unknown> = {}) => ({
  title: "From a script",
  slug: writeSlug("new"),
  status: "draft",
  audience: "public",
  revision: 1,
  authorClient: tokens[persona].id,
  updatedByClient: tokens[persona].id,
  authorName: clientName(persona),
  ...fields,
});
const restUpdate = async (persona: Persona, id: string, data: Record<string, unknown>) =>
  restStatus(async () =>
    (await restAs(persona)).collection("posts").update(id, { updatedByClient: tokens[persona].id, ...data }),
  );

const WRITES_REST: { [C in keyof Writes]: { [O in keyof Writes[C]]: Check<Persona> } } = {
  posts: {
    createDraft: async (p, e) =>
      expectRest(e, await restStatus(async () => (await restAs(p)).collection("posts").create(draftBody(p)))),
    createPublished: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p))
            .collection("posts")
            .create(draftBody(p, { status: "published", publishedAt: now() })),
        ),
      ),
    createScheduled: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p))
            .collection("posts")
            .create(draftBody(p, { status: "scheduled", publishAt: soon() })),
        ),
      ),
    createDraftWithPublishAt: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p)).collection("posts").create(draftBody(p, { publishAt: soon() })),
        ),
      ),
    createAsAnotherClient: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p))
            .collection("posts")
            .create(draftBody(p, { authorClient: otherWriterId, updatedByClient: otherWriterId })),
        ),
      ),
    createAsPerson: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p)).collection("posts").create(draftBody(p, { author: world.users.admin!.id })),
        ),
      ),
    readOwnDraft: async (p, e) => restRead2("posts", (await ownPost()).id, p, e),
    readOtherClientDraft: async (p, e) => restRead2("posts", (await otherClientPost()).id, p, e),
    readStaffDraft: async (p, e) => restRead2("posts", (await staffPost()).id, p, e),
    updateOwnDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await ownPost()).id, { title: "Changed", revision: 2 })),
    updateOtherClientDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await otherClientPost()).id, { title: "Changed" })),
    updateStaffDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await staffPost()).id, { title: "Changed" })),
    updateOwnPublished: async (p, e) =>
      expectRest(
        e,
        await restUpdate(p, (await ownPost({ status: "published", publishedAt: now() })).id, {
          title: "Changed",
        }),
      ),
    updateStaffPublished: async (p, e) =>
      expectRest(
        e,
        await restUpdate(p, (await staffPost({ status: "published", publishedAt: now() })).id, {
          title: "Changed",
        }),
      ),
    publishOwnDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await ownPost()).id, { status: "published", publishedAt: now() })),
    scheduleOwnDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await ownPost()).id, { status: "scheduled", publishAt: soon() })),
    setPublishAtOnOwnDraft: async (p, e) =>
      expectRest(e, await restUpdate(p, (await ownPost()).id, { publishAt: soon() })),
    renameOwnByline: async (p, e) =>
      expectRest(e, await restUpdate(p, (await ownPost()).id, { authorName: "The Pastor" })),
    unpublishOwnPublished: async (p, e) =>
      expectRest(
        e,
        await restUpdate(p, (await ownPost({ status: "published", publishedAt: now() })).id, {
          status: "draft",
        }),
      ),
    async deleteOwnDraft(p, e) {
      const target = await ownPost();
      expectRest(e, await restStatus(async () => (await restAs(p)).collection("posts").delete(target.id)));
      if (e === D) await expect(su.collection("posts").getOne(target.id)).resolves.toBeTruthy();
    },
  },
  revisions: {
    async readOwnDraftHistory(p, e) {
      const post = await ownPost();
      await restRead2(
        "revisions",
        (
          await historyOf(post.id, {
            editedByClient: tokens.contentWrite.id,
            editorName: clientName("contentWrite"),
          })
        ).id,
        p,
        e,
      );
    },
    async readStaffDraftHistory(p, e) {
      const post = await staffPost();
      await restRead2(
        "revisions",
        (await historyOf(post.id, { editedBy: world.users.admin!.id, editorName: "Admin" })).id,
        p,
        e,
      );
    },
    async createOnOwnDraft(p, e) {
      const post = await ownPost();
      const entry = {
        post: post.id,
        title: "Saved",
        body: "Text",
        fields: {},
        working: false,
        published: false,
        revision: 0,
        editedByClient: tokens[p].id,
        editorName: clientName(p),
      };
      expectRest(e, await restStatus(async () => (await restAs(p)).collection("revisions").create(entry)));
    },
    async createOnStaffDraft(p, e) {
      const post = await staffPost();
      const entry = {
        post: post.id,
        title: "Saved",
        body: "Text",
        fields: {},
        working: false,
        published: false,
        revision: 0,
        editedByClient: tokens[p].id,
        editorName: clientName(p),
      };
      expectRest(e, await restStatus(async () => (await restAs(p)).collection("revisions").create(entry)));
    },
    async createWorkingCopyOfOwnPublished(p, e) {
      const post = await ownPost({ status: "published", publishedAt: now() });
      const entry = {
        post: post.id,
        title: "Saved",
        body: "Text",
        fields: {},
        working: true,
        published: false,
        revision: 2,
        editedByClient: tokens[p].id,
        editorName: clientName(p),
      };
      expectRest(e, await restStatus(async () => (await restAs(p)).collection("revisions").create(entry)));
    },
  },
  pages: {
    create: async (p, e) =>
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p))
            .collection("pages")
            .create({ title: "A page", slug: writeSlug("page"), status: "draft" }),
        ),
      ),
    async updateDraft(p, e) {
      const target = await su
        .collection("pages")
        .create({ title: "A page", slug: writeSlug("page"), status: "draft", revision: 1 });
      expectRest(
        e,
        await restStatus(async () =>
          (await restAs(p)).collection("pages").update(target.id, { title: "Changed" }),
        ),
      );
    },
  },
};

/** Read by id and in the filtered list — or neither. */
async function restRead2(
  collection: "posts" | "revisions",
  id: string,
  persona: Persona,
  expected: "allow" | "deny",
) {
  const pb = await restAs(persona);
  const listed = await pb
    .collection(collection)
    .getList(1, 1, { filter: su.filter("id = {:id}", { id }), fields: "id" });
  expect(listed.items.length).toBe(expected === A ? 1 : 0);
  expectRest(expected, await restStatus(() => pb.collection(collection).getOne(id)));
}

/** A token may be refused before the post is read (FORBIDDEN) or not find a post it may not read (NOT_FOUND, as members). */
const REFUSED = ["FORBIDDEN", "NOT_FOUND"] as const;
const UPDATE_POST = `mutation ($id: ID!, $title: String!) { updatePost(id: $id, input: { title: $title }, expectedRevision: 1) { id title authorName byApiToken history { editorName byApiToken } } }`;
type UpdateAnswer = {
  updatePost: {
    id: string;
    title: string;
    authorName: string;
    byApiToken: boolean;
    history: Array<{ editorName: string; byApiToken: boolean }>;
  };
};
const gqlUpdate = (persona: Persona, id: string) =>
  gqlAs(persona).request<UpdateAnswer>(UPDATE_POST, { id, title: `Changed by ${persona}` });
const POST_BY_ID = `query ($id: ID!) { postById(id: $id) { id history { id editorName byApiToken } } }`;
type PostByIdAnswer = {
  postById: { id: string; history: Array<{ id: string; editorName: string; byApiToken: boolean }> } | null;
};
async function gqlRead(persona: Persona, id: string, expected: "allow" | "deny") {
  const answer = await gqlAs(persona).request<PostByIdAnswer>(POST_BY_ID, { id });
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  expect(answer.data!.postById?.id ?? null).toBe(expected === A ? id : null);
  return answer.data!.postById;
}

const WRITES_GRAPHQL: { [C in keyof Writes]?: { [O in keyof Writes[C]]?: Check<Persona> } } = {
  posts: {
    async createDraft(p, e) {
      const answer = await gqlAs(p).request<{
        createPost: { status: string; authorName: string; byApiToken: boolean };
      }>(
        `mutation { createPost(input: { title: "Via a token ${run}", audience: MEMBERS }) { status authorName byApiToken } }`,
      );
      expectGql(e, p, answer);
      if (e === A)
        expect(answer.data!.createPost).toEqual({
          status: "DRAFT",
          authorName: clientName(p),
          byApiToken: true,
        });
    },
    readOwnDraft: async (p, e) => void (await gqlRead(p, (await ownPost()).id, e)),
    readOtherClientDraft: async (p, e) => void (await gqlRead(p, (await otherClientPost()).id, e)),
    readStaffDraft: async (p, e) => void (await gqlRead(p, (await staffPost()).id, e)),
    async updateOwnDraft(p, e) {
      const target = await ownPost();
      const answer = await gqlUpdate(p, target.id);
      expectGql(e, p, answer, REFUSED);
      if (e === A)
        expect(answer.data!.updatePost).toMatchObject({
          title: `Changed by ${p}`,
          authorName: clientName(p),
          byApiToken: true,
        });
    },
    updateOtherClientDraft: async (p, e) =>
      expectGql(e, p, await gqlUpdate(p, (await otherClientPost()).id), REFUSED),
    updateStaffDraft: async (p, e) => expectGql(e, p, await gqlUpdate(p, (await staffPost()).id), REFUSED),
    updateOwnPublished: async (p, e) =>
      expectGql(e, p, await gqlUpdate(p, (await ownPost({ status: "published", publishedAt: now() })).id)),
    updateStaffPublished: async (p, e) =>
      expectGql(e, p, await gqlUpdate(p, (await staffPost({ status: "published", publishedAt: now() })).id)),
    publishOwnDraft: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($id: ID!) { publishPost(id: $id) { id } }`, {
          id: (await ownPost()).id,
        }),
      ),
    scheduleOwnDraft: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($id: ID!, $at: DateTime) { publishPost(id: $id, publishAt: $at) { id } }`,
          { id: (await ownPost()).id, at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
        ),
      ),
    unpublishOwnPublished: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($id: ID!) { unpublishPost(id: $id) { id } }`, {
          id: (await ownPost({ status: "published", publishedAt: now() })).id,
        }),
      ),
    async deleteOwnDraft(p, e) {
      const target = await ownPost();
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($id: ID!) { deletePost(id: $id) }`, { id: target.id }),
      );
      await expect(su.collection("posts").getOne(target.id)).resolves.toBeTruthy();
    },
  },
  revisions: {
    async readOwnDraftHistory(p, e) {
      const post = await ownPost();
      const entry = await historyOf(post.id, {
        editedByClient: tokens.contentWrite.id,
        editorName: clientName("contentWrite"),
      });
      const read = await gqlRead(p, post.id, e);
      if (e === A)
        expect(read!.history).toEqual([
          { id: entry.id, editorName: clientName("contentWrite"), byApiToken: true },
        ]);
    },
    async readStaffDraftHistory(p, e) {
      const post = await staffPost();
      await historyOf(post.id, { editedBy: world.users.admin!.id, editorName: "Admin" });
      await gqlRead(p, post.id, e);
    },
    async createOnOwnDraft(p, e) {
      const answer = await gqlUpdate(p, (await ownPost()).id);
      expectGql(e, p, answer, REFUSED);
      if (e === A)
        expect(answer.data!.updatePost.history).toEqual([{ editorName: clientName(p), byApiToken: true }]);
    },
    createOnStaffDraft: async (p, e) => expectGql(e, p, await gqlUpdate(p, (await staffPost()).id), REFUSED),
    createWorkingCopyOfOwnPublished: async (p, e) =>
      expectGql(e, p, await gqlUpdate(p, (await ownPost({ status: "published", publishedAt: now() })).id)),
  },
  pages: {
    create: async (p, e) =>
      expectGql(e, p, await gqlAs(p).request(`mutation { createPage(input: { title: "A page" }) { id } }`)),
    async updateDraft(p, e) {
      const target = await su
        .collection("pages")
        .create({ title: "A page", slug: writeSlug("page"), status: "draft", revision: 1 });
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($id: ID!) { updatePage(id: $id, input: { title: "Changed" }, expectedRevision: 1) { id } }`,
          { id: target.id },
        ),
      );
    },
  },
};

describeAuthorizationTable({
  title: "CONTENT_WRITE",
  personas: PERSONAS,
  table: WRITES,
  rest: WRITES_REST,
  graphql: WRITES_GRAPHQL,
  gaps: {
    graphql: {
      posts: {
        createPublished:
          "createPost always writes a draft (PostInput has no status): publishOwnDraft is GraphQL's way to publish",
        createScheduled:
          "createPost always writes a draft (PostInput has no status or publishAt): scheduleOwnDraft is GraphQL's way to schedule",
        createDraftWithPublishAt: "PostInput has no publishAt: only publishPost sets it (scheduleOwnDraft)",
        createAsAnotherClient: "the gateway writes the caller's own attribution; no input names an author",
        createAsPerson: "the gateway writes the caller's own attribution; no input names an author",
        setPublishAtOnOwnDraft: "PostInput has no publishAt: only publishPost sets it (scheduleOwnDraft)",
        renameOwnByline: "PostInput has no byline: the gateway writes the writer's name",
      },
    },
  },
});

// ─── Writes open to visitors or members: no token writes them, whatever its scopes ───────────────
/**
 * docs/API.md: a token writes nothing without a write scope, and CONTENT_WRITE writes draft posts only.
 * Every create a visitor or a member could make — a prayer request, "I prayed", a flag, a visit request,
 * a sign-up, an RSVP, a registration, joining a group or asking to, a chat message — is refused to every
 * token: through REST as the client's identity (pb_migrations/1732573200_token_writes.js; rsvps and
 * registrations by their `user` relation) and through GraphQL with FORBIDDEN before PocketBase
 * (yoga.ts#useTokenWrites). Targets are fresh records made by the system account.
 */
const VISITOR_WRITES = {
  prayer_requests: { submit: NOBODY },
  prayer_marks: { prayFor: NOBODY },
  prayer_flags: { flag: NOBODY },
  visit_requests: { submit: NOBODY },
  users: { signUp: NOBODY },
  rsvps: { answer: NOBODY },
  registrations: { register: NOBODY },
  group_members: { joinOpenGroup: NOBODY },
  group_join_requests: { askToJoin: NOBODY },
  group_messages: { post: NOBODY },
} satisfies Record<string, Record<string, Cells>>;
type VisitorWrites = typeof VISITOR_WRITES;

let writesMade = 0;
const unique = (label: string) => `${label}-${run}-${writesMade++}`;
const today = () => new Date().toISOString().slice(0, 10);
const nextMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString().replace("T", " ");
const openEvent = (registrationMode: "rsvp" | "registration") => {
  const startsAt = nextMonth();
  return su.collection("events").create({
    title: `Open ${registrationMode} ${run}`,
    slug: unique(registrationMode),
    startsAt,
    endsAt: startsAt.replace(
      / (\d\d)/,
      (_, h: string) => ` ${String((Number(h) + 1) % 24).padStart(2, "0")}`,
    ),
    timezone: "America/Chicago",
    visibility: "public",
    status: "published",
    registrationMode,
    capacity: registrationMode === "registration" ? 20 : 0,
  });
};
const openGroup = (joinPolicy: "open" | "request") =>
  su.collection("groups").create({
    name: `Group ${run}`,
    slug: unique("group"),
    type: "small_group",
    locationDisplay: "approximate",
    visibility: "public",
    joinPolicy,
    rosterVisibility: "members",
    chatEnabled: true,
    status: "active",
  });
const wallRequest = () =>
  su.collection("prayer_requests").create({
    body: `On the wall ${run}`,
    visibility: "public",
    anonymous: true,
    authorName: "",
    status: "approved",
  });
const restCreate = async (persona: Persona, collection: string, body: Record<string, unknown>) =>
  restStatus(async () => (await restAs(persona)).collection(collection).create(body));

const VISITOR_WRITES_REST: { [C in keyof VisitorWrites]: { [O in keyof VisitorWrites[C]]: Check<Persona> } } =
  {
    prayer_requests: {
      submit: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "prayer_requests", {
            body: `From a token ${run}`,
            visibility: "members",
            anonymous: true,
            authorName: "",
            status: "pending",
          }),
        ),
    },
    prayer_marks: {
      prayFor: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "prayer_marks", {
            request: (await wallRequest()).id,
            user: "",
            deviceKey: unique("device"),
            day: today(),
          }),
        ),
    },
    prayer_flags: {
      flag: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "prayer_flags", {
            request: (await wallRequest()).id,
            user: "",
            reason: "Spam",
          }),
        ),
    },
    visit_requests: {
      submit: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "visit_requests", {
            name: "A visitor",
            email: `${unique("visit")}@test.example`,
            partySize: 2,
            status: "new",
          }),
        ),
    },
    users: {
      signUp: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "users", {
            email: `${unique("signup")}@test.example`,
            password: "token-password-4471",
            passwordConfirm: "token-password-4471",
            name: "Made by a token",
          }),
        ),
    },
    rsvps: {
      async answer(p, e) {
        const event = await openEvent("rsvp");
        for (const user of ["", tokens[p].id])
          expectRest(
            e,
            await restCreate(p, "rsvps", {
              event: event.id,
              occurrenceStart: event.startsAt,
              user,
              name: "A token",
              response: "yes",
              guests: 0,
            }),
          );
      },
    },
    registrations: {
      async register(p, e) {
        const event = await openEvent("registration");
        for (const user of ["", tokens[p].id])
          expectRest(
            e,
            await restCreate(p, "registrations", {
              event: event.id,
              occurrenceStart: event.startsAt,
              user,
              name: "A token",
              email: `${unique("party")}@test.example`,
              attendees: 1,
            }),
          );
      },
    },
    group_members: {
      joinOpenGroup: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "group_members", {
            group: (await openGroup("open")).id,
            person: "",
            role: "member",
            status: "active",
          }),
        ),
    },
    group_join_requests: {
      askToJoin: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "group_join_requests", {
            group: (await openGroup("request")).id,
            person: "",
            status: "pending",
            message: "Let me in",
          }),
        ),
    },
    group_messages: {
      post: async (p, e) =>
        expectRest(
          e,
          await restCreate(p, "group_messages", {
            group: (await openGroup("open")).id,
            author: "",
            body: "Hello from a token",
            clientKey: unique("message"),
          }),
        ),
    },
  };

const VISITOR_WRITES_GRAPHQL: {
  [C in keyof VisitorWrites]: { [O in keyof VisitorWrites[C]]: Check<Persona> };
} = {
  prayer_requests: {
    submit: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($body: String!) { submitPrayerRequest(input: { body: $body, visibility: MEMBERS, anonymous: true }) { id } }`,
          { body: `Please pray, from a token ${run}` },
        ),
      ),
  },
  prayer_marks: {
    prayFor: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($id: ID!) { prayFor(id: $id) { id } }`, {
          id: (await wallRequest()).id,
        }),
      ),
  },
  prayer_flags: {
    flag: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($id: ID!) { flagPrayerRequest(id: $id, reason: "Spam") { id } }`, {
          id: (await wallRequest()).id,
        }),
      ),
  },
  visit_requests: {
    submit: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($email: String!) { submitVisitRequest(input: { name: "A visitor", email: $email, partySize: 2 }) }`,
          { email: `${unique("visit")}@test.example` },
        ),
      ),
  },
  users: {
    signUp: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($email: String!) { signUp(input: { firstName: "Made", lastName: "By a token", email: $email, password: "token-password-4471", passwordConfirm: "token-password-4471" }) }`,
          { email: `${unique("signup")}@test.example` },
        ),
      ),
  },
  rsvps: {
    async answer(p, e) {
      const event = await openEvent("rsvp");
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($e: ID!, $o: DateTime!, $email: String) { rsvp(input: { eventId: $e, originalStart: $o, response: YES, name: "A token", email: $email }) { __typename } }`,
          {
            e: event.id,
            o: String(event.startsAt).replace(" ", "T"),
            email: `${unique("rsvp")}@test.example`,
          },
        ),
      );
    },
  },
  registrations: {
    async register(p, e) {
      const event = await openEvent("registration");
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($e: ID!, $o: DateTime!, $email: String!) { register(input: { eventId: $e, originalStart: $o, name: "A token", email: $email, attendees: 1 }) { __typename } }`,
          {
            e: event.id,
            o: String(event.startsAt).replace(" ", "T"),
            email: `${unique("party")}@test.example`,
          },
        ),
      );
    },
  },
  group_members: {
    joinOpenGroup: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(`mutation ($g: ID!) { joinGroup(groupId: $g) { __typename } }`, {
          g: (await openGroup("open")).id,
        }),
      ),
  },
  group_join_requests: {
    askToJoin: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($g: ID!) { joinGroup(groupId: $g, message: "Let me in") { __typename } }`,
          {
            g: (await openGroup("request")).id,
          },
        ),
      ),
  },
  group_messages: {
    post: async (p, e) =>
      expectGql(
        e,
        p,
        await gqlAs(p).request(
          `mutation ($g: ID!, $k: String!) { postGroupMessage(groupId: $g, body: "Hello from a token", clientKey: $k) { id } }`,
          { g: (await openGroup("open")).id, k: unique("message") },
        ),
      ),
  },
};

describeAuthorizationTable({
  title: "writes open to visitors and members",
  personas: PERSONAS,
  table: VISITOR_WRITES,
  rest: VISITOR_WRITES_REST,
  graphql: VISITOR_WRITES_GRAPHQL,
});
