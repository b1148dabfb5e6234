/**
 * QUALITY.md S1 for events: persona × (events, event_exceptions, event_categories, rsvps,
 * registrations, occurrence_counts) × operation, checked directly against PocketBase's REST API and
 * through GraphQL. Drafts belong to `events.manage` (Editor, Pastor, Administrator); members-only
 * events to signed-in users whose person is active; RSVPs and registrations to their owner (and the
 * holder of a registration's mail token) and to event managers; the counts are written by hooks only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import {
  AuthzAttendeesDocument,
  AuthzEventBySlugDocument,
  AuthzEventSearchDocument,
} from "./__generated__/operations.ts";
import { createEvent, pbDate, registrationBody, secretToken, uniqueSlug } from "./event-support.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  expectGql,
  expectRest,
  type Check,
  type Verdict,
} from "./authorization-table.ts";

const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "writer",
  "editor",
  "pastor",
  "careTeam",
  "admin",
] as const;
type Persona = (typeof PERSONAS)[number];
const { cells } = columns(PERSONAS);
const everyone = cells(A, A, A, A, A, A, A, A);
const nobody = cells(D, D, D, D, D, D, D, D);
// Active members: everyone signed in whose person is active (the pending sign-up is not).
const members = cells(D, D, A, A, A, A, A, A);
// events.manage: editor, pastor, admin (the writer has content.edit only; the care team none).
const managers = cells(D, D, D, D, A, A, D, A);

// Columns: anonymous, pending member, member, writer (content.edit only), editor, pastor, care team, admin.
const MATRIX = {
  events: {
    viewPublic: everyone,
    viewMembersOnly: members,
    viewDraft: managers,
    listDrafts: managers,
    create: managers,
    update: managers,
    delete: managers,
  },
  event_exceptions: {
    viewOfPublicEvent: everyone,
    viewOfMembersOnlyEvent: members,
    viewOfDraft: managers,
    create: managers,
  },
  event_categories: {
    view: everyone,
    create: managers,
  },
  registrations: {
    registerForPublicEvent: everyone,
    registerForMembersOnlyEvent: members,
    registerAsConfirmedDirectly: managers,
    viewSomeoneElses: managers,
    cancelSomeoneElses: managers,
    attendeeList: managers,
    // The series decides which instants take sign-ups, for staff too (the hook, not only the gateway).
    registerForCancelledDate: nobody,
    registerAtNoOccurrence: nobody,
    registerOnExcludedDate: nobody,
    // The mail link cancels; it never renames the party or changes its phone or split.
    cancelWithTokenAndRename: managers,
  },
  rsvps: {
    answerPublicEvent: everyone,
    viewSomeoneElses: managers,
    changeSomeoneElses: managers,
    answerCancelledDate: nobody,
    answerAtNoOccurrence: nobody,
    answerOnExcludedDate: nobody,
    // An answer names its caller's own person (or none), never another's.
    answerAsSomeoneElse: managers,
  },
  occurrence_counts: {
    viewOfPublicEvent: everyone,
    writeDirectly: nobody,
  },
} as const;

let gateway: Gateway;
let su: PocketBase;
const users = {} as Record<Persona, TestUser | null>;
let n = 0;
const ip = () => `192.0.2.${(n++ % 250) + 1}`;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const writerRole = await su
    .collection("roles")
    .create({ name: `Writer ${uniqueSlug("w")}`, permissions: ["content.edit"] });
  users.anonymous = null;
  users.pending = await createUser({ person: "pending" });
  users.member = await createUser();
  users.writer = await createUser();
  await su.collection("users").update(users.writer.id, { roles: [writerRole.id] });
  users.editor = await createUser({ roles: ["Editor"] });
  users.pastor = await createUser({ roles: ["Pastor"] });
  users.careTeam = await createUser({ roles: ["Care Team"] });
  users.admin = await createUser({ roles: ["Administrator"] });
});
afterAll(() => gateway.close());

const rest = (persona: Persona) => pbAs(users[persona]);
const gql = (persona: Persona) => new GqlClient(gateway, { token: users[persona]?.token, ip: ip() });

const expectGqlWrite = (
  expected: Verdict,
  persona: Persona,
  result: Parameters<typeof expectGql>[2],
  deniedAs: string[] = ["FORBIDDEN", "NOT_FOUND"],
) => expectGql(expected, persona, result, deniedAs);
const VIEW = AuthzEventBySlugDocument; // ./operations/authorization.graphql
const viewedViaGql = async (persona: Persona, slug: string) =>
  !!(await gql(persona).execute(VIEW, { s: slug })).data?.event;
const eventInput = (title: string) => ({
  title,
  timezone: "America/New_York",
  startsAt: "2030-01-06T10:00",
  endsAt: "2030-01-06T11:00",
});
const registrationEvent = (fields: Record<string, unknown> = {}) =>
  createEvent({ registrationMode: "registration", capacity: 50, waitlistEnabled: true, ...fields });
const ownBody = (
  persona: Persona,
  event: { id: string; startsAt: string },
  fields: Record<string, unknown> = {},
) => registrationBody(event, { user: users[persona]?.id ?? "", ...fields });

const WEEK_MS = 7 * 86400_000;
/** A weekly series in UTC (so a week is exactly 7 × 24 h), taking `mode` sign-ups; its second date. */
async function weeklySeries(mode: "rsvp" | "registration", fields: Record<string, unknown> = {}) {
  const event = await createEvent({
    registrationMode: mode,
    capacity: mode === "registration" ? 50 : 0,
    rrule: "FREQ=WEEKLY;COUNT=10",
    timezone: "UTC",
    ...fields,
  });
  const second = pbDate(new Date(Date.parse(event.startsAt.replace(" ", "T")) + WEEK_MS).toISOString());
  return { event, second };
}
/** The instant a sign-up targets in each of the series rows: a cancelled, a missing or an excluded date. */
async function seriesTarget(mode: "rsvp" | "registration", kind: "cancelled" | "none" | "excluded") {
  if (kind === "excluded") {
    const { event, second } = await weeklySeries(mode);
    // EXDATEs are the removed dates' local start times (here UTC): "2030-01-13T15:00:00".
    await su.collection("events").update(event.id, { exdates: second.slice(0, 19).replace(" ", "T") });
    return { event, at: second };
  }
  const { event, second } = await weeklySeries(mode);
  if (kind === "cancelled") {
    await su
      .collection("event_exceptions")
      .create({ event: event.id, originalStart: second, status: "cancelled", note: "Snow" });
    return { event, at: second };
  }
  // One day after a real date: no occurrence of a weekly series starts then.
  return { event, at: pbDate(new Date(Date.parse(second.replace(" ", "T")) + 86400_000).toISOString()) };
}
const rsvpBody = (
  persona: Persona,
  event: { id: string },
  at: string,
  fields: Record<string, unknown> = {},
) => ({
  event: event.id,
  occurrenceStart: at,
  user: users[persona]?.id ?? "",
  name: "Someone",
  response: "yes",
  guests: 0,
  ...fields,
});
const restRegisterAt =
  (kind: "cancelled" | "none" | "excluded"): Check<Persona> =>
  async (persona, expected) => {
    const { event, at } = await seriesTarget("registration", kind);
    expectRest(
      expected,
      await restStatus(() =>
        rest(persona)
          .collection("registrations")
          .create(ownBody(persona, { id: event.id, startsAt: at })),
      ),
    );
  };
const restAnswerAt =
  (kind: "cancelled" | "none" | "excluded"): Check<Persona> =>
  async (persona, expected) => {
    const { event, at } = await seriesTarget("rsvp", kind);
    expectRest(
      expected,
      await restStatus(() =>
        rest(persona)
          .collection("rsvps")
          .create(rsvpBody(persona, event, at)),
      ),
    );
  };
/** Through GraphQL the gateway refuses such a date before PocketBase sees it (the hook would too). */
const gqlRegisterAt =
  (kind: "cancelled" | "none" | "excluded"): Check<Persona> =>
  async (persona, expected) => {
    const { event, at } = await seriesTarget("registration", kind);
    const result = await gql(persona).request(
      `mutation($i: RegistrationInput!) { register(input: $i) { confirmed } }`,
      {
        i: {
          eventId: event.id,
          originalStart: at.replace(" ", "T"),
          name: "Someone",
          email: `gql-${uniqueSlug("r")}@test.example`,
          attendees: 1,
        },
      },
    );
    if (expected === "allow") expect(result.errors).toBeUndefined();
    else expect(["NOT_FOUND", "BAD_USER_INPUT"]).toContain(errorCode(result));
  };
const gqlAnswerAt =
  (kind: "cancelled" | "none" | "excluded"): Check<Persona> =>
  async (persona, expected) => {
    const { event, at } = await seriesTarget("rsvp", kind);
    const result = await gql(persona).request(`mutation($i: RsvpInput!) { rsvp(input: $i) { token } }`, {
      i: {
        eventId: event.id,
        originalStart: at.replace(" ", "T"),
        response: "YES",
        name: "Someone",
        email: `gql-${uniqueSlug("r")}@test.example`,
      },
    });
    if (expected === "allow") expect(result.errors).toBeUndefined();
    else expect(["NOT_FOUND", "BAD_USER_INPUT"]).toContain(errorCode(result));
  };

type Table = typeof MATRIX;
const REST: { [C in keyof Table]: { [O in keyof Table[C]]?: Check<Persona> } } = {
  events: {
    async viewPublic(persona, expected) {
      const target = await createEvent();
      expectRest(expected, await restStatus(() => rest(persona).collection("events").getOne(target.id)));
    },
    async viewMembersOnly(persona, expected) {
      const target = await createEvent({ visibility: "members" });
      expectRest(expected, await restStatus(() => rest(persona).collection("events").getOne(target.id)));
    },
    async viewDraft(persona, expected) {
      const target = await createEvent({ status: "draft" });
      expectRest(expected, await restStatus(() => rest(persona).collection("events").getOne(target.id)));
    },
    async listDrafts(persona, expected) {
      const target = (await createEvent({ status: "draft", title: uniqueSlug("draft") })) as {
        id: string;
        title?: string;
      };
      const listed = await rest(persona)
        .collection("events")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async create(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("events")
            .create({
              ...eventInput("New"),
              slug: uniqueSlug("new"),
              startsAt: "2030-01-06 15:00:00Z",
              endsAt: "2030-01-06 16:00:00Z",
              visibility: "public",
              status: "draft",
              registrationMode: "none",
            }),
        ),
      );
    },
    async update(persona, expected) {
      const target = await createEvent();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("events").update(target.id, { title: "Changed" })),
      );
    },
    async delete(persona, expected) {
      const target = await createEvent();
      expectRest(expected, await restStatus(() => rest(persona).collection("events").delete(target.id)));
    },
  },
  event_exceptions: {
    async viewOfPublicEvent(persona, expected) {
      const event = await createEvent();
      const x = await su
        .collection("event_exceptions")
        .create({ event: event.id, originalStart: event.startsAt, status: "cancelled" });
      expectRest(expected, await restStatus(() => rest(persona).collection("event_exceptions").getOne(x.id)));
    },
    async viewOfMembersOnlyEvent(persona, expected) {
      const event = await createEvent({ visibility: "members" });
      const x = await su
        .collection("event_exceptions")
        .create({ event: event.id, originalStart: event.startsAt, status: "cancelled" });
      expectRest(expected, await restStatus(() => rest(persona).collection("event_exceptions").getOne(x.id)));
    },
    async viewOfDraft(persona, expected) {
      const event = await createEvent({ status: "draft" });
      const x = await su
        .collection("event_exceptions")
        .create({ event: event.id, originalStart: event.startsAt, status: "cancelled" });
      expectRest(expected, await restStatus(() => rest(persona).collection("event_exceptions").getOne(x.id)));
    },
    async create(persona, expected) {
      const event = await createEvent({ rrule: "FREQ=WEEKLY" });
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("event_exceptions")
            .create({ event: event.id, originalStart: event.startsAt, status: "cancelled" }),
        ),
      );
    },
  },
  event_categories: {
    async view(persona, expected) {
      const target = await su
        .collection("event_categories")
        .create({ name: "Worship", slug: uniqueSlug("cat") });
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("event_categories").getOne(target.id)),
      );
    },
    async create(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("event_categories")
            .create({ name: "New", slug: uniqueSlug("cat") }),
        ),
      );
    },
  },
  registrations: {
    async registerForPublicEvent(persona, expected) {
      const event = await registrationEvent();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("registrations").create(ownBody(persona, event))),
      );
    },
    async registerForMembersOnlyEvent(persona, expected) {
      const event = await registrationEvent({ visibility: "members" });
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("registrations").create(ownBody(persona, event))),
      );
    },
    async registerAsConfirmedDirectly(persona, expected) {
      const event = await registrationEvent();
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("registrations")
            .create(ownBody(persona, event, { status: "confirmed" })),
        ),
      );
    },
    async viewSomeoneElses(persona, expected) {
      const event = await registrationEvent();
      const target = await su.collection("registrations").create(registrationBody(event));
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("registrations").getOne(target.id)),
      );
    },
    async cancelSomeoneElses(persona, expected) {
      const event = await registrationEvent();
      const target = await su.collection("registrations").create(registrationBody(event));
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("registrations").update(target.id, { status: "cancelled" }),
        ),
      );
      // A wrong token opens nothing.
      const third = await su.collection("registrations").create(registrationBody(event));
      if (expected === "deny")
        expectRest(
          "deny",
          await restStatus(() =>
            rest(persona)
              .collection("registrations")
              .update(third.id, { status: "cancelled" }, { query: { token: secretToken() } }),
          ),
        );
    },
    registerForCancelledDate: restRegisterAt("cancelled"),
    registerAtNoOccurrence: restRegisterAt("none"),
    registerOnExcludedDate: restRegisterAt("excluded"),
    async cancelWithTokenAndRename(persona, expected) {
      const event = await registrationEvent();
      const token = secretToken();
      const target = await su
        .collection("registrations")
        .create(registrationBody(event, { cancelToken: token, phone: "555-0100" }));
      const other = await su.collection("registrations").create(registrationBody(event));
      // Each change rides along with a cancellation; the holder of the link may only cancel.
      for (const change of [{ name: "Renamed" }, { phone: "555-0199" }, { partOf: other.id }]) {
        expectRest(
          expected,
          await restStatus(() =>
            rest(persona)
              .collection("registrations")
              .update(target.id, { status: "cancelled", ...change }, { query: { token } }),
          ),
        );
        if (expected === "allow")
          await su.collection("registrations").update(target.id, { status: "confirmed" });
      }
      const after = await su.collection("registrations").getOne(target.id);
      if (expected === "deny")
        expect([after.name, after.phone, after.partOf]).toEqual(["Visitor", "555-0100", ""]);
    },
  },
  rsvps: {
    async answerPublicEvent(persona, expected) {
      const event = await createEvent({ registrationMode: "rsvp" });
      const body = {
        event: event.id,
        occurrenceStart: event.startsAt,
        user: users[persona]?.id ?? "",
        name: "Someone",
        response: "yes",
        guests: 0,
      };
      expectRest(expected, await restStatus(() => rest(persona).collection("rsvps").create(body)));
    },
    async viewSomeoneElses(persona, expected) {
      const event = await createEvent({ registrationMode: "rsvp" });
      const target = await su.collection("rsvps").create({
        event: event.id,
        occurrenceStart: event.startsAt,
        user: users.member!.id,
        name: "Other",
        response: "yes",
      });
      // The member is the owner here: check them on another member's answer.
      const owner = persona === "member" ? users.writer!.id : users.member!.id;
      await su.collection("rsvps").update(target.id, { user: owner });
      expectRest(expected, await restStatus(() => rest(persona).collection("rsvps").getOne(target.id)));
    },
    async changeSomeoneElses(persona, expected) {
      const event = await createEvent({ registrationMode: "rsvp" });
      const owner = persona === "member" ? users.writer!.id : users.member!.id;
      const target = await su.collection("rsvps").create({
        event: event.id,
        occurrenceStart: event.startsAt,
        user: owner,
        name: "Other",
        response: "yes",
      });
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("rsvps").update(target.id, { response: "no" })),
      );
    },
    answerCancelledDate: restAnswerAt("cancelled"),
    answerAtNoOccurrence: restAnswerAt("none"),
    answerOnExcludedDate: restAnswerAt("excluded"),
    async answerAsSomeoneElse(persona, expected) {
      const event = await createEvent({ registrationMode: "rsvp" });
      // The member's person, named by anyone else (the member names the writer's).
      const other = persona === "member" ? users.writer! : users.member!;
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("rsvps")
            .create(rsvpBody(persona, event, event.startsAt, { person: other.personId })),
        ),
      );
      // Nor may an answer already made be moved onto someone else's person.
      if (persona !== "anonymous") {
        const mine = await su.collection("rsvps").create(rsvpBody(persona, event, event.startsAt));
        expectRest(
          expected,
          await restStatus(() =>
            rest(persona).collection("rsvps").update(mine.id, { person: other.personId }),
          ),
        );
      }
    },
  },
  occurrence_counts: {
    async viewOfPublicEvent(persona, expected) {
      const event = await registrationEvent();
      await su.collection("registrations").create(registrationBody(event));
      const counts = await su
        .collection("occurrence_counts")
        .getFirstListItem(su.filter("event = {:e}", { e: event.id }));
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("occurrence_counts").getOne(counts.id)),
      );
    },
    async writeDirectly(persona, expected) {
      const event = await registrationEvent();
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("occurrence_counts")
            .create({ event: event.id, occurrenceStart: event.startsAt, confirmed: 0 }),
        ),
      );
    },
  },
};

const GRAPHQL: { [C in keyof Table]?: { [O in keyof Table[C]]?: Check<Persona> } } = {
  events: {
    async viewPublic(persona, expected) {
      const target = await createEvent();
      expect(await viewedViaGql(persona, target.slug)).toBe(expected === "allow");
    },
    async viewMembersOnly(persona, expected) {
      const target = await createEvent({ visibility: "members" });
      expect(await viewedViaGql(persona, target.slug)).toBe(expected === "allow");
    },
    async viewDraft(persona, expected) {
      const target = await createEvent({ status: "draft" });
      expect(await viewedViaGql(persona, target.slug)).toBe(expected === "allow");
    },
    async listDrafts(persona, expected) {
      const target = (await createEvent({ status: "draft", title: uniqueSlug("draft") })) as {
        id: string;
        title?: string;
      };
      const viaGql = await gql(persona).execute(AuthzEventSearchDocument, { q: target.title as string });
      expect((viaGql.data?.events ?? []).some((e) => e.id === target.id)).toBe(expected === "allow");
    },
    async create(persona, expected) {
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(`mutation($i: EventInput!) { createEvent(input: $i) { id } }`, {
          i: eventInput("Via GraphQL"),
        }),
        ["FORBIDDEN"],
      );
    },
    async update(persona, expected) {
      const other = await createEvent();
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!, $i: EventInput!) { updateEvent(id: $id, input: $i) { id } }`,
          { id: other.id, i: eventInput("Changed") },
        ),
      );
    },
    async delete(persona, expected) {
      const other = await createEvent();
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deleteEvent(id: $id) }`, { id: other.id }),
      );
    },
  },
  event_exceptions: {
    async create(persona, expected) {
      const other = await createEvent({ rrule: "FREQ=WEEKLY" });
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(
          `mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o) { id } }`,
          { e: other.id, o: other.startsAt.replace(" ", "T") },
        ),
        ["FORBIDDEN"],
      );
    },
  },
  event_categories: {
    async create(persona, expected) {
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(`mutation { createEventCategory(input: { name: "Via GraphQL" }) { id } }`),
        ["FORBIDDEN"],
      );
    },
  },
  registrations: {
    async registerForPublicEvent(persona, expected) {
      const event = await registrationEvent();
      const result = await gql(persona).request(
        `mutation($i: RegistrationInput!) { register(input: $i) { confirmed } }`,
        {
          i: {
            eventId: event.id,
            originalStart: event.startsAt.replace(" ", "T"),
            name: "Someone",
            email: `gql-${uniqueSlug("r")}@test.example`,
            attendees: 1,
          },
        },
      );
      if (expected === "allow") expect(result.errors).toBeUndefined();
    },
    async registerForMembersOnlyEvent(persona, expected) {
      const event = await registrationEvent({ visibility: "members" });
      const result = await gql(persona).request(
        `mutation($i: RegistrationInput!) { register(input: $i) { confirmed } }`,
        {
          i: {
            eventId: event.id,
            originalStart: event.startsAt.replace(" ", "T"),
            name: "Someone",
            email: `gql-${uniqueSlug("r")}@test.example`,
            attendees: 1,
          },
        },
      );
      if (expected === "allow") expect(result.errors).toBeUndefined();
      else expect(errorCode(result)).toBe("NOT_FOUND");
    },
    async cancelSomeoneElses(persona, expected) {
      const event = await registrationEvent();
      const other = await su.collection("registrations").create(registrationBody(event));
      expectGqlWrite(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { cancelRegistration(id: $id) { id } }`, {
          id: other.id,
        }),
        ["NOT_FOUND"],
      );
    },
    async attendeeList(persona, expected) {
      const event = await registrationEvent();
      await su.collection("registrations").create(registrationBody(event));
      const result = await gql(persona).execute(AuthzAttendeesDocument, {
        e: event.id,
        o: event.startsAt.replace(" ", "T"),
      });
      if (expected === "allow") expect(result.data?.attendees.registrations).toHaveLength(1);
      else expect(errorCode(result)).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN");
    },
    registerForCancelledDate: gqlRegisterAt("cancelled"),
    registerAtNoOccurrence: gqlRegisterAt("none"),
    registerOnExcludedDate: gqlRegisterAt("excluded"),
  },
  rsvps: {
    answerCancelledDate: gqlAnswerAt("cancelled"),
    answerAtNoOccurrence: gqlAnswerAt("none"),
    answerOnExcludedDate: gqlAnswerAt("excluded"),
  },
};

const NOT_YET = "not checked through GraphQL yet: a gap to close";
describeAuthorizationTable({
  personas: PERSONAS,
  table: MATRIX,
  rest: REST,
  graphql: GRAPHQL,
  gaps: {
    rest: {
      registrations: { attendeeList: "the gateway's staff query (registrations rows: viewSomeoneElses)" },
    },
    graphql: {
      event_exceptions: {
        viewOfPublicEvent: "exceptions are read as the event's occurrences, not as rows",
        viewOfMembersOnlyEvent: "exceptions are read as the event's occurrences, not as rows",
        viewOfDraft: "exceptions are read as the event's occurrences, not as rows",
      },
      event_categories: { view: NOT_YET },
      registrations: {
        registerAsConfirmedDirectly:
          "register decides the status itself (capacity, waitlist): no input sets it",
        viewSomeoneElses: "the gateway reads others' registrations only as the attendee list (attendeeList)",
        cancelWithTokenAndRename: "cancelRegistration sends the status only: no input renames the party",
      },
      rsvps: {
        answerPublicEvent: NOT_YET,
        viewSomeoneElses: NOT_YET,
        changeSomeoneElses: NOT_YET,
        answerAsSomeoneElse: "rsvp names the caller's own person: no input names another",
      },
      occurrence_counts: {
        viewOfPublicEvent: "counts are read as an occurrence's seats, not as rows",
        writeDirectly: "no GraphQL operation writes the counts: hooks keep them",
      },
    },
  },
});

describe("registration owners and mail tokens", () => {
  it("a registration's owner and its mail token may cancel it; nobody else", async () => {
    const event = await registrationEvent();
    const token = secretToken();
    const own = await rest("member")
      .collection("registrations")
      .create(registrationBody(event, { user: users.member!.id, cancelToken: token }));
    expect(await restStatus(() => rest("member").collection("registrations").getOne(own.id))).toBe(200);
    expect(
      await restStatus(() =>
        rest("anonymous").collection("registrations").getOne(own.id, { query: { token } }),
      ),
    ).toBe(200);
    // The owner may cancel, never confirm themselves past the waitlist or change the party.
    expect(
      await restStatus(() => rest("member").collection("registrations").update(own.id, { attendees: 5 })),
    ).not.toBe(200);
    expect(
      await restStatus(() =>
        rest("anonymous")
          .collection("registrations")
          .update(own.id, { status: "cancelled" }, { query: { token } }),
      ),
    ).toBe(200);
  });
});
