/**
 * The public prayer wall and privacy (issue 10): a requester's full name next to a health detail was
 * shown to anyone on the internet. Now visitors (and accounts not yet approved) see the first name
 * only, members and staff the name as given; visitors may ask for a members-only request; and the
 * church may turn the public wall off (settings.prayerPublicWall), after which PocketBase's rules give
 * visitors no public request at all (REST, GraphQL, and marks). Rows for the rules are in
 * authorization-prayer.int.test.ts.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { createUser, GqlClient, pbAs, system, testGateway, uniqueEmail, type TestUser } from "./helpers.ts";
import {
  WallPrivacyOneDocument,
  WallPrivacyPrayDocument,
  WallPrivacyPublicWallDocument,
  WallPrivacySettingsDocument,
  WallPrivacySubmitDocument,
  WallPrivacyWallDocument,
  type PrayerRequestInput,
  type WallPrivacyFieldsFragment,
} from "./__generated__/operations.ts";

// The operations are in ./operations/prayer-wall-privacy.graphql (typed by npm run codegen).
const SUBMIT = WallPrivacySubmitDocument;
const ONE = WallPrivacyOneDocument;
const WALL = WallPrivacyWallDocument;
const APPROVE = `mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`;
const SETTINGS = WallPrivacySettingsDocument;

type Node = WallPrivacyFieldsFragment;

let gateway: Gateway;
let su: PocketBase;
let member: TestUser;
let otherMember: TestUser;
let pending: TestUser;
let pastor: TestUser;
let admin: TestUser;
let ip = 0;

const visitor = () => new GqlClient(gateway, { ip: `203.0.113.${++ip}` });
const as = (user: TestUser) => new GqlClient(gateway, { token: user.token });
const text = (label: string) => `Please pray for my surgery next week ${label} ${randomUUID().slice(0, 8)}`;

async function ask(
  client: GqlClient,
  input: Omit<PrayerRequestInput, "visibility" | "anonymous"> & Partial<PrayerRequestInput>,
): Promise<Node> {
  const result = await client.execute(SUBMIT, {
    input: { visibility: "PUBLIC", anonymous: false, ...input },
  });
  expect(result.errors).toBeUndefined();
  const id = result.data!.submitPrayerRequest.id;
  expect((await as(pastor).request(APPROVE, { id })).errors).toBeUndefined();
  return result.data!.submitPrayerRequest;
}

const viewAs = async (client: GqlClient, id: string) =>
  (await client.execute(ONE, { id })).data!.prayerRequest;
const wallAs = async (client: GqlClient) =>
  (await client.execute(WALL)).data!.prayerWall.edges.map((e) => e.node);

async function setPublicWall(on: boolean) {
  const result = await as(admin).execute(SETTINGS, { input: { prayerPublicWall: on } });
  expect(result.errors).toBeUndefined();
  expect(result.data!.updateSettings.prayerPublicWall).toBe(on);
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [member, otherMember, pending, pastor, admin] = await Promise.all([
    createUser({ name: "Margaret Anne Whitfield" }),
    createUser({ name: "Otto Other" }),
    createUser({ person: "pending", name: "Penny Pending" }),
    createUser({ roles: ["Pastor"] }),
    createUser({ roles: ["Administrator"] }),
  ]);
});
afterAll(async () => {
  const settings = (await su.collection("settings").getFullList())[0]!;
  await su.collection("settings").update(settings.id, { prayerPublicWall: true });
  await gateway.close();
});

describe("names on the public wall", () => {
  it("visitors and accounts not yet approved see the first name only; members and staff the full name", async () => {
    const request = await ask(as(member), { body: text("member") });
    for (const client of [visitor(), as(pending)]) {
      expect(await viewAs(client, request.id)).toMatchObject({ authorName: "Margaret" });
      expect((await wallAs(client)).find((n) => n.id === request.id)).toMatchObject({
        authorName: "Margaret",
      });
    }
    for (const user of [member, otherMember, pastor]) {
      expect(await viewAs(as(user), request.id)).toMatchObject({ authorName: "Margaret Anne Whitfield" });
    }
    // The full name is nowhere in the visitor's answer.
    const raw = await visitor().request(WALL);
    expect(JSON.stringify(raw.data)).not.toContain("Whitfield");
  });

  it("a visitor's own name is shortened for other visitors too; the stored name stays whole for the pastors", async () => {
    const request = await ask(visitor(), {
      body: text("visitor"),
      name: "Victor Hugo Visitor",
      email: uniqueEmail("victor"),
    });
    expect(await viewAs(visitor(), request.id)).toMatchObject({ authorName: "Victor" });
    expect(await viewAs(as(otherMember), request.id)).toMatchObject({ authorName: "Victor Hugo Visitor" });
    const row = await su
      .collection("prayer_request_private")
      .getFirstListItem(su.filter("request = {:id}", { id: request.id }));
    expect(row.submitterName).toBe("Victor Hugo Visitor");
  });
});

describe("members-only requests from visitors", () => {
  it("a visitor may ask for a members-only request: members see it, visitors never do", async () => {
    const request = await ask(visitor(), {
      body: text("members"),
      visibility: "MEMBERS",
      name: "Mia Visitor",
      email: uniqueEmail("mia"),
    });
    expect(request.visibility).toBe("MEMBERS");
    expect(await viewAs(visitor(), request.id)).toBeNull();
    expect((await wallAs(visitor())).some((n) => n.id === request.id)).toBe(false);
    expect(await viewAs(as(otherMember), request.id)).toMatchObject({
      id: request.id,
      authorName: "Mia Visitor",
    });
    expect(
      await pbAs(null)
        .collection("prayer_requests")
        .getList(1, 1, { filter: `id = "${request.id}"` }),
    ).toMatchObject({ totalItems: 0 });
  });
});

describe("turning the public wall off", () => {
  it("visitors get no public request (GraphQL and REST) and cannot pray; members still see and pray", async () => {
    const request = await ask(as(member), { body: text("wall off") });
    expect((await wallAs(visitor())).some((n) => n.id === request.id)).toBe(true);
    await setPublicWall(false);
    try {
      const guestWall = await wallAs(visitor());
      expect(guestWall.filter((n) => n.visibility === "PUBLIC")).toEqual([]);
      expect(await viewAs(visitor(), request.id)).toBeNull();
      expect(await viewAs(as(pending), request.id)).toBeNull();
      expect(
        (await pbAs(null).collection("prayer_requests").getList(1, 50, { filter: 'visibility = "public"' }))
          .items,
      ).toEqual([]);
      const pray = await visitor().request(`mutation($id: ID!) { prayFor(id: $id) { id } }`, {
        id: request.id,
      });
      expect(pray.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

      expect((await wallAs(as(otherMember))).some((n) => n.id === request.id)).toBe(true);
      const memberPray = await as(otherMember).execute(WallPrivacyPrayDocument, { id: request.id });
      expect(memberPray.errors).toBeUndefined();
      // The shell tells the web app to invite visitors to sign in instead.
      expect((await visitor().execute(WallPrivacyPublicWallDocument)).data!.settings.prayerPublicWall).toBe(
        false,
      );
    } finally {
      await setPublicWall(true);
    }
    expect(await viewAs(visitor(), request.id)).toMatchObject({ id: request.id });
  });

  it("only administrators change it", async () => {
    const refused = await as(member).request(SETTINGS, { input: { prayerPublicWall: false } });
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await su.collection("settings").getFullList())[0]!.prayerPublicWall).toBe(true);
  });
});
