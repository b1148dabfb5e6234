/**
 * Groups through GraphQL (issue 15): the finder's filters and P2, joining (open at once, request →
 * leaders notified → approved or declined → requester notified), capacity "full", leaving, validation
 * with field errors, chat (one message per clientKey, keyset history and its P2, live ADDED / REMOVED
 * for members through the realtime bridge, unread count, notifications batched per group).
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import type { NotificationRecord } from "../src/pocketbase/records.ts";
import {
  countPocketBaseCalls,
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  system,
  testGateway,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import { SseSubscription } from "./sse.ts";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import { sitemap } from "../src/http/feeds.ts";

let gateway: Gateway;
let su: PocketBase;
let leader: TestUser;
let member: TestUser;
let newcomer: TestUser;
const run = randomUUID().slice(0, 6);
let n = 0;
const slug = (label: string) => `${label}-${run}-${++n}`;
const gql = (user: TestUser | null) =>
  new GqlClient(gateway, { token: user?.token, ip: `198.51.100.${(n++ % 250) + 1}` });

async function makeGroup(fields: Record<string, unknown> = {}) {
  const group = await su.collection("groups").create({
    name: `Study ${run} ${++n}`,
    slug: slug("study"),
    type: "small_group",
    locationDisplay: "approximate",
    area: `Northside ${run}`,
    visibility: "public",
    joinPolicy: "request",
    rosterVisibility: "members",
    chatEnabled: true,
    status: "active",
    meetingDay: "tuesday",
    schedule: "Tuesdays 7 pm",
    ...fields,
  });
  await su
    .collection("group_members")
    .create({ group: group.id, person: leader.personId, role: "leader", status: "active" });
  await su
    .collection("group_members")
    .create({ group: group.id, person: member.personId, role: "member", status: "active" });
  return { id: group.id, slug: group.slug as string, name: group.name as string };
}

const notificationsOf = (user: TestUser, kind: NotificationRecord["kind"]) =>
  su.collection("notifications").getFullList<NotificationRecord>({
    filter: su.filter("user = {:u} && kind = {:k}", { u: user.id, k: kind }),
  });

/** Wait until `check` holds (notifications are sent after the response); fails after 10 s. */
async function until<T>(check: () => Promise<T | null | undefined | false>, label: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [leader, member, newcomer] = await Promise.all([createUser(), createUser(), createUser()]);
  for (const [user, name] of [
    [leader, "Lena"],
    [member, "Mark"],
    [newcomer, "Nina"],
  ] as const) {
    await su.collection("people").update(user.personId!, { firstName: name, lastName: `Group ${run}` });
    await su
      .collection("person_private")
      .create({ person: user.personId, birthDate: "1985-06-01 00:00:00.000Z" });
  }
}, 60_000);
afterAll(() => gateway.close());

/** A tab subscribed over SSE as `user`: the events of `field` and any errors, as they arrive, until close(). */
async function subscribe<E>(
  user: TestUser,
  query: string,
  variables: Record<string, unknown>,
  field: string,
) {
  const tab = await SseSubscription.open<Record<string, E>>(gateway, {
    query,
    variables,
    token: user.token,
    clientIp: "203.0.113.90",
  });
  return {
    get events(): E[] {
      return tab.data.map((data) => data[field]!);
    },
    get errors() {
      return tab.errors;
    },
    close: () => tab.close(),
  };
}

describe("the finder", () => {
  it("filters by type, day and area; hidden and archived groups never appear; leaders' names show", async () => {
    const tuesday = await makeGroup();
    await makeGroup({ type: "class", meetingDay: "sunday", area: `Southside ${run}` });
    await makeGroup({ visibility: "hidden" });
    await makeGroup({ status: "archived" });
    const find = async (filter: Record<string, unknown>) =>
      (
        await gql(null).request<{
          groups: {
            edges: {
              node: {
                id: string;
                type: string;
                leaderNames: string[];
                area: string | null;
                address: string | null;
              };
            }[];
          };
        }>(
          `query($f: GroupFilter) { groups(filter: $f, first: 100) { edges { node { id type leaderNames area address } } } }`,
          { f: filter },
        )
      ).data!.groups.edges.map((e) => e.node);
    const mine = await find({ search: run });
    expect(mine).toHaveLength(2);
    expect(await find({ search: run, meetingDay: "TUESDAY" })).toEqual([
      expect.objectContaining({
        id: tuesday.id,
        type: "SMALL_GROUP",
        leaderNames: [`Lena Group ${run}`],
        area: `Northside ${run}`,
        address: null,
      }),
    ]);
    expect((await find({ search: run, type: "CLASS" })).map((g) => g.type)).toEqual(["CLASS"]);
    expect(await find({ area: `Northside ${run}` })).toEqual([expect.objectContaining({ id: tuesday.id })]);
  });

  it("the sitemap lists active public groups only", async () => {
    const open = await makeGroup();
    const [membersOnly, hidden, archived] = [
      await makeGroup({ visibility: "members" }),
      await makeGroup({ visibility: "hidden" }),
      await makeGroup({ status: "archived" }),
    ];
    const map = await sitemap(pbAs(null), "https://church.example");
    expect(map).toContain("<loc>https://church.example/groups</loc>");
    expect(map).toContain(`<loc>https://church.example/groups/${open.slug}</loc>`);
    for (const g of [membersOnly, hidden, archived]) expect(map).not.toContain(`/groups/${g.slug}<`);
  });

  it("P2: a page of 24 groups costs the same PocketBase calls as a page of 2", async () => {
    for (let i = 0; i < 24; i++)
      await su.collection("groups").create({
        name: `P2 ${run} ${i}`,
        slug: slug("p2"),
        type: "team",
        locationDisplay: "hidden",
        visibility: "public",
        joinPolicy: "open",
        rosterVisibility: "leaders",
        status: "active",
      });
    const query = `query($f: GroupFilter, $n: Int) { groups(filter: $f, first: $n) { edges { node { id name schedule leaderNames isFull memberCount myMembership { id } myPendingRequest { id } canManage can { edit manageMembers readChat postMessage } } } } }`;
    await gql(member).request(query, { f: { search: `P2 ${run}` }, n: 1 }); // the viewer's session is looked up once a minute
    const small = await countPocketBaseCalls(() =>
      gql(member).request(query, { f: { search: `P2 ${run}` }, n: 2 }),
    );
    const large = await countPocketBaseCalls(() =>
      gql(member).request(query, { f: { search: `P2 ${run}` }, n: 24 }),
    );
    expect((large.result.data as { groups: { edges: unknown[] } }).groups.edges).toHaveLength(24);
    expect(large.calls).toBe(small.calls);
  });
});

describe("joining and leaving", () => {
  it("an open group: joined at once; leave again", async () => {
    const group = await makeGroup({ joinPolicy: "open" });
    const joined = await gql(newcomer).request<{
      joinGroup: { outcome: string; group: { memberCount: number; myMembership: { role: string } | null } };
    }>(
      `mutation($g: ID!) { joinGroup(groupId: $g) { outcome group { memberCount myMembership { role } } } }`,
      { g: group.id },
    );
    expect(joined.errors).toBeUndefined();
    expect(joined.data!.joinGroup).toEqual({
      outcome: "JOINED",
      group: { memberCount: 3, myMembership: { role: "MEMBER" } },
    });
    const again = await gql(newcomer).request(`mutation($g: ID!) { joinGroup(groupId: $g) { outcome } }`, {
      g: group.id,
    });
    expect(errorCode(again)).toBe("CONFLICT");
    const left = await gql(newcomer).request<{ leaveGroup: { memberCount: number } }>(
      `mutation($g: ID!) { leaveGroup(groupId: $g) { memberCount } }`,
      { g: group.id },
    );
    expect(left.data!.leaveGroup.memberCount).toBe(2);
  });

  it("a request group: leaders are notified (and mailed), the approval adds the member and tells them; a decline tells them too", async () => {
    const group = await makeGroup();
    const asked = await gql(newcomer).request<{
      joinGroup: { outcome: string; group: { myPendingRequest: { status: string } | null } };
    }>(`mutation($g: ID!) { joinGroup(groupId: $g, message: "I'd love to come") { outcome group { id } } }`, {
      g: group.id,
    });
    expect(asked.data!.joinGroup.outcome).toBe("REQUESTED");
    const note = await until(
      async () =>
        (await notificationsOf(leader, "group_join_request")).find((x) => x.link === `/groups/${group.slug}`),
      "the leader's notification",
    );
    expect(note.title).toMatch(new RegExp(`^Nina Group ${run} asks to join Study ${run} \\d+$`));
    // The leader is mailed too, with the note and a button to the group's page.
    const leaderMail = await waitForMail(
      catcherUrl(),
      leader.email,
      new RegExp(`asks to join ${group.name}$`),
    );
    expect(leaderMail.text).toContain("I'd love to come");
    expect(leaderMail.text).toContain(`/groups/${group.slug}`);
    const pending = await gql(leader).request<{
      group: { pendingRequests: { id: string; message: string; person: { displayName: string } }[] };
    }>(`query($s: String!) { group(slug: $s) { pendingRequests { id message person { displayName } } } }`, {
      s: group.slug,
    });
    const request = pending.data!.group.pendingRequests[0]!;
    expect(request).toMatchObject({
      message: "I'd love to come",
      person: { displayName: `Nina Group ${run}` },
    });
    // The member cannot decide; the leader can.
    expect(
      errorCode(
        await gql(member).request(
          `mutation($id: ID!) { decideJoinRequest(id: $id, approve: true) { status } }`,
          { id: request.id },
        ),
      ),
    ).toBe("NOT_FOUND");
    const decided = await gql(leader).request<{ decideJoinRequest: { status: string } }>(
      `mutation($id: ID!) { decideJoinRequest(id: $id, approve: true) { status } }`,
      { id: request.id },
    );
    expect(decided.data!.decideJoinRequest.status).toBe("APPROVED");
    const roster = await gql(newcomer).request<{
      group: { myMembership: { role: string } | null; roster: { person: { displayName: string } | null }[] };
    }>(`query($s: String!) { group(slug: $s) { myMembership { role } roster { person { displayName } } } }`, {
      s: group.slug,
    });
    expect(roster.data!.group.myMembership).toEqual({ role: "MEMBER" });
    expect(roster.data!.group.roster.map((r) => r.person?.displayName)).toContain(`Lena Group ${run}`);
    await until(
      async () =>
        (await notificationsOf(newcomer, "group_request_decided")).find((x) =>
          x.title.startsWith("Welcome to"),
        ),
      "the approval notification",
    );
    const welcome = await waitForMail(catcherUrl(), newcomer.email, new RegExp(`^Welcome to ${group.name}:`));
    expect(welcome.text).toContain("you are now a member");

    const other = await makeGroup();
    await gql(newcomer).request(`mutation($g: ID!) { joinGroup(groupId: $g) { outcome } }`, { g: other.id });
    const second = (
      await su.collection("group_join_requests").getFirstListItem(su.filter("group = {:g}", { g: other.id }))
    ).id;
    await gql(leader).request(
      `mutation($id: ID!) { decideJoinRequest(id: $id, approve: false) { status } }`,
      { id: second },
    );
    await until(
      async () =>
        (await notificationsOf(newcomer, "group_request_decided")).find((x) => x.title.includes("declined")),
      "the decline notification",
    );
    const declined = await waitForMail(
      catcherUrl(),
      newcomer.email,
      new RegExp(`join ${other.name} was declined`),
    );
    expect(declined.text).toContain("declined your request");
  });

  it("leaving a hidden group answers with the group as it was (no longer visible afterwards)", async () => {
    const group = await makeGroup({ visibility: "hidden" });
    const left = await gql(member).request<{ leaveGroup: { id: string; slug: string; memberCount: number } }>(
      `mutation($g: ID!) { leaveGroup(groupId: $g) { id slug memberCount } }`,
      { g: group.id },
    );
    expect(left.errors).toBeUndefined();
    expect(left.data!.leaveGroup).toEqual({ id: group.id, slug: group.slug, memberCount: 1 });
    const after = await gql(member).request<{ group: unknown }>(
      `query($s: String!) { group(slug: $s) { id } }`,
      { s: group.slug },
    );
    expect(after.data!.group).toBeNull();
  });

  it("a full group says so and refuses joining and approval", async () => {
    const group = await makeGroup({ capacity: 2, joinPolicy: "open" });
    const answer = await gql(newcomer).request<{ group: { isFull: boolean } }>(
      `query($s: String!) { group(slug: $s) { isFull } }`,
      { s: group.slug },
    );
    expect(answer.data!.group.isFull).toBe(true);
    const refused = await gql(newcomer).request(`mutation($g: ID!) { joinGroup(groupId: $g) { outcome } }`, {
      g: group.id,
    });
    expect(errorCode(refused)).toBe("CONFLICT");
    expect(refused.errors![0]!.extensions!.reason).toBe("group_full");
  });

  it("inputs are validated with field errors", async () => {
    const group = await makeGroup();
    const long = await gql(newcomer).request(
      `mutation($g: ID!, $m: String) { joinGroup(groupId: $g, message: $m) { outcome } }`,
      { g: group.id, m: "x".repeat(1001) },
    );
    expect(long.errors![0]!.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { message: "too_long" },
    });
    const empty = await gql(member).request(
      `mutation($g: ID!) { postGroupMessage(groupId: $g, body: "   ", clientKey: "abcdefgh-1") { id } }`,
      { g: group.id },
    );
    expect(empty.errors![0]!.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { body: "required" },
    });
    const staff = await createUser({ roles: ["Pastor"] });
    const bad = await gql(staff).request(`mutation($i: GroupInput!) { createGroup(input: $i) { id } }`, {
      i: {
        name: "",
        type: "CLASS",
        locationDisplay: "EXACT",
        visibility: "PUBLIC",
        joinPolicy: "OPEN",
        rosterVisibility: "LEADERS",
        chatEnabled: true,
        capacity: -1,
      },
    });
    expect(bad.errors![0]!.extensions).toMatchObject({
      fieldErrorCodes: { name: "required", capacity: "out_of_range", address: "required" },
    });
  });
});

describe("who sees whom through groups", () => {
  it("follows every change: joining, a request and its decision, becoming leader, closing the roster, archiving, leaving", async () => {
    // Fresh people (not in the shared groups), each with a phone for fellow group members only.
    const [ann, ben, lea] = await Promise.all([createUser(), createUser(), createUser()]);
    for (const user of [ann, ben, lea]) {
      await su.collection("people").update(user.personId!, { directoryOptOut: true }); // never seen through the directory
      await su
        .collection("person_phones")
        .create({ person: user.personId, number: "+15550100", visibility: "groups" });
    }
    const sees = async (viewer: TestUser, target: TestUser) => {
      const pb = pbAs(viewer);
      const person = await pb
        .collection("people")
        .getOne(target.personId!)
        .then(
          () => true,
          () => false,
        );
      const phones = await pb
        .collection("person_phones")
        .getFullList({ filter: pb.filter("person = {:p}", { p: target.personId }) });
      return { person, phone: phones.length > 0 };
    };
    const none = { person: false, phone: false };
    const group = await su.collection("groups").create({
      name: `Access ${run}`,
      slug: slug("access"),
      type: "team",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "request",
      rosterVisibility: "members",
      status: "active",
    });
    await su
      .collection("group_members")
      .create({ group: group.id, person: lea.personId, role: "member", status: "active" });
    expect(await sees(lea, ann)).toEqual(none);

    const request = await su
      .collection("group_join_requests")
      .create({ group: group.id, person: ann.personId, status: "pending", message: "hello" });
    expect(await sees(lea, ann)).toEqual(none); // only leaders see who asks
    const leadership = await su
      .collection("group_members")
      .getFirstListItem(su.filter("group = {:g} && person = {:p}", { g: group.id, p: lea.personId }));
    await su.collection("group_members").update(leadership.id, { role: "leader" });
    expect(await sees(lea, ann)).toEqual({ person: true, phone: false }); // the requester, not their contact rows
    await su.collection("group_join_requests").update(request.id, { status: "declined" });
    expect(await sees(lea, ann)).toEqual(none);

    const annIn = await su
      .collection("group_members")
      .create({ group: group.id, person: ann.personId, role: "member", status: "active" });
    await su
      .collection("group_members")
      .create({ group: group.id, person: ben.personId, role: "member", status: "active" });
    expect(await sees(ben, ann)).toEqual({ person: true, phone: true });
    expect(await sees(lea, ann)).toEqual({ person: true, phone: true });

    await su.collection("groups").update(group.id, { rosterVisibility: "leaders" });
    expect(await sees(ben, ann)).toEqual({ person: false, phone: true }); // not on the roster; still a fellow member
    expect(await sees(lea, ann)).toEqual({ person: true, phone: true });

    await su.collection("groups").update(group.id, { status: "archived" });
    expect(await sees(ben, ann)).toEqual(none);
    expect(await sees(lea, ann)).toEqual(none);
    await su.collection("groups").update(group.id, { status: "active", rosterVisibility: "members" });
    expect(await sees(ben, ann)).toEqual({ person: true, phone: true });

    await su.collection("group_members").delete(annIn.id);
    expect(await sees(ben, ann)).toEqual(none);
    expect(await sees(ann, ben)).toEqual(none);
    expect(await sees(lea, ann)).toEqual(none);
  });
});

describe("a group's prayer requests", () => {
  it("members ask the group and read its requests; who may read them follows the membership (group_access.memberGroups)", async () => {
    const [insider, outsider] = await Promise.all([createUser(), createUser()]);
    const group = await su.collection("groups").create({
      name: `Prayer ${run}`,
      slug: slug("prayer"),
      type: "team",
      locationDisplay: "hidden",
      visibility: "hidden",
      joinPolicy: "closed",
      rosterVisibility: "leaders",
      status: "active",
    });
    // Alone in a group whose roster is closed: nobody sees the insider through it, yet the row lists the group.
    const membership = await su
      .collection("group_members")
      .create({ group: group.id, person: insider.personId, role: "member", status: "active" });
    const access = await su
      .collection("group_access")
      .getFirstListItem(su.filter("person = {:p}", { p: insider.personId }));
    expect(access).toMatchObject({
      memberGroups: group.id,
      groupViewers: "",
      rosterViewers: "",
      leaderViewers: "",
    });

    const ASK = `mutation($g: ID!, $b: String!) { submitPrayerRequest(input: { body: $b, visibility: PUBLIC, anonymous: false, groupId: $g }) { id groupId visibility status } }`;
    const asked = await gql(insider).request<{
      submitPrayerRequest: { id: string; groupId: string; visibility: string; status: string };
    }>(ASK, { g: group.id, b: "Pray for our team's week of service." });
    expect(asked.errors).toBeUndefined();
    // Asked of the group: members-only, whatever visibility was sent.
    expect(asked.data!.submitPrayerRequest).toMatchObject({ groupId: group.id, visibility: "MEMBERS" });
    const id = asked.data!.submitPrayerRequest.id;
    // A moderator approves it; the requester is told it is shared with their group (not the wall).
    const moderator = await createUser({ roles: ["Care Team"] });
    expect(
      (await gql(moderator).request(`mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`, { id }))
        .errors,
    ).toBeUndefined();
    const approvedMail = await waitForMail(catcherUrl(), insider.email, /./);
    expect(approvedMail.text).toContain("shared with your group");
    const later = await su.collection("prayer_requests").create({
      body: "A later request of the group.",
      visibility: "members",
      anonymous: true,
      authorName: "",
      status: "answered",
      prayedCount: 0,
      flagCount: 0,
      group: group.id,
    });
    expect(
      (await gql(outsider).request(ASK, { g: group.id, b: "Not my group, but still asking." })).errors,
    ).toBeDefined();

    const GROUP_WALL = `query($id: ID!) { prayerRequest(id: $id) { id } groups: myGroups { id prayerRequests { edges { node { id body } } totalCount } } }`;
    const wallOf = async (user: TestUser) => {
      const result = await gql(user).request<{
        prayerRequest: { id: string } | null;
        groups: { id: string; prayerRequests: { edges: { node: { id: string } }[]; totalCount: number } }[];
      }>(GROUP_WALL, { id });
      return {
        one: result.data!.prayerRequest?.id ?? null,
        list:
          result.data!.groups.find((g) => g.id === group.id)?.prayerRequests.edges.map((e) => e.node.id) ??
          null,
      };
    };
    const seen = await wallOf(insider);
    expect(seen.one).toBe(id);
    expect(seen.list).toEqual([later.id, id]); // newest first
    expect(await wallOf(outsider)).toEqual({ one: null, list: null });
    // Members flag the group's requests; others cannot reach them.
    const FLAG = `mutation($id: ID!) { flagPrayerRequest(id: $id, reason: "Too personal") { id } }`;
    expect(errorCode(await gql(outsider).request(FLAG, { id: later.id }))).toBe("NOT_FOUND");
    expect((await gql(insider).request(FLAG, { id: later.id })).errors).toBeUndefined();
    expect((await su.collection("prayer_requests").getOne(later.id)).flagCount).toBe(1);

    // Leaving (inactive) takes the group off the row: the group's requests are gone for them (but the one
    // they asked themselves, which a requester always reads).
    await su.collection("group_members").update(membership.id, { status: "inactive" });
    const reads = (requestId: string) =>
      pbAs(insider)
        .collection("prayer_requests")
        .getOne(requestId)
        .then(
          () => true,
          () => false,
        );
    expect(await reads(later.id)).toBe(false);
    expect(await reads(id)).toBe(true);
    await su.collection("group_members").update(membership.id, { status: "active" });
    expect(await reads(later.id)).toBe(true);
    // An archived group's requests are read by nobody through membership.
    await su.collection("groups").update(group.id, { status: "archived" });
    expect(await reads(later.id)).toBe(false);
  });
});

describe("the moderation queue names the group a request was asked of", () => {
  it("when the moderator may see the group (the groups rules decide); the group's members read the name too", async () => {
    const open = await makeGroup({ name: `Open circle ${run}`, visibility: "members" });
    const hidden = await makeGroup({ name: `Quiet circle ${run}`, visibility: "hidden" });
    const ASK = `mutation($g: ID!, $b: String!) { submitPrayerRequest(input: { body: $b, visibility: MEMBERS, anonymous: false, groupId: $g }) { id } }`;
    const ids: Record<string, string> = {};
    for (const [key, group] of [
      ["open", open],
      ["hidden", hidden],
    ] as const) {
      const asked = await gql(member).request<{ submitPrayerRequest: { id: string } }>(ASK, {
        g: group.id,
        b: `Pray for our circle, ${key} ${run}.`,
      });
      expect(asked.errors).toBeUndefined();
      ids[key] = asked.data!.submitPrayerRequest.id;
    }
    const QUEUE = `{ prayerQueue(first: 100) { edges { node { id groupId groupName } } } }`;
    const queueOf = async (user: TestUser) => {
      const result = await gql(user).request<{
        prayerQueue: { edges: { node: { id: string; groupId: string | null; groupName: string | null } }[] };
      }>(QUEUE);
      expect(result.errors).toBeUndefined();
      return Object.fromEntries(
        result
          .data!.prayerQueue.edges.filter((e) => Object.values(ids).includes(e.node.id))
          .map((e) => [e.node.id, e.node]),
      );
    };
    // A care-team moderator (an active member): the members' group by name; the hidden one only as "a group".
    const careTeam = await queueOf(await createUser({ roles: ["Care Team"] }));
    expect(careTeam[ids.open!]).toMatchObject({ groupId: open.id, groupName: `Open circle ${run}` });
    expect(careTeam[ids.hidden!]).toMatchObject({ groupId: hidden.id, groupName: null });
    // Staff who manage groups (and moderate) see every group's name.
    const pastor = await queueOf(await createUser({ roles: ["Pastor"] }));
    expect(pastor[ids.hidden!]).toMatchObject({ groupName: `Quiet circle ${run}` });
    // Read one by one (no expand): the requester, a member of the group, gets the name as well.
    const one = await gql(member).request<{ prayerRequest: { groupName: string | null } }>(
      `query($id: ID!) { prayerRequest(id: $id) { groupName } }`,
      { id: ids.hidden },
    );
    expect(one.data!.prayerRequest.groupName).toBe(`Quiet circle ${run}`);
  });
});

describe("a group's prayer requests, live", () => {
  it("its active members hear a request the moment a moderator approves it, and its answer; others hear nothing", async () => {
    const group = await makeGroup({ visibility: "members" });
    const query = `subscription($g: ID!) { groupPrayer(groupId: $g) { kind id request { body } } }`;
    type Event = { kind: string; id: string | null; request: { body: string } | null };
    const memberTab = await subscribe<Event>(member, query, { g: group.id }, "groupPrayer");
    const outsiderTab = await subscribe<Event>(newcomer, query, { g: group.id }, "groupPrayer");
    try {
      const ASK = `mutation($g: ID!, $b: String!) { submitPrayerRequest(input: { body: $b, visibility: MEMBERS, anonymous: false, groupId: $g }) { id status } }`;
      const asked = await gql(leader).request<{ submitPrayerRequest: { id: string; status: string } }>(ASK, {
        g: group.id,
        b: `Live group prayer ${run}`,
      });
      expect(asked.errors).toBeUndefined();
      const id = asked.data!.submitPrayerRequest.id;
      const moderator = await createUser({ roles: ["Care Team"] });
      if (asked.data!.submitPrayerRequest.status === "PENDING") {
        expect(
          (
            await gql(moderator).request(`mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`, {
              id,
            })
          ).errors,
        ).toBeUndefined();
      }
      await until(
        async () => memberTab.events.find((e) => e.id === id && (e.kind === "ADDED" || e.kind === "UPDATED")),
        "the approved request for the member",
      );
      expect(memberTab.events.find((e) => e.id === id)!.request).toEqual({
        body: `Live group prayer ${run}`,
      });
      // The requester marks it answered: an update, heard live too.
      const answered = await gql(leader).request(
        `mutation($id: ID!) { markPrayerAnswered(id: $id, note: "Thank you all") { id } }`,
        { id },
      );
      expect(answered.errors).toBeUndefined();
      await until(
        async () => memberTab.events.find((e) => e.id === id && e.kind === "UPDATED"),
        "the answered request for the member",
      );
      expect(outsiderTab.events.filter((e) => e.id === id)).toEqual([]);
    } finally {
      await memberTab.close();
      await outsiderTab.close();
    }
  });
});

describe("leaders' tools", () => {
  it("emailGroup mails every active member through the church's mail", async () => {
    const group = await makeGroup();
    const subject = `Picnic ${randomUUID().slice(0, 6)}`;
    const sent = await gql(leader).request<{ emailGroup: number }>(
      `mutation($g: ID!, $s: String!, $b: String!) { emailGroup(groupId: $g, subject: $s, body: $b) }`,
      { g: group.id, s: subject, b: "Bring a salad.\n\nSee you Saturday!" },
    );
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.emailGroup).toBe(2);
    const mail = await waitForMail(catcherUrl(), member.email, new RegExp(subject));
    expect(mail.subject).toContain(subject);
    expect(mail.text).toContain("Bring a salad.");
    expect(mail.text).toContain(`/groups/${group.slug}`);
    await waitForMail(catcherUrl(), leader.email, new RegExp(subject));
    // A member is not a leader: no mail to the group.
    expect(
      errorCode(
        await gql(member).request(
          `mutation($g: ID!) { emailGroup(groupId: $g, subject: "Hi", body: "Hello") }`,
          { g: group.id },
        ),
      ),
    ).toBe("FORBIDDEN");
  });

  it("a leader renamed is renamed in the leaderNames of the groups they lead", async () => {
    const lead = await createUser();
    const group = await su.collection("groups").create({
      name: `Rename ${run}`,
      slug: slug("rename"),
      type: "team",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "closed",
      rosterVisibility: "leaders",
      status: "active",
    });
    await su.collection("people").update(lead.personId!, { firstName: "Rosa", lastName: `Before ${run}` });
    await su
      .collection("group_members")
      .create({ group: group.id, person: lead.personId, role: "leader", status: "active" });
    expect((await su.collection("groups").getOne(group.id)).leaderNames).toEqual([`Rosa Before ${run}`]);
    await su
      .collection("people")
      .update(lead.personId!, { preferredName: "Rosie", lastName: `After ${run}` });
    expect((await su.collection("groups").getOne(group.id)).leaderNames).toEqual([`Rosie After ${run}`]);
  });
});

describe("chat", () => {
  it("the same clientKey twice (a double click, a resend) stores one message", async () => {
    const group = await makeGroup();
    const key = randomUUID();
    const post = () =>
      gql(member).request<{ postGroupMessage: { id: string } }>(
        `mutation($g: ID!, $k: String!) { postGroupMessage(groupId: $g, body: "Hello **all**", clientKey: $k) { id html } }`,
        { g: group.id, k: key },
      );
    const [a, b] = await Promise.all([post(), post()]);
    expect(a.errors).toBeUndefined();
    expect(b.errors).toBeUndefined();
    expect(a.data!.postGroupMessage.id).toBe(b.data!.postGroupMessage.id);
    expect(
      await su
        .collection("group_messages")
        .getFullList({ filter: su.filter("group = {:g}", { g: group.id }) }),
    ).toHaveLength(1);
  });

  it("history pages back by keyset, newest first, with the same calls per page (P2)", async () => {
    const group = await makeGroup();
    for (let i = 0; i < 45; i++) {
      await su.collection("group_messages").create({
        group: group.id,
        author: leader.personId,
        authorName: "Lena",
        body: `Message ${i}`,
        clientKey: randomUUID(),
      });
      // `created` has millisecond precision: two messages saved in one millisecond have no order between them
      // (the keyset still pages them consistently), and this test names the exact order.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const page = (before: string | null, first: number) =>
      countPocketBaseCalls(() =>
        gql(member).request<{
          groupMessages: {
            edges: { node: { body: string; mine: boolean; canDelete: boolean } }[];
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        }>(
          `query($g: ID!, $b: String, $n: Int) { groupMessages(groupId: $g, before: $b, first: $n) { edges { node { body authorName mine canDelete can { edit delete } html } } pageInfo { hasNextPage endCursor } } }`,
          { g: group.id, b: before, n: first },
        ),
      );
    await page(null, 1); // the viewer's session is looked up once a minute
    const first = await page(null, 30);
    const bodies = first.result.data!.groupMessages.edges.map((e) => e.node.body);
    expect(bodies[0]).toBe("Message 44");
    expect(bodies).toHaveLength(30);
    const second = await page(first.result.data!.groupMessages.pageInfo.endCursor, 30);
    expect(second.result.data!.groupMessages.edges.map((e) => e.node.body)).toEqual(
      Array.from({ length: 15 }, (_, i) => `Message ${14 - i}`),
    );
    expect(second.result.data!.groupMessages.pageInfo.hasNextPage).toBe(false);
    const small = await page(null, 2);
    expect(first.calls).toBe(small.calls);
  });

  it("unread count, read marker, and chat notifications batched to one per group while unread", async () => {
    const group = await makeGroup();
    const unread = async () =>
      (
        await gql(member).request<{ group: { unreadCount: number } }>(
          `query($s: String!) { group(slug: $s) { unreadCount } }`,
          { s: group.slug },
        )
      ).data!.group.unreadCount;
    for (const text of ["One", "Two", "Three"]) {
      await gql(leader).request(
        `mutation($g: ID!, $b: String!, $k: String!) { postGroupMessage(groupId: $g, body: $b, clientKey: $k) { id } }`,
        { g: group.id, b: text, k: randomUUID() },
      );
    }
    expect(await unread()).toBe(3);
    const notes = await until(async () => {
      const found = (await notificationsOf(member, "group_chat")).filter((x) =>
        x.link.startsWith(`/groups/${group.slug}`),
      );
      return found.length ? found : null;
    }, "a chat notification");
    // Let the other two messages' jobs finish: still one notification for the group.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      (await notificationsOf(member, "group_chat")).filter((x) => x.link.startsWith(`/groups/${group.slug}`)),
    ).toHaveLength(notes.length);
    expect(notes).toHaveLength(1);
    await gql(member).request(`mutation($g: ID!) { markGroupRead(groupId: $g) { id } }`, { g: group.id });
    expect(await unread()).toBe(0);
  });

  it("live: members receive ADDED and REMOVED through the bridge; a non-member may not subscribe", async () => {
    const group = await makeGroup();
    const query = `subscription($g: ID!) { groupMessages(groupId: $g) { kind id message { body authorName } } }`;
    const open = (user: TestUser) =>
      subscribe<{ kind: string; id: string | null; message: { body: string } | null }>(
        user,
        query,
        { g: group.id },
        "groupMessages",
      );
    const leaderTab = await open(leader);
    const outsiderTab = await open(newcomer);
    try {
      const posted = await gql(member).request<{ postGroupMessage: { id: string } }>(
        `mutation($g: ID!, $k: String!) { postGroupMessage(groupId: $g, body: "Live hello", clientKey: $k) { id } }`,
        { g: group.id, k: randomUUID() },
      );
      const id = posted.data!.postGroupMessage.id;
      await until(
        async () => leaderTab.events.some((e) => e.kind === "ADDED" && e.id === id),
        "ADDED for the leader",
      );
      expect(leaderTab.events.find((e) => e.id === id)!.message).toEqual({
        body: "Live hello",
        authorName: `Mark Group ${run}`,
      });
      const removed = await gql(leader).request(`mutation($id: ID!) { deleteGroupMessage(id: $id) }`, { id });
      expect(removed.errors).toBeUndefined();
      await until(
        async () => leaderTab.events.some((e) => e.kind === "REMOVED" && e.id === id),
        "REMOVED for the leader",
      );
      expect(outsiderTab.events).toEqual([]);
      expect(JSON.stringify(outsiderTab.errors)).toContain("FORBIDDEN");
    } finally {
      await leaderTab.close();
      await outsiderTab.close();
    }
  });
});
