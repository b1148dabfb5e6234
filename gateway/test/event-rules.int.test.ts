/**
 * Each event rule has one home: the events hook (pb_hooks/events.pb.js, lib/events.js) decides the
 * sign-up window and the seats left inside the write, whatever the path (REST or the gateway), and
 * the gateway reads its result (the refusal's code, occurrence_counts.seatsLeft, the window route).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientResponseError } from "pocketbase";
import type { Gateway } from "../src/index.ts";
import {
  countPocketBaseCalls,
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import { countsOf, createEvent, pbDate, registrationBody, secretToken } from "./event-support.ts";

let gateway: Gateway;
let member: TestUser;
let editor: TestUser;
let n = 0;
const ip = () => `203.0.113.${(n++ % 250) + 1}`;
const asMember = () => new GqlClient(gateway, { token: member.token, ip: ip() });
const asEditor = () => new GqlClient(gateway, { token: editor.token, ip: ip() });
const asVisitor = () => new GqlClient(gateway, { ip: ip() });

beforeAll(async () => {
  gateway = await testGateway();
  member = await createUser();
  editor = await createUser({ roles: ["Editor"] });
});
afterAll(() => gateway.close());

/** The hook's refusal of a REST write: its field and code ("validation_registration_closed"). */
async function refusalOf(run: () => Promise<unknown>): Promise<Record<string, string>> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof ClientResponseError)) throw error;
    expect(error.status).toBe(400);
    const data = (error.response?.data ?? {}) as Record<string, { code: string }>;
    return Object.fromEntries(Object.entries(data).map(([field, d]) => [field, d.code]));
  }
  throw new Error("the write went through");
}

const OCCURRENCE = `query($slug: String!) { occurrence(slug: $slug) { originalStart registrationOpen seatsLeft } }`;
type OccurrenceAnswer = {
  occurrence: { originalStart: string; registrationOpen: boolean; seatsLeft: number | null };
};
const RSVP = `mutation($input: RsvpInput!) { rsvp(input: $input) { token } }`;
const REGISTER = `mutation($input: RegistrationInput!) { register(input: $input) { confirmed } }`;

describe("the sign-up window is decided by the events hook", () => {
  it("a REST write outside the window is refused with the code the gateway shows, and the page reads it", async () => {
    const closed = await createEvent({
      registrationMode: "rsvp",
      registrationClosesAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const rsvp = {
      event: closed.id,
      occurrenceStart: closed.startsAt,
      user: member.id,
      name: "Member",
      response: "yes",
      guests: 0,
    };
    expect(await refusalOf(() => pbAs(member).collection("rsvps").create(rsvp))).toEqual({
      event: "validation_registration_closed",
    });
    const viaGateway = await asMember().request(RSVP, {
      input: { eventId: closed.id, originalStart: new Date(closed.startsAt).toISOString(), response: "YES" },
    });
    expect(errorCode(viaGateway)).toBe("BAD_USER_INPUT");
    expect(viaGateway.errors![0]!.extensions).toMatchObject({
      fieldErrorCodes: { originalStart: "registration_closed" },
      fieldErrors: { originalStart: "RSVPs are closed for this date." },
    });
    const page = await asVisitor().request<OccurrenceAnswer>(OCCURRENCE, { slug: closed.slug });
    expect(page.data!.occurrence.registrationOpen).toBe(false);

    const open = await createEvent({ registrationMode: "rsvp" });
    expect(
      (await asVisitor().request<OccurrenceAnswer>(OCCURRENCE, { slug: open.slug })).data!.occurrence
        .registrationOpen,
    ).toBe(true);
    // The kind of sign-up is the hook's to check too: staff pass the create rule, not the hook.
    expect(
      await refusalOf(() =>
        pbAs(editor)
          .collection("registrations")
          .create(registrationBody(open, { user: editor.id })),
      ),
    ).toEqual({ event: "validation_registration_not_open" });
    const mode = await createEvent({ registrationMode: "registration", capacity: 5 });
    expect(
      await refusalOf(() =>
        pbAs(editor)
          .collection("rsvps")
          .create({ ...rsvp, event: mode.id, occurrenceStart: mode.startsAt, user: editor.id }),
      ),
    ).toEqual({ event: "validation_rsvp_not_open" });
  });

  it("a cancelled date takes no registration, through REST or the gateway", async () => {
    const event = await createEvent({ registrationMode: "registration", capacity: 5 });
    const su = await system();
    await su
      .collection("event_exceptions")
      .create({ event: event.id, originalStart: event.startsAt, status: "cancelled", note: "" });
    expect(
      await refusalOf(() =>
        pbAs(null)
          .collection("registrations")
          .create(registrationBody(event), { query: { token: secretToken() } }),
      ),
    ).toEqual({ occurrenceStart: "validation_registration_closed" });
    const viaGateway = await asVisitor().request(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: new Date(event.startsAt).toISOString(),
        name: "Visitor",
        email: "visitor@test.example",
        attendees: 1,
      },
    });
    expect(viaGateway.errors![0]!.extensions!.fieldErrorCodes).toEqual({
      originalStart: "registration_closed",
    });
  });

  it("an answer changed after the date began is refused; the system may still write one", async () => {
    const event = await createEvent({ registrationMode: "rsvp" });
    const su = await system();
    const past = await su.collection("rsvps").create({
      event: event.id,
      occurrenceStart: pbDate("2020-01-02T15:00:00Z"),
      user: member.id,
      name: "Member",
      response: "yes",
      guests: 0,
    });
    expect(
      await refusalOf(() => pbAs(member).collection("rsvps").update(past.id, { response: "no" })),
    ).toEqual({ occurrenceStart: "validation_registration_closed" });
    expect((await su.collection("rsvps").update(past.id, { response: "maybe" })).response).toBe("maybe");
  });

  it("answers only for events the caller may view, many occurrences in one call", async () => {
    const hidden = await createEvent({ registrationMode: "rsvp", visibility: "members" });
    const open = await createEvent({ registrationMode: "registration", capacity: 2 });
    const path = "/api/flock/events/sign-up-windows";
    const occurrences = [
      { event: hidden.id, occurrence: hidden.startsAt },
      { event: hidden.id, occurrence: hidden.startsAt, kind: "registration" },
      { event: open.id, occurrence: open.startsAt },
    ];
    expect(await pbAs(member).send(path, { method: "POST", body: { occurrences } })).toEqual([
      { open: true, code: null },
      { open: false, code: "registration_not_open" },
      { open: true, code: null },
    ]);
    expect(await pbAs(null).send(path, { method: "POST", body: { occurrences } })).toEqual([
      null,
      null,
      { open: true, code: null },
    ]);
  });

  it("is read once per request for a whole list (no N+1)", async () => {
    const event = await createEvent({
      registrationMode: "rsvp",
      rrule: "FREQ=WEEKLY;COUNT=6",
      timezone: "UTC",
    });
    const from = new Date(event.startsAt).toISOString();
    const to = new Date(Date.parse(event.startsAt) + 40 * 86_400_000).toISOString();
    const list = (fields: string) =>
      `query($from: DateTime!, $to: DateTime!) { occurrences(from: $from, to: $to) { event { id } ${fields} } }`;
    const read = (fields: string) =>
      countPocketBaseCalls(() =>
        asVisitor().request<{ occurrences: { event: { id: string }; registrationOpen?: boolean }[] }>(
          list(fields),
          { from, to },
        ),
      );
    const without = await read("");
    const { result, calls } = await read("registrationOpen");
    const mine = result.data!.occurrences.filter((o) => o.event.id === event.id);
    expect(mine.map((o) => o.registrationOpen)).toEqual([true, true, true, true, true, true]);
    // One call answers up to 100 occurrences' windows (other tests' events share this PocketBase, so
    // the list may be longer than this event's six dates): never one call per occurrence.
    const listed = result.data!.occurrences.length;
    expect(calls).toBe(without.calls + Math.ceil(listed / 100));
  });
});

describe("seats left are counted by the events hook", () => {
  it("occurrence_counts carries them, the gateway reads them, and a new capacity recounts every date", async () => {
    const event = await createEvent({ registrationMode: "registration", capacity: 3 });
    const su = await system();
    const seats = async () =>
      (await asVisitor().request<OccurrenceAnswer>(OCCURRENCE, { slug: event.slug })).data!.occurrence
        .seatsLeft;
    expect(await seats()).toBe(3); // nobody yet: no counts row, every seat
    await su.collection("registrations").create(registrationBody(event, { attendees: 2 }));
    expect((await countsOf(su, event.id)).seatsLeft).toBe(1);
    expect(await seats()).toBe(1);
    await su.collection("events").update(event.id, { capacity: 1 });
    expect((await countsOf(su, event.id)).seatsLeft).toBe(0);
    expect(await seats()).toBe(0);
    const update = await asEditor().request(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { capacity } }`,
      {
        id: event.id,
        input: {
          title: "Target event",
          timezone: "UTC", // the same instants, written as UTC wall-clock times
          startsAt: new Date(event.startsAt).toISOString().slice(0, 16),
          endsAt: new Date(event.endsAt).toISOString().slice(0, 16),
          capacity: 10,
        },
      },
    );
    expect(update.errors).toBeUndefined();
    expect((await countsOf(su, event.id)).seatsLeft).toBe(8);
  });
});
