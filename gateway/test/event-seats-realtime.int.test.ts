/**
 * Live seats left (issue 14): the occurrence page subscribes to `occurrenceSeats` over SSE; when
 * someone registers or cancels, every subscriber of that occurrence receives the new counts, and the
 * subscribers of another date of the same series receive nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import { SseSubscription } from "./sse.ts";
import type { Gateway } from "../src/index.ts";
import { createUser, GqlClient, pbAs, testGateway, uniqueEmail, type TestUser } from "./helpers.ts";
import { createEvent, registrationBody, uniqueSlug } from "./event-support.ts";

type Seats = {
  data?: {
    occurrenceSeats: {
      originalStart: string;
      seatsLeft: number | null;
      confirmedCount: number;
      waitlistCount: number;
    };
  };
};

const SEATS = `subscription($e: ID!, $o: DateTime!) { occurrenceSeats(eventId: $e, originalStart: $o) { originalStart seatsLeft confirmedCount waitlistCount } }`;
const REGISTER = `mutation($input: RegistrationInput!) { register(input: $input) { parts { id status } } }`;

let gateway: Gateway;
let url: string;
let editor: TestUser;
let member: TestUser;
const clients: GraphQLSseClient<Seats>[] = [];
const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  gateway = await testGateway();
  url = await gateway.listen();
  editor = await createUser({ roles: ["Editor"] });
  member = await createUser();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await gateway.close();
});

const seatsOf = (client: GraphQLSseClient<Seats>) =>
  client.events.map((e) => e.data.data?.occurrenceSeats.seatsLeft);

describe("occurrenceSeats over SSE", () => {
  it("subscribers of an occurrence get the new seat count when someone registers or cancels; other dates hear nothing", async () => {
    const staff = new GqlClient(gateway, { token: editor.token, ip: "198.51.100.201" });
    const created = await staff.request<{ createEvent: { id: string } }>(
      `mutation($input: EventInput!) { createEvent(input: $input) { id } }`,
      {
        input: {
          title: "Live seats",
          slug: uniqueSlug("live"),
          timezone: "America/New_York",
          startsAt: `${nextYear}-02-01T18:00`,
          endsAt: `${nextYear}-02-01T20:00`,
          rrule: "FREQ=WEEKLY;COUNT=3",
          registrationMode: "REGISTRATION",
          capacity: 4,
          waitlistEnabled: true,
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const eventId = created.data!.createEvent.id;
    expect(
      (await staff.request(`mutation($id: ID!) { publishEvent(id: $id) { id } }`, { id: eventId })).errors,
    ).toBeUndefined();
    const dates = await staff.request<{ eventById: { nextOccurrences: { originalStart: string }[] } }>(
      `query($id: ID!) { eventById(id: $id) { nextOccurrences(first: 3) { originalStart } } }`,
      { id: eventId },
    );
    const [first, second] = dates.data!.eventById.nextOccurrences.map((o) => o.originalStart);

    // Two browsers on the first date (a visitor and a member), one on the second.
    const visitorTab = new GraphQLSseClient<Seats>({
      url,
      query: SEATS,
      variables: { e: eventId, o: first },
    });
    const memberTab = new GraphQLSseClient<Seats>({
      url,
      query: SEATS,
      variables: { e: eventId, o: first },
      token: member.token,
    });
    const otherDate = new GraphQLSseClient<Seats>({
      url,
      query: SEATS,
      variables: { e: eventId, o: second },
    });
    clients.push(visitorTab, memberTab, otherDate);
    await Promise.all(clients.map((c) => c.open()));
    // The bridge has confirmed the topic with PocketBase once each subscriber is counted.
    await expect
      .poll(() => gateway.services.realtime.stats().subscribers, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);

    const visitor = new GqlClient(gateway, { ip: "198.51.100.202" });
    const registered = await visitor.request<{ register: { parts: { id: string; status: string }[] } }>(
      REGISTER,
      {
        input: {
          eventId,
          originalStart: first,
          name: "Live visitor",
          email: uniqueEmail("live"),
          attendees: 3,
        },
      },
    );
    expect(registered.errors).toBeUndefined();
    await visitorTab.waitFor(() => seatsOf(visitorTab).includes(1), 10_000, "seats left 1 (visitor)");
    await memberTab.waitFor(() => seatsOf(memberTab).includes(1), 10_000, "seats left 1 (member)");
    expect(visitorTab.events.at(-1)!.data.data!.occurrenceSeats).toMatchObject({
      originalStart: first,
      seatsLeft: 1,
      confirmedCount: 3,
      waitlistCount: 0,
    });

    // A party of 2 for the last seat: 1 confirmed, 1 waitlisted.
    const party = await visitor.request(REGISTER, {
      input: { eventId, originalStart: first, name: "Party", email: uniqueEmail("live-party"), attendees: 2 },
    });
    expect(party.errors).toBeUndefined();
    await visitorTab.waitFor(
      () =>
        visitorTab.events.some(
          (e) =>
            e.data.data?.occurrenceSeats.seatsLeft === 0 && e.data.data.occurrenceSeats.waitlistCount === 1,
        ),
      10_000,
      "seats left 0, 1 waiting",
    );

    // The first visitor cancels: the waitlisted person takes a seat, two seats are free again.
    const [part] = registered.data!.register.parts;
    expect(
      (await staff.request(`mutation($id: ID!) { cancelRegistration(id: $id) { status } }`, { id: part!.id }))
        .errors,
    ).toBeUndefined();
    await memberTab.waitFor(
      () =>
        memberTab.events.some(
          (e) =>
            e.data.data?.occurrenceSeats.seatsLeft === 2 && e.data.data.occurrenceSeats.waitlistCount === 0,
        ),
      10_000,
      "seats left 2 after the cancellation",
    );
    await visitorTab.waitFor(() => seatsOf(visitorTab).includes(2), 10_000, "seats left 2 (visitor)");

    // A registration for the second date reaches its subscriber, and only now does it hear anything.
    expect(otherDate.events).toHaveLength(0);
    const later = await visitor.request(REGISTER, {
      input: {
        eventId,
        originalStart: second,
        name: "Later",
        email: uniqueEmail("live-later"),
        attendees: 1,
      },
    });
    expect(later.errors).toBeUndefined();
    await otherDate.waitFor(() => seatsOf(otherDate).includes(3), 10_000, "seats left 3 on the second date");
    expect(otherDate.events.every((e) => e.data.data?.occurrenceSeats.originalStart === second)).toBe(true);
  });

  it("a cancellation that promotes the waitlist ends on the promoted count, whatever order PocketBase's two changes arrive in", async () => {
    // The cancellation recounts (seats left 2), then the promotion it causes recounts again (1), in one
    // write; PocketBase sends each change from its own goroutine. Five rounds, each on a new event.
    const guest = pbAs(null);
    for (let round = 0; round < 5; round++) {
      const event = await createEvent({
        title: `Reorder ${round}`,
        registrationMode: "registration",
        capacity: 2,
        waitlistEnabled: true,
      });
      const tab = new GraphQLSseClient<Seats>({
        url,
        query: SEATS,
        variables: { e: event.id, o: event.startsAt },
      });
      clients.push(tab);
      await tab.open();
      const party = registrationBody(event, { attendees: 3, name: `Party ${round}` });
      await guest.collection("registrations").create(party);
      await guest.collection("registrations").create(registrationBody(event, { name: `Waiting ${round}` }));
      await tab.waitFor(() => seatsOf(tab).includes(0), 10_000, `full (round ${round})`);
      const cancelled = await new GqlClient(gateway, { ip: `198.51.100.${210 + round}` }).request<{
        cancelRegistration: { status: string };
      }>(`mutation($t: String) { cancelRegistration(token: $t) { status } }`, { t: party.cancelToken });
      expect(cancelled.errors).toBeUndefined();
      await tab.waitFor(() => seatsOf(tab).includes(1), 10_000, `seats left 1 (round ${round})`);
      // Whatever was still on its way has arrived by now; the tab must not end on the older count.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seatsOf(tab).at(-1), `round ${round}: ${JSON.stringify(seatsOf(tab))}`).toBe(1);
      tab.close();
    }
  });

  it("refuses a subscription to a date the event does not have, with a field error", async () => {
    const stream = await SseSubscription.open(gateway, {
      query: SEATS,
      variables: { e: "nosuchevent0000", o: `${nextYear}-02-01T23:00:00Z` },
      clientIp: "198.51.100.203",
    });
    try {
      const refused = await stream.next((result) => !!result.errors, "the refusal");
      expect(JSON.stringify(refused.errors)).toMatch(/NOT_FOUND/);
    } finally {
      await stream.close();
    }
  });
});
