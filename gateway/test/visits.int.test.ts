/**
 * Plan-a-visit requests (PRODUCT.md §3): the public form (validation, honeypot, per-IP throttle,
 * confirmation mail) and the staff follow-up list, through GraphQL and PocketBase's REST API.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { todayIn } from "../src/pocketbase/dates.ts";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  expectRateLimited,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import { VisitsListDocument } from "./__generated__/operations.ts";

const SUBMIT = `mutation($input: VisitRequestInput!) { submitVisitRequest(input: $input) }`;
const LIST = VisitsListDocument; // ./operations/visits.graphql
const UPDATE = `mutation($id: ID!, $status: VisitStatus!, $note: String) { updateVisitRequest(id: $id, status: $status, staffNote: $note) { id status staffNote } }`;

let gateway: Gateway;
let su: PocketBase;
let pastor: TestUser;
let careTeam: TestUser;
let member: TestUser;
let ipCounter = 0;

/** A visitor from an address of their own (each test starts with a fresh throttle). */
const visitor = () => new GqlClient(gateway, { ip: `192.0.2.${++ipCounter}` });
const asUser = (user: TestUser) => new GqlClient(gateway, { token: user.token });
const storedFor = (email: string) =>
  su.collection("visit_requests").getFullList({ filter: su.filter("email = {:email}", { email }) });

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  pastor = await createUser({ roles: ["Pastor"] });
  careTeam = await createUser({ roles: ["Care Team"] });
  member = await createUser();
});
afterAll(() => gateway.close());

describe("the public form", () => {
  it("stores the request as new (phone as E.164) and emails a confirmation with the date", async () => {
    const email = uniqueEmail("visitor");
    const result = await visitor().request(SUBMIT, {
      input: {
        name: "  Vera Visitor ",
        email: email.toUpperCase(),
        phone: "(202) 555-0143",
        plannedDate: "2099-05-03",
        partySize: 3,
        message: "First time!",
      },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ submitVisitRequest: true });
    const [stored] = await storedFor(email);
    expect(stored).toMatchObject({
      name: "Vera Visitor",
      email,
      phone: "+12025550143",
      partySize: 3,
      message: "First time!",
      status: "new",
      staffNote: "",
      person: "",
    });
    expect(stored!.plannedDate).toMatch(/^2099-05-03/);

    const mail = await waitForMail(catcherUrl(), email, /Your visit to/);
    expect(mail.text).toContain("Vera Visitor");
    expect(mail.text).toContain("Sunday, May 3, 2099");
  });

  it("accepts today in the church's time zone and a request with only name and email", async () => {
    const settings = (await su.collection("settings").getFullList())[0]!;
    const email = uniqueEmail("today");
    const today = await visitor().request(SUBMIT, {
      input: { name: "Tess", email, plannedDate: todayIn(settings.timezone as string) },
    });
    expect(today.errors).toBeUndefined();
    const minimal = await visitor().request(SUBMIT, { input: { name: "Min", email: uniqueEmail("min") } });
    expect(minimal.data).toEqual({ submitVisitRequest: true });
  });

  it("answers bad input with field errors and stores nothing", async () => {
    const email = "not-an-email";
    const result = await visitor().request(SUBMIT, {
      input: {
        name: " ",
        email,
        phone: "12",
        plannedDate: "2000-01-01",
        partySize: 0,
        message: "x".repeat(LIMITS.visitMessageMax + 1),
      },
    });
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
    expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({
      name: "required",
      email: "invalid_email",
      phone: "invalid_phone",
      plannedDate: "date_in_past",
      partySize: "out_of_range",
      message: "too_long",
    });
    const codes = async (input: Record<string, unknown>) =>
      (await visitor().request(SUBMIT, { input: { name: "Ann", email: uniqueEmail("bad"), ...input } }))
        .errors?.[0]?.extensions?.fieldErrorCodes;
    expect(await codes({ plannedDate: "2099-02-30" })).toEqual({ plannedDate: "invalid_date" });
    expect(await codes({ plannedDate: "03/05/2099" })).toEqual({ plannedDate: "invalid_date" });
    expect(await codes({ partySize: LIMITS.visitPartySizeMax + 1 })).toEqual({ partySize: "out_of_range" });
    expect(await codes({ name: "n".repeat(LIMITS.nameMax + 1) })).toEqual({ name: "too_long" });
  });

  it("answers a filled honeypot as if it worked but stores nothing", async () => {
    const email = uniqueEmail("spam");
    const result = await visitor().request(SUBMIT, {
      input: { name: "Bot", email, website: "http://spam.example" },
    });
    expect(result.data).toEqual({ submitVisitRequest: true });
    expect(await storedFor(email)).toEqual([]);
  });

  it(`refuses request ${THROTTLE.visitorFormsPerIp + 1} from one IP within the hour`, async () => {
    const client = visitor();
    for (let i = 0; i < THROTTLE.visitorFormsPerIp; i++) {
      expect(
        (await client.request(SUBMIT, { input: { name: `Guest ${i}`, email: uniqueEmail("many") } })).errors,
      ).toBeUndefined();
    }
    const email = uniqueEmail("one-too-many");
    const refused = await client.request(SUBMIT, { input: { name: "Guest", email } });
    expectRateLimited(refused);
    expect(await storedFor(email)).toEqual([]);
    // Another address is not affected.
    expect(
      (await visitor().request(SUBMIT, { input: { name: "Other", email: uniqueEmail("other") } })).errors,
    ).toBeUndefined();
  });
});

describe("staff follow-up", () => {
  it("lists requests newest first with a status filter and keyset pages (people.view)", async () => {
    const marker = randomUUID().slice(0, 8);
    const client = visitor();
    for (const n of [1, 2, 3])
      await client.request(SUBMIT, {
        input: { name: `Page ${marker} ${n}`, email: uniqueEmail(`page${n}`) },
      });

    const first = await asUser(careTeam).execute(LIST, { first: 2, status: "NEW" });
    expect(first.errors).toBeUndefined();
    expect(first.data?.visitRequests.edges.map((e) => e.node.name)).toEqual([
      `Page ${marker} 3`,
      `Page ${marker} 2`,
    ]);
    expect(first.data?.visitRequests.pageInfo.hasNextPage).toBe(true);
    const second = await asUser(careTeam).execute(LIST, {
      first: 1,
      after: first.data?.visitRequests.pageInfo.endCursor,
      status: "NEW",
    });
    expect(second.data?.visitRequests.edges[0]?.node).toMatchObject({
      name: `Page ${marker} 1`,
      status: "NEW",
      phone: null,
      plannedDate: null,
      partySize: null,
      staffNote: "",
    });

    const all = await asUser(pastor).execute(LIST, { first: 100 });
    expect(all.data?.visitRequests.totalCount).toBe(
      (await su.collection("visit_requests").getList(1, 1)).totalItems,
    );
  });

  it("updates status and note (people.manage), and filters by status", async () => {
    const email = uniqueEmail("follow");
    await visitor().request(SUBMIT, { input: { name: "Follow Up", email } });
    const [stored] = await storedFor(email);

    expect(errorCode(await asUser(careTeam).request(UPDATE, { id: stored!.id, status: "CONTACTED" }))).toBe(
      "FORBIDDEN",
    );
    const tooLong = await asUser(pastor).request(UPDATE, {
      id: stored!.id,
      status: "CONTACTED",
      note: "n".repeat(LIMITS.staffNoteMax + 1),
    });
    expect(tooLong.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ staffNote: "too_long" });
    const updated = await asUser(pastor).request(UPDATE, {
      id: stored!.id,
      status: "CONTACTED",
      note: "Called on Tuesday",
    });
    expect(updated.data).toEqual({
      updateVisitRequest: { id: stored!.id, status: "CONTACTED", staffNote: "Called on Tuesday" },
    });
    expect(errorCode(await asUser(pastor).request(UPDATE, { id: "zzzzzzzzzzzzzzz", status: "CLOSED" }))).toBe(
      "NOT_FOUND",
    );

    const contacted = await asUser(pastor).execute(LIST, { first: 100, status: "CONTACTED" });
    expect(contacted.data?.visitRequests.edges.map((e) => e.node.id)).toContain(stored!.id);
    expect(contacted.data?.visitRequests.edges.every((e) => e.node.status === "CONTACTED")).toBe(true);
    const fresh = await asUser(pastor).execute(LIST, { first: 100, status: "NEW" });
    expect(fresh.data?.visitRequests.edges.map((e) => e.node.id)).not.toContain(stored!.id);
  });

  it("is closed to visitors and members, through GraphQL and REST", async () => {
    const email = uniqueEmail("hidden");
    await visitor().request(SUBMIT, { input: { name: "Hidden", email } });
    const [stored] = await storedFor(email);

    expect(errorCode(await visitor().request(LIST, {}))).toBe("UNAUTHENTICATED");
    expect(errorCode(await asUser(member).request(LIST, {}))).toBe("FORBIDDEN");
    expect(errorCode(await visitor().request(UPDATE, { id: stored!.id, status: "CLOSED" }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(errorCode(await asUser(member).request(UPDATE, { id: stored!.id, status: "CLOSED" }))).toBe(
      "FORBIDDEN",
    );

    for (const who of [null, member]) {
      const pb = pbAs(who);
      const list = await pb.collection("visit_requests").getList(1, 50);
      expect(list.totalItems).toBe(0);
      expect(await restStatus(() => pb.collection("visit_requests").getOne(stored!.id))).toBe(404);
      expect(
        await restStatus(() => pb.collection("visit_requests").update(stored!.id, { status: "closed" })),
      ).toBe(404);
      // Creating directly cannot skip the "new" status or set staff fields.
      expect(
        await restStatus(() =>
          pb.collection("visit_requests").create({ name: "X", email: uniqueEmail("x"), status: "closed" }),
        ),
      ).toBe(400);
      expect(
        await restStatus(() =>
          pb
            .collection("visit_requests")
            .create({ name: "X", email: uniqueEmail("x"), status: "new", staffNote: "hi" }),
        ),
      ).toBe(400);
    }
    expect((await su.collection("visit_requests").getOne(stored!.id)).status).toBe("new");
  });
});
