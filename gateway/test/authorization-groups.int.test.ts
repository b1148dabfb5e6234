/**
 * QUALITY.md S1 for groups: persona × (groups, group_members, group_join_requests, group_messages,
 * group_addresses, and the contact rows and people that groups open) × operation, checked directly
 * against PocketBase's REST API (the API rules in pb_migrations/1732500000_groups.js are the
 * authorization) and through GraphQL.
 *
 * Personas (columns): anonymous, pending (signed up, person pending), member (active, in no group),
 * groupMember (a member of the target group), leader (leads the target group), otherLeader (leads
 * another group: "a leader of group A managing group B"), editor (staff without groups.manage),
 * manager (a role with groups.manage only). Every check makes its own target group (led by `leader`,
 * with `groupMember`, a fellow member without a login and a child), so writes never meet.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { uniquePhone } from "./people-fixtures.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type GqlResult,
  type TestUser,
} from "./helpers.ts";

const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "groupMember",
  "leader",
  "otherLeader",
  "editor",
  "manager",
] as const;
type Persona = (typeof PERSONAS)[number];
type Expected = "allow" | "deny";
type Row8 = [Expected, Expected, Expected, Expected, Expected, Expected, Expected, Expected];
const A = "allow" as const;
const D = "deny" as const;
const cells = (...values: Row8) =>
  Object.fromEntries(PERSONAS.map((p, i) => [p, values[i]])) as Record<Persona, Expected>;

// Columns: anonymous, pending, member, groupMember, leader, otherLeader, editor, manager.
const everyone = cells(A, A, A, A, A, A, A, A);
const activeMembers = cells(D, D, A, A, A, A, A, A);
const insiders = cells(D, D, D, A, A, D, D, A); // the group's members and groups.manage
const chatMembers = cells(D, D, D, A, A, D, D, D); // the group's members only: staff do not read chats
const leaderOrManager = cells(D, D, D, D, A, D, D, A);
const managerOnly = cells(D, D, D, D, D, D, D, A);
const leaderOnly = cells(D, D, D, D, A, D, D, D);
const nobody = cells(D, D, D, D, D, D, D, D);

const MATRIX = {
  groups: {
    viewPublic: everyone,
    viewMembersOnly: activeMembers,
    viewHidden: insiders,
    listHidden: insiders,
    viewArchived: insiders,
    create: managerOnly,
    editDescription: leaderOrManager,
    changeVisibility: managerOnly,
    setMemberCount: managerOnly,
    archive: managerOnly,
  },
  group_members: {
    rosterOpenToMembers: insiders,
    rosterLeadersOnly: leaderOrManager,
    childInRoster: leaderOrManager,
    hiddenGroupRoster: insiders,
    joinOpenGroup: activeMembers,
    joinRequestGroupDirectly: managerOnly,
    addSomeone: leaderOrManager,
    makeLeader: leaderOrManager,
    remove: leaderOrManager,
    promoteMember: leaderOrManager,
  },
  group_join_requests: {
    request: activeMembers,
    requestHiddenGroup: nobody,
    viewSomeoneElses: leaderOrManager,
    approve: leaderOrManager,
  },
  group_messages: {
    read: chatMembers,
    readRealtime: chatMembers,
    post: chatMembers,
    postAsSomeoneElse: nobody,
    editSomeoneElses: nobody,
    deleteSomeoneElses: leaderOnly,
  },
  group_addresses: {
    view: insiders,
    change: leaderOrManager,
  },
  // A group's prayer requests (1732520000_group_prayer.js): its active members only; a member of
  // another group (otherLeader), staff without prayer rights and groups.manage do not read them.
  prayer_requests: {
    readGroupRequest: chatMembers,
    readGroupRequestRealtime: chatMembers,
    askGroup: chatMembers,
    prayForGroupRequest: chatMembers,
  },
  // The contact rows and people that a shared group opens (the people authorization table's group
  // cells; the manager has no people rights, so only the group opens anything to them).
  people_via_groups: {
    fellowGroupsPhone: cells(D, D, D, A, A, D, D, D),
    fellowLeadersPhone: leaderOnly,
    fellowPrivatePhone: nobody,
    childGroupsPhone: leaderOnly,
    fellowGroupsAddress: cells(D, D, D, A, A, D, D, D),
    fellowPerson: cells(D, D, D, A, A, D, D, D),
    fellowPersonLeadersRoster: leaderOnly,
    childPerson: leaderOnly,
    requesterPerson: leaderOnly, // who asks to join: the group's leaders (staff see people by their people rights)
  },
} as const;

let gateway: Gateway;
let su: PocketBase;
const users = {} as Record<Persona, TestUser | null>;
const run = randomUUID().slice(0, 6);
let n = 0;
const slug = (label: string) => `${label}-${run}-${++n}`;

interface World {
  group: { id: string; slug: string };
  fellow: string;
  child: string;
  rows: { groupMember: string; leader: string; fellow: string; child: string };
}

/**
 * A group led by `leader`, with `groupMember`, a fellow member (no login, not in the directory) and a
 * child. The group and the household, then the two people, are written side by side: one world per
 * cell makes this the table's main cost.
 */
async function makeGroup(fields: Record<string, unknown> = {}): Promise<World> {
  const [group, household] = await Promise.all([
    su.collection("groups").create({
      name: `Group ${run}`,
      slug: slug("g"),
      type: "small_group",
      locationDisplay: "approximate",
      area: "North side",
      visibility: "public",
      joinPolicy: "request",
      rosterVisibility: "members",
      chatEnabled: true,
      status: "active",
      ...fields,
    }),
    su.collection("households").create({ name: `Fellow ${run}`, directoryOptOut: true }),
  ]);
  const [fellow, child] = await Promise.all([
    su.collection("people").create({
      firstName: "Fellow",
      lastName: run,
      recordStatus: "active",
      household: household.id,
      householdRole: "head",
      directoryOptOut: true,
    }),
    su.collection("people").create({
      firstName: "Kid",
      lastName: run,
      recordStatus: "active",
      household: household.id,
      householdRole: "child",
    }),
  ]);
  // The child's birth date before its membership: the rules keep children off member-visible rosters.
  await su
    .collection("person_private")
    .create({ person: child.id, birthDate: `${new Date().getFullYear() - 8}-03-04 00:00:00.000Z` });
  // Memberships one after another, as people join: each rewrites the group's access rows (hooks).
  const row = (person: string, role = "member") =>
    su.collection("group_members").create({ group: group.id, person, role, status: "active" });
  const rows = {
    groupMember: (await row(users.groupMember!.personId!)).id,
    leader: (await row(users.leader!.personId!, "leader")).id,
    fellow: (await row(fellow.id)).id,
    child: (await row(child.id)).id,
  };
  return { group: { id: group.id, slug: group.slug as string }, fellow: fellow.id, child: child.id, rows };
}

let otherGroup = "";
let managerRole = "";

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  managerRole = (
    await su.collection("roles").create({ name: `Groups ${run}`, permissions: ["groups.manage"] })
  ).id;
  users.anonymous = null;
  users.pending = await createUser({ person: "pending" });
  users.member = await createUser();
  users.groupMember = await createUser();
  users.leader = await createUser();
  users.otherLeader = await createUser();
  users.editor = await createUser({ roles: ["Editor"] });
  users.manager = await createUser();
  await su.collection("users").update(users.manager.id, { roles: [managerRole] });
  // Everyone with a person is an adult (the rules keep children off member-visible rosters).
  for (const persona of PERSONAS) {
    const person = users[persona]?.personId;
    if (person)
      await su.collection("person_private").create({ person, birthDate: "1980-01-01 00:00:00.000Z" });
  }
  const other = await su.collection("groups").create({
    name: `Other ${run}`,
    slug: slug("other"),
    type: "team",
    locationDisplay: "hidden",
    visibility: "public",
    joinPolicy: "closed",
    rosterVisibility: "leaders",
    status: "active",
  });
  otherGroup = other.id;
  await su
    .collection("group_members")
    .create({ group: otherGroup, person: users.otherLeader.personId!, role: "leader", status: "active" });
}, 60_000);
afterAll(() => gateway.close());

const rest = (persona: Persona) => pbAs(users[persona]);
const gql = (persona: Persona) =>
  new GqlClient(gateway, { token: users[persona]?.token, ip: `192.0.2.${(n++ % 250) + 1}` });
/** A GraphQL write: done, or refused with a clear code (a visitor: UNAUTHENTICATED). */
function expectGql(
  expected: Expected,
  persona: Persona,
  result: GqlResult<unknown>,
  deniedAs = ["FORBIDDEN", "NOT_FOUND"],
) {
  if (expected === "allow") expect(result.errors).toBeUndefined();
  else
    expect(persona === "anonymous" ? ["UNAUTHENTICATED"] : deniedAs, JSON.stringify(result.errors)).toContain(
      errorCode(result),
    );
}
const GROUP = `query($s: String!) { group(slug: $s) { id roster { id } } }`;
const viewedViaGql = async (persona: Persona, slug: string) =>
  !!(await gql(persona).request<{ group: unknown }>(GROUP, { s: slug })).data?.group;
const rosterViaGql = async (persona: Persona, slug: string) =>
  (
    (await gql(persona).request<{ group: { roster: { id: string }[] | null } | null }>(GROUP, { s: slug }))
      .data?.group?.roster ?? []
  ).map((r) => r.id);
const groupInput = {
  name: "Via GraphQL",
  type: "CLASS",
  locationDisplay: "HIDDEN",
  visibility: "PUBLIC",
  joinPolicy: "OPEN",
  rosterVisibility: "LEADERS",
  chatEnabled: true,
};

function expectRest(expected: Expected, status: number) {
  if (expected === "allow") expect(status).toBe(200);
  else expect([400, 401, 403, 404]).toContain(status);
}
const got = (expected: Expected) => async (run: () => Promise<unknown>) =>
  expectRest(expected, await restStatus(run));
const me = (persona: Persona) => users[persona]?.personId ?? "";
const message = (world: World, author: string) =>
  su.collection("group_messages").create({
    group: world.group.id,
    author,
    authorName: "Fellow",
    body: "Hello there",
    clientKey: randomUUID(),
  });

type Check = (persona: Persona, expected: Expected) => Promise<void>;
const CHECKS: { [C in keyof typeof MATRIX]: { [O in keyof (typeof MATRIX)[C]]: Check } } = {
  groups: {
    async viewPublic(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("groups").getOne(w.group.id));
      expect(await viewedViaGql(persona, w.group.slug)).toBe(expected === "allow");
    },
    async viewMembersOnly(persona, expected) {
      const w = await makeGroup({ visibility: "members" });
      await got(expected)(() => rest(persona).collection("groups").getOne(w.group.id));
      expect(await viewedViaGql(persona, w.group.slug)).toBe(expected === "allow");
    },
    async viewHidden(persona, expected) {
      const w = await makeGroup({ visibility: "hidden" });
      await got(expected)(() => rest(persona).collection("groups").getOne(w.group.id));
      expect(await viewedViaGql(persona, w.group.slug)).toBe(expected === "allow");
    },
    async listHidden(persona, expected) {
      const w = await makeGroup({ visibility: "hidden" });
      const listed = await rest(persona)
        .collection("groups")
        .getList(1, 5, { filter: `id = "${w.group.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
      // The finder never lists hidden groups, not even to their members (they find them under "my groups").
      const finder = await gql(persona).request<{ groups: { edges: { node: { id: string } }[] } }>(
        `{ groups(first: 100) { edges { node { id } } } }`,
      );
      expect(finder.data!.groups.edges.some((e) => e.node.id === w.group.id)).toBe(false);
      if (persona === "groupMember" || persona === "leader") {
        const mine = await gql(persona).request<{ myGroups: { id: string }[] }>(`{ myGroups { id } }`);
        expect(mine.data!.myGroups.some((g) => g.id === w.group.id)).toBe(true);
      }
    },
    async viewArchived(persona, expected) {
      const w = await makeGroup({ status: "archived" });
      await got(expected)(() => rest(persona).collection("groups").getOne(w.group.id));
      expect(await viewedViaGql(persona, w.group.slug)).toBe(expected === "allow");
    },
    async create(persona, expected) {
      await got(expected)(() =>
        rest(persona)
          .collection("groups")
          .create({
            name: "New",
            slug: slug("new"),
            type: "class",
            locationDisplay: "hidden",
            visibility: "public",
            joinPolicy: "open",
            rosterVisibility: "leaders",
            status: "active",
          }),
      );
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($i: GroupInput!) { createGroup(input: $i) { id } }`, {
          i: groupInput,
        }),
        ["FORBIDDEN"],
      );
    },
    async editDescription(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona)
          .collection("groups")
          .update(w.group.id, { description: "We read Mark together.", schedule: "Tuesdays 7 pm" }),
      );
      const other = await makeGroup();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateGroupDetails(id: $id, input: { schedule: "Wednesdays" }) { id } }`,
          { id: other.group.id },
        ),
      );
    },
    async changeVisibility(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona).collection("groups").update(w.group.id, { visibility: "hidden" }),
      );
    },
    async setMemberCount(persona, expected) {
      const w = await makeGroup({ capacity: 4 });
      // A count written by hand never sticks: the hook keeps it (4 active members here).
      await got(expected)(() => rest(persona).collection("groups").update(w.group.id, { memberCount: 0 }));
      expect((await su.collection("groups").getOne(w.group.id)).memberCount).toBe(4);
    },
    async archive(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona).collection("groups").update(w.group.id, { status: "archived" }),
      );
      const other = await makeGroup();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { setGroupArchived(id: $id, archived: true) { id } }`,
          { id: other.group.id },
        ),
      );
    },
  },
  group_members: {
    async rosterOpenToMembers(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("group_members").getOne(w.rows.fellow));
      expect((await rosterViaGql(persona, w.group.slug)).includes(w.rows.fellow)).toBe(expected === "allow");
    },
    async rosterLeadersOnly(persona, expected) {
      const w = await makeGroup({ rosterVisibility: "leaders" });
      await got(expected)(() => rest(persona).collection("group_members").getOne(w.rows.fellow));
      expect((await rosterViaGql(persona, w.group.slug)).includes(w.rows.fellow)).toBe(expected === "allow");
    },
    async childInRoster(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("group_members").getOne(w.rows.child));
      const listed = await rest(persona)
        .collection("group_members")
        .getFullList({ filter: `group = "${w.group.id}"` });
      expect(listed.some((r) => r.id === w.rows.child)).toBe(expected === "allow");
      expect((await rosterViaGql(persona, w.group.slug)).includes(w.rows.child)).toBe(expected === "allow");
    },
    async hiddenGroupRoster(persona, expected) {
      const w = await makeGroup({ visibility: "hidden" });
      await got(expected)(() => rest(persona).collection("group_members").getOne(w.rows.fellow));
      expect((await rosterViaGql(persona, w.group.slug)).includes(w.rows.fellow)).toBe(expected === "allow");
    },
    async joinOpenGroup(persona, expected) {
      const w = await makeGroup({ joinPolicy: "open" });
      const person = me(persona) || w.fellow;
      if (persona === "groupMember" || persona === "leader")
        await su.collection("group_members").delete(w.rows[persona]);
      await got(expected)(() =>
        rest(persona)
          .collection("group_members")
          .create({ group: w.group.id, person, role: "member", status: "active" }),
      );
      const other = await makeGroup({ joinPolicy: "open" });
      if (persona === "groupMember" || persona === "leader")
        await su.collection("group_members").delete(other.rows[persona]);
      const joined = await gql(persona).request<{ joinGroup: { outcome: string } }>(
        `mutation($g: ID!) { joinGroup(groupId: $g) { outcome } }`,
        { g: other.group.id },
      );
      expectGql(expected, persona, joined);
      if (expected === "allow") expect(joined.data!.joinGroup.outcome).toBe("JOINED");
    },
    async joinRequestGroupDirectly(persona, expected) {
      const w = await makeGroup({ joinPolicy: "request" });
      if (persona === "groupMember" || persona === "leader")
        await su.collection("group_members").delete(w.rows[persona]);
      const person = me(persona) || w.fellow;
      // A leader who just left is no longer a leader: only groups.manage may add anyone here.
      await got(expected)(() =>
        rest(persona)
          .collection("group_members")
          .create({ group: w.group.id, person, role: "member", status: "active" }),
      );
    },
    async addSomeone(persona, expected) {
      const w = await makeGroup();
      const newcomer = await su
        .collection("people")
        .create({ firstName: "New", lastName: run, recordStatus: "active" });
      await got(expected)(() =>
        rest(persona)
          .collection("group_members")
          .create({ group: w.group.id, person: newcomer.id, role: "member", status: "active" }),
      );
      const other = await makeGroup();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($g: ID!, $p: ID!) { addGroupMember(groupId: $g, personId: $p) { id } }`,
          { g: other.group.id, p: newcomer.id },
        ),
      );
    },
    async makeLeader(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona).collection("group_members").update(w.rows.fellow, { role: "leader" }),
      );
      const other = await makeGroup();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($m: ID!) { setGroupMemberRole(memberId: $m, role: LEADER) { id } }`,
          { m: other.rows.fellow },
        ),
      );
    },
    async remove(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("group_members").delete(w.rows.fellow));
      const other = await makeGroup();
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($m: ID!) { removeGroupMember(memberId: $m) }`, {
          m: other.rows.fellow,
        }),
      );
    },
    async promoteMember(persona, expected) {
      const w = await makeGroup();
      // The member's own row included: only its read marker is theirs to change.
      await got(expected)(() =>
        rest(persona).collection("group_members").update(w.rows.groupMember, { role: "leader" }),
      );
      if (persona === "groupMember") {
        expect(
          await restStatus(() =>
            rest(persona)
              .collection("group_members")
              .update(w.rows.groupMember, { lastReadAt: new Date().toISOString() }),
          ),
        ).toBe(200);
      }
    },
  },
  group_join_requests: {
    async request(persona, expected) {
      const w = await makeGroup({ joinPolicy: "request" });
      await got(expected)(() =>
        rest(persona)
          .collection("group_join_requests")
          .create({
            group: w.group.id,
            person: me(persona) || w.fellow,
            message: "May I join?",
            status: "pending",
          }),
      );
      const other = await makeGroup({ joinPolicy: "request" });
      if (persona === "groupMember" || persona === "leader")
        await su.collection("group_members").delete(other.rows[persona]);
      const asked = await gql(persona).request<{ joinGroup: { outcome: string } }>(
        `mutation($g: ID!) { joinGroup(groupId: $g, message: "Hello!") { outcome } }`,
        { g: other.group.id },
      );
      expectGql(expected, persona, asked);
      if (expected === "allow") expect(asked.data!.joinGroup.outcome).toBe("REQUESTED");
    },
    async requestHiddenGroup(persona, expected) {
      const w = await makeGroup({ joinPolicy: "request", visibility: "hidden" });
      await got(expected)(() =>
        rest(persona)
          .collection("group_join_requests")
          .create({
            group: w.group.id,
            person: me(persona) || w.fellow,
            message: "May I join?",
            status: "pending",
          }),
      );
    },
    async viewSomeoneElses(persona, expected) {
      const w = await makeGroup({ joinPolicy: "request" });
      const outsider = await su
        .collection("people")
        .create({ firstName: "Asker", lastName: run, recordStatus: "active" });
      const request = await su
        .collection("group_join_requests")
        .create({ group: w.group.id, person: outsider.id, message: "Hi", status: "pending" });
      await got(expected)(() => rest(persona).collection("group_join_requests").getOne(request.id));
    },
    async approve(persona, expected) {
      const w = await makeGroup({ joinPolicy: "request" });
      const outsider = await su
        .collection("people")
        .create({ firstName: "Asker", lastName: run, recordStatus: "active" });
      const request = await su
        .collection("group_join_requests")
        .create({ group: w.group.id, person: outsider.id, message: "Hi", status: "pending" });
      await got(expected)(() =>
        rest(persona)
          .collection("group_join_requests")
          .update(request.id, { status: "approved", decidedBy: me(persona) || outsider.id }),
      );
      const other = await makeGroup({ joinPolicy: "request" });
      const second = await su
        .collection("group_join_requests")
        .create({ group: other.group.id, person: outsider.id, message: "Hi", status: "pending" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { decideJoinRequest(id: $id, approve: true) { status } }`,
          { id: second.id },
        ),
      );
      const joined = await su
        .collection("group_members")
        .getFullList({ filter: `group = "${other.group.id}" && person = "${outsider.id}"` });
      expect(joined.length).toBe(expected === "allow" ? 1 : 0);
    },
  },
  group_messages: {
    async read(persona, expected) {
      const w = await makeGroup();
      const target = await message(w, w.fellow);
      await got(expected)(() => rest(persona).collection("group_messages").getOne(target.id));
      const listed = await rest(persona)
        .collection("group_messages")
        .getFullList({ filter: `group = "${w.group.id}"` });
      expect(listed.length).toBe(expected === "allow" ? 1 : 0);
      const viaGql = await gql(persona).request<{ groupMessages: { edges: { node: { id: string } }[] } }>(
        `query($g: ID!) { groupMessages(groupId: $g) { edges { node { id } } } }`,
        { g: w.group.id },
      );
      if (expected === "allow")
        expect(viaGql.data!.groupMessages.edges.map((e) => e.node.id)).toEqual([target.id]);
      else expectGql(expected, persona, viaGql);
    },
    async readRealtime(persona, expected) {
      const w = await makeGroup();
      const pb = rest(persona);
      const seen: string[] = [];
      await pb.collection("group_messages").subscribe("*", (e) => seen.push(e.record.id));
      try {
        const target = await message(w, w.fellow);
        // A sentinel the persona may always see arrives after the message would have: the event order
        // is PocketBase's, so once the sentinel is in, the message is either in too or never coming.
        const sentinelGroup = await su.collection("groups").create({
          name: "Sentinel",
          slug: slug("sentinel"),
          type: "team",
          locationDisplay: "hidden",
          visibility: "public",
          joinPolicy: "closed",
          rosterVisibility: "leaders",
          status: "active",
        });
        await pb
          .collection("groups")
          .subscribe(sentinelGroup.id, (e) => seen.push(`sentinel:${e.record.id}`));
        await su.collection("groups").update(sentinelGroup.id, { name: "Sentinel 2" });
        await expect.poll(() => seen.includes(`sentinel:${sentinelGroup.id}`), { timeout: 5000 }).toBe(true);
        expect(seen.includes(target.id)).toBe(expected === "allow");
      } finally {
        await pb.realtime.unsubscribe();
      }
    },
    async post(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona)
          .collection("group_messages")
          .create({
            group: w.group.id,
            author: me(persona) || w.fellow,
            authorName: "Me",
            body: "Hi all",
            clientKey: randomUUID(),
          }),
      );
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($g: ID!, $k: String!) { postGroupMessage(groupId: $g, body: "Hi", clientKey: $k) { id } }`,
          { g: w.group.id, k: randomUUID() },
        ),
      );
    },
    async postAsSomeoneElse(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona).collection("group_messages").create({
          group: w.group.id,
          author: w.fellow,
          authorName: "Fellow",
          body: "Not me",
          clientKey: randomUUID(),
        }),
      );
    },
    async editSomeoneElses(persona, expected) {
      const w = await makeGroup();
      const target = await message(w, w.fellow);
      await got(expected)(() =>
        rest(persona).collection("group_messages").update(target.id, { body: "Changed" }),
      );
    },
    async deleteSomeoneElses(persona, expected) {
      const w = await makeGroup();
      const target = await message(w, w.fellow);
      await got(expected)(() => rest(persona).collection("group_messages").delete(target.id));
      const other = await message(w, w.fellow);
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deleteGroupMessage(id: $id) }`, { id: other.id }),
      );
    },
  },
  group_addresses: {
    async view(persona, expected) {
      const w = await makeGroup({ locationDisplay: "exact" });
      const row = await su
        .collection("group_addresses")
        .create({ group: w.group.id, address: "12 Elm Street" });
      await got(expected)(() => rest(persona).collection("group_addresses").getOne(row.id));
    },
    async change(persona, expected) {
      const w = await makeGroup({ locationDisplay: "exact" });
      const row = await su
        .collection("group_addresses")
        .create({ group: w.group.id, address: "12 Elm Street" });
      await got(expected)(() =>
        rest(persona).collection("group_addresses").update(row.id, { address: "14 Elm Street" }),
      );
    },
  },
  prayer_requests: {
    async readGroupRequest(persona, expected) {
      const w = await makeGroup();
      const request = await groupPrayer(w);
      await got(expected)(() => rest(persona).collection("prayer_requests").getOne(request.id));
      const listed = await rest(persona)
        .collection("prayer_requests")
        .getFullList({ filter: `group = "${w.group.id}"` });
      expect(listed.length).toBe(expected === "allow" ? 1 : 0);
      const one = await gql(persona).request<{ prayerRequest: { id: string; groupId: string } | null }>(
        `query($id: ID!) { prayerRequest(id: $id) { id groupId } }`,
        { id: request.id },
      );
      expect(one.data?.prayerRequest?.groupId ?? null).toBe(expected === "allow" ? w.group.id : null);
      const page = await gql(persona).request<{
        group: { prayerRequests: { edges: { node: { id: string } }[] } } | null;
      }>(`query($s: String!) { group(slug: $s) { prayerRequests { edges { node { id } } } } }`, {
        s: w.group.slug,
      });
      expect((page.data?.group?.prayerRequests.edges ?? []).map((e) => e.node.id)).toEqual(
        expected === "allow" ? [request.id] : [],
      );
      // Never on the church's wall, not even for the group's members.
      const wall = await gql(persona).request<{ prayerWall: { edges: { node: { id: string } }[] } }>(
        `{ prayerWall(first: 100) { edges { node { id } } } }`,
      );
      expect(wall.data!.prayerWall.edges.some((e) => e.node.id === request.id)).toBe(false);
    },
    async readGroupRequestRealtime(persona, expected) {
      const w = await makeGroup();
      const pb = rest(persona);
      const seen: string[] = [];
      await pb.collection("prayer_requests").subscribe("*", (e) => seen.push(e.record.id));
      try {
        const request = await groupPrayer(w);
        // The sentinel (a public request everyone may read, PocketBase's event order) as in readRealtime.
        const sentinel = await su.collection("prayer_requests").create({
          body: "A sentinel request for everyone.",
          visibility: "public",
          anonymous: true,
          authorName: "",
          status: "approved",
          prayedCount: 0,
          flagCount: 0,
        });
        await expect.poll(() => seen.includes(sentinel.id), { timeout: 5000 }).toBe(true);
        expect(seen.includes(request.id)).toBe(expected === "allow");
      } finally {
        await pb.realtime.unsubscribe();
      }
    },
    async askGroup(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() =>
        rest(persona).collection("prayer_requests").create({
          body: "Please pray for our group's retreat.",
          visibility: "members",
          anonymous: true,
          authorName: "",
          status: "pending",
          prayedCount: 0,
          flagCount: 0,
          group: w.group.id,
        }),
      );
      const asked = await gql(persona).request<{ submitPrayerRequest: { id: string; groupId: string } }>(
        `mutation($g: ID!) { submitPrayerRequest(input: { body: "Please pray for our group's retreat.", visibility: PUBLIC, anonymous: false, groupId: $g, email: "x@example.com", name: "Visitor" }) { id groupId } }`,
        { g: w.group.id },
      );
      if (expected === "allow") expect(asked.data!.submitPrayerRequest.groupId).toBe(w.group.id);
      else expect(asked.data?.submitPrayerRequest ?? null).toBeNull();
    },
    async prayForGroupRequest(persona, expected) {
      const w = await makeGroup();
      const request = await groupPrayer(w);
      const prayed = await gql(persona).request<{ prayFor: { prayedCount: number } }>(
        `mutation($id: ID!) { prayFor(id: $id) { prayedCount } }`,
        { id: request.id },
      );
      if (expected === "allow") expect(prayed.data!.prayFor.prayedCount).toBe(1);
      else
        expect(["NOT_FOUND", "UNAUTHENTICATED", "FORBIDDEN"], JSON.stringify(prayed.errors)).toContain(
          errorCode(prayed),
        );
    },
  },
  people_via_groups: {
    async fellowGroupsPhone(persona, expected) {
      const w = await makeGroup();
      const row = await su
        .collection("person_phones")
        .create({ person: w.fellow, number: phone(), visibility: "groups" });
      await got(expected)(() => rest(persona).collection("person_phones").getOne(row.id));
      // On the roster through GraphQL: the person with exactly the rows they share with this viewer.
      const roster = await gql(persona).request<{
        group: { roster: { person: { id: string; phones: { id: string }[] } | null }[] | null } | null;
      }>(`query($s: String!) { group(slug: $s) { roster { person { id phones { id } } } } }`, {
        s: w.group.slug,
      });
      const fellow = (roster.data?.group?.roster ?? []).find((r) => r.person?.id === w.fellow);
      expect(!!fellow?.person?.phones.some((p) => p.id === row.id)).toBe(expected === "allow");
    },
    async fellowLeadersPhone(persona, expected) {
      const w = await makeGroup();
      const row = await su
        .collection("person_phones")
        .create({ person: w.fellow, number: phone(), visibility: "leaders" });
      await got(expected)(() => rest(persona).collection("person_phones").getOne(row.id));
    },
    async fellowPrivatePhone(persona, expected) {
      const w = await makeGroup();
      const row = await su
        .collection("person_phones")
        .create({ person: w.fellow, number: phone(), visibility: "private" });
      await got(expected)(() => rest(persona).collection("person_phones").getOne(row.id));
    },
    async childGroupsPhone(persona, expected) {
      const w = await makeGroup();
      const row = await su
        .collection("person_phones")
        .create({ person: w.child, number: phone(), visibility: "groups" });
      await got(expected)(() => rest(persona).collection("person_phones").getOne(row.id));
    },
    async fellowGroupsAddress(persona, expected) {
      const w = await makeGroup();
      const fellow = await su.collection("people").getOne(w.fellow);
      const row = await su.collection("addresses").create({
        household: fellow.household,
        street1: "1 Main St",
        city: "Springfield",
        country: "US",
        visibility: "groups",
      });
      await got(expected)(() => rest(persona).collection("addresses").getOne(row.id));
    },
    async fellowPerson(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("people").getOne(w.fellow));
    },
    async fellowPersonLeadersRoster(persona, expected) {
      const w = await makeGroup({ rosterVisibility: "leaders" });
      await got(expected)(() => rest(persona).collection("people").getOne(w.fellow));
    },
    async childPerson(persona, expected) {
      const w = await makeGroup();
      await got(expected)(() => rest(persona).collection("people").getOne(w.child));
    },
    async requesterPerson(persona, expected) {
      const w = await makeGroup();
      const asker = await su
        .collection("people")
        .create({ firstName: "Asker", lastName: run, recordStatus: "active" });
      await su
        .collection("group_join_requests")
        .create({ group: w.group.id, person: asker.id, message: "Hi", status: "pending" });
      await got(expected)(() => rest(persona).collection("people").getOne(asker.id));
    },
  },
};

const phone = () => uniquePhone();
/** An approved prayer request asked of the group by its fellow member. */
const groupPrayer = (world: World) =>
  su.collection("prayer_requests").create({
    body: "Pray for my mother's surgery on Friday.",
    visibility: "members",
    anonymous: false,
    authorName: "Fellow",
    status: "approved",
    prayedCount: 0,
    flagCount: 0,
    group: world.group.id,
  });

const ROWS = Object.entries(MATRIX).flatMap(([collection, operations]) =>
  Object.entries(operations).flatMap(([operation, byPersona]) =>
    PERSONAS.map((persona) => ({
      collection,
      operation,
      persona,
      expected: (byPersona as Record<Persona, Expected>)[persona],
    })),
  ),
);

describe("authorization table: groups, members, join requests, chat, addresses, contact rows (REST)", () => {
  it.each(ROWS)(
    "$collection $operation as $persona → $expected",
    async ({ collection, operation, persona, expected }) => {
      const check = (CHECKS as Record<string, Record<string, Check>>)[collection]![operation]!;
      await check(persona, expected);
    },
  );

  it("a group past its capacity refuses one more member, whoever adds them", async () => {
    const w = await makeGroup({ capacity: 4, joinPolicy: "open" });
    expect((await su.collection("groups").getOne(w.group.id)).memberCount).toBe(4);
    expect(
      await restStatus(() =>
        rest("member")
          .collection("group_members")
          .create({ group: w.group.id, person: me("member"), role: "member", status: "active" }),
      ),
    ).toBe(400);
    expect(
      await restStatus(() =>
        rest("leader")
          .collection("group_members")
          .create({ group: w.group.id, person: me("member"), role: "member", status: "active" }),
      ),
    ).toBe(400);
    await rest("groupMember").collection("group_members").delete(w.rows.groupMember); // leave
    expect((await su.collection("groups").getOne(w.group.id)).memberCount).toBe(3);
    expect(
      await restStatus(() =>
        rest("member")
          .collection("group_members")
          .create({ group: w.group.id, person: me("member"), role: "member", status: "active" }),
      ),
    ).toBe(200);
  });

  it("a member leaves a group; nobody else's membership is theirs to end", async () => {
    const w = await makeGroup();
    expect(
      await restStatus(() => rest("groupMember").collection("group_members").delete(w.rows.fellow)),
    ).toBe(404);
    expect(
      await restStatus(() => rest("groupMember").collection("group_members").delete(w.rows.groupMember)),
    ).toBe(200);
  });
});
