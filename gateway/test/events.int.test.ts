/**
 * Events through GraphQL (issue 14): validation with field errors, occurrences with exceptions and
 * "this and following", registration (party split, waitlist, the mail link that cancels signed out and
 * promotes the next person, who is mailed), RSVPs, and the iCalendar feeds read back by an
 * independent parser (ical.js) that must expand to the same occurrences the gateway returns.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import ICAL from "ical.js";
import type { Gateway } from "../src/index.ts";
import { waitForMail, linkFrom } from "../../scripts/lib/smtp-catcher.ts";
import { createUser, errorCode, GqlClient, system, testGateway, uniqueEmail, type TestUser } from "./helpers.ts";
import {
  EventsCancelByTokenDocument, EventsCreateDocument, EventsGoingDocument, EventsMyUpcomingDocument, EventsOccurrencesDocument, EventsRecurrencePreviewDocument,
  EventsRegisterDocument, EventsRegistrationByTokenDocument, EventsResetCalendarTokenDocument, EventsRsvpDocument, EventsSplitDocument, type EventInput,
  type EventsOccurrencesQuery,
} from "./__generated__/operations.ts";
import { uniqueSlug } from "./event-support.ts";

let gateway: Gateway;
let editor: TestUser;
let member: TestUser;
let n = 0;
const ip = () => `198.51.100.${(n++ % 250) + 1}`;
const staff = () => new GqlClient(gateway, { token: editor.token, ip: ip() });
const visitor = () => new GqlClient(gateway, { ip: ip() });
let listening: Promise<string> | null = null;
/** The gateway on a real port (listened once per file: a second listen() throws). */
const baseUrl = () => (listening ??= gateway.listen());

beforeAll(async () => {
  gateway = await testGateway();
  editor = await createUser({ roles: ["Editor"] });
  member = await createUser();
});
afterAll(() => gateway.server.close());

// The operations are in ./operations/events.graphql (typed by npm run codegen).
const CREATE = EventsCreateDocument;
const nextYear = new Date().getUTCFullYear() + 1;

async function publishedEvent(input: Partial<EventInput>) {
  const created = await staff().execute(CREATE, {
    input: { title: "Event", timezone: "America/New_York", startsAt: `${nextYear}-01-04T10:00`, endsAt: `${nextYear}-01-04T11:00`, visibility: "PUBLIC", slug: uniqueSlug("ev"), ...input },
  });
  expect(created.errors).toBeUndefined();
  const published = await staff().request(`mutation($id: ID!) { publishEvent(id: $id) { id } }`, { id: created.data!.createEvent.id });
  expect(published.errors).toBeUndefined();
  return created.data!.createEvent;
}

const OCCURRENCES = EventsOccurrencesDocument;
type Occ = EventsOccurrencesQuery["occurrences"][number];
async function occurrencesOf(eventId: string, from: string, to: string, client = visitor()): Promise<Occ[]> {
  const result = await client.execute(OCCURRENCES, { from, to });
  expect(result.errors).toBeUndefined();
  return result.data!.occurrences.filter((o) => o.event.id === eventId);
}

describe("creating events: bad input comes back as field errors", () => {
  it("refuses an end before the start, an unknown zone and a rule that yields nothing", async () => {
    const base = { title: "Bad", startsAt: `${nextYear}-03-01T10:00`, endsAt: `${nextYear}-03-01T11:00`, timezone: "America/New_York" };
    const fields = async (input: Record<string, unknown>) => {
      const result = await staff().request(CREATE, { input: { ...base, ...input } });
      expect(errorCode(result)).toBe("BAD_USER_INPUT");
      const codes = result.errors![0]!.extensions!.fieldErrorCodes as Record<string, string>;
      return Object.fromEntries(Object.entries(codes).map(([k, code]) => [k, { code }]));
    };
    expect((await fields({ endsAt: `${nextYear}-03-01T09:00` })).endsAt!.code).toBe("before_start");
    expect((await fields({ timezone: "Mars/Olympus_Mons" })).timezone!.code).toBe("invalid_timezone");
    expect((await fields({ rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" })).rrule!.code).toBe("rule_yields_nothing");
    expect((await fields({ rrule: "FREQ=SECONDLY" })).rrule!.code).toBe("rule_unsupported");
  });

  it("describes the rule in words and stores its normalised form", async () => {
    const result = await staff().execute(CREATE, {
      input: { title: "Potluck", startsAt: `${nextYear}-01-11T12:30`, endsAt: `${nextYear}-01-11T14:00`, timezone: "America/Chicago", rrule: "freq=monthly;byday=2su;until=20271231T235959Z" },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.createEvent).toMatchObject({ status: "DRAFT", rrule: "FREQ=MONTHLY;UNTIL=20271231T235959Z;BYDAY=2SU" });
    expect(result.data!.createEvent.recurrenceText).toBe("Every 2nd Sunday at 12:30, until 31 Dec 2027");
    const preview = await visitor().execute(
      EventsRecurrencePreviewDocument,
      { i: { startsAt: "2026-01-11T10:00", timezone: "Europe/London", rrule: "FREQ=MONTHLY;BYDAY=-1FR", count: 3, locale: "es" } },
    );
    expect(preview.data!.recurrencePreview.text).toBe("Cada último viernes del mes a las 10:00");
    expect(preview.data!.recurrencePreview.dates).toEqual(["2026-01-30T10:00:00.000Z", "2026-02-27T10:00:00.000Z", "2026-03-27T10:00:00.000Z"]);
  });
});

describe("occurrences, exceptions and splitting", () => {
  it("a weekly service stays at 10:00 New York time, cancels and moves single dates, and splits", async () => {
    const event = await publishedEvent({ title: "Sunday worship", rrule: "FREQ=WEEKLY;BYDAY=SU" });
    const march = await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`);
    expect(march.length).toBeGreaterThanOrEqual(4);
    for (const o of march) {
      const local = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(o.start));
      expect(local).toBe("10:00");
    }
    const [first, second, third] = march;
    const cancel = await staff().request(`mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o, note: "Snow") { id } }`, { e: event.id, o: first!.originalStart });
    expect(cancel.errors).toBeUndefined();
    const moved = await staff().request(`mutation($e: ID!, $o: DateTime!, $s: String!, $t: String!) { moveOccurrence(eventId: $e, originalStart: $o, startsAt: $s, endsAt: $t) { id } }`, {
      e: event.id, o: second!.originalStart, s: `${second!.date}T16:00`, t: `${second!.date}T17:00`,
    });
    expect(moved.errors).toBeUndefined();
    const after = await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`);
    expect(after[0]).toMatchObject({ originalStart: first!.originalStart, status: "CANCELLED" });
    expect(after[1]).toMatchObject({ originalStart: second!.originalStart, status: "MOVED" });
    expect(new Date(after[1]!.start).getTime() - new Date(second!.originalStart).getTime()).toBe(6 * 3600_000);
    // Editing the series keeps its exceptions.
    const edited = await staff().request(`mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id } }`, {
      id: event.id,
      input: { title: "Sunday worship (renamed)", timezone: "America/New_York", startsAt: `${nextYear}-01-04T10:00`, endsAt: `${nextYear}-01-04T11:00`, rrule: "FREQ=WEEKLY;BYDAY=SU" },
    });
    expect(edited.errors).toBeUndefined();
    expect((await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`)).slice(0, 2).map((o) => o.status)).toEqual(["CANCELLED", "MOVED"]);

    // This and following: from the third March Sunday on, the service is at 11:00.
    const split = await staff().execute(EventsSplitDocument, {
      id: event.id,
      o: third!.originalStart,
      input: { title: "Sunday worship", timezone: "America/New_York", startsAt: `${third!.date}T11:00`, endsAt: `${third!.date}T12:00`, rrule: "FREQ=WEEKLY;BYDAY=SU" },
    });
    expect(split.errors).toBeUndefined();
    const oldSeries = await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-06-01T00:00:00Z`);
    expect(oldSeries).toHaveLength(2);
    const newSeries = await occurrencesOf(split.data!.splitEvent.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`);
    expect(newSeries[0]!.date).toBe(third!.date);
    expect(newSeries.length).toBe(march.length - 2);
  });

  it("refuses ranges over 18 months", async () => {
    const result = await visitor().request(OCCURRENCES, { from: "2026-01-01T00:00:00Z", to: "2028-01-01T00:00:00Z" });
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
  });
});

const REGISTER = EventsRegisterDocument;

describe("registration", () => {
  it("splits a party of 3 for 2 seats, mails a cancellation link that works signed out and promotes the waitlist", async () => {
    const event = await publishedEvent({ title: "Marriage retreat", registrationMode: "REGISTRATION", capacity: 3, waitlistEnabled: true });
    const [occurrence] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    expect(occurrence!.seatsLeft).toBe(3);
    const first = uniqueEmail("first");
    const one = await visitor().execute(REGISTER, { input: { eventId: event.id, originalStart: occurrence!.originalStart, name: "First", email: first, attendees: 1 } });
    expect(one.errors).toBeUndefined();
    expect(one.data!.register).toMatchObject({ confirmed: 1, waitlisted: 0 });

    const party = uniqueEmail("party");
    const three = await visitor().execute(REGISTER, { input: { eventId: event.id, originalStart: occurrence!.originalStart, name: "Party", email: party, attendees: 3 } });
    expect(three.errors).toBeUndefined();
    expect(three.data!.register).toMatchObject({ confirmed: 2, waitlisted: 1 });
    expect(three.data!.register.parts.map((p) => [p.status, p.attendees])).toEqual([["CONFIRMED", 2], ["WAITLISTED", 1]]);
    const partyMail = await waitForMail(inject("catcherUrl"), party, /Registered: Marriage retreat/);
    expect(partyMail.text).toContain(three.data!.register.confirmationCode);
    expect(partyMail.text).toContain("On the waitlist: 1 place");

    const [after] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    expect(after!.seatsLeft).toBe(0);

    // The first visitor cancels from their mail, signed out: the party's waitlisted person gets the seat and a mail.
    const mail = await waitForMail(inject("catcherUrl"), first, /Registered: Marriage retreat/);
    const token = decodeURIComponent(linkFrom(mail, "/events/registration/").split("/events/registration/")[1]!);
    const byLink = await visitor().execute(EventsRegistrationByTokenDocument, { t: token });
    expect(byLink.data!.registrationByToken!.status).toBe("CONFIRMED");
    const cancelled = await visitor().execute(EventsCancelByTokenDocument, { t: token });
    expect(cancelled.errors).toBeUndefined();
    expect(cancelled.data!.cancelRegistration.status).toBe("CANCELLED");
    const promoted = await waitForMail(inject("catcherUrl"), party, /A seat is yours: Marriage retreat/);
    expect(promoted.text).toContain("now confirmed");
    const su = await system();
    const rows = await su.collection("registrations").getFullList({ filter: su.filter("event = {:e}", { e: event.id }) });
    expect(rows.filter((r) => r.status === "confirmed").reduce((s, r) => s + r.attendees, 0)).toBe(3);
  });

  it("refuses a party of 0 or 11, a duplicate, and registration outside the window, with field errors", async () => {
    const event = await publishedEvent({ title: "Workshop", registrationMode: "REGISTRATION", capacity: 20 });
    const [occurrence] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    const input = { eventId: event.id, originalStart: occurrence!.originalStart, name: "Visitor", email: uniqueEmail("dup"), attendees: 2 };
    const field = (result: { errors?: Array<{ extensions?: Record<string, unknown> }> }) =>
      Object.entries(result.errors![0]!.extensions!.fieldErrorCodes as Record<string, string>).map(([k, code]) => [k, { code }])[0];
    expect(field(await visitor().request(REGISTER, { input: { ...input, attendees: 0 } }))).toEqual(["attendees", expect.objectContaining({ code: "out_of_range" })]);
    expect(field(await visitor().request(REGISTER, { input: { ...input, attendees: 11 } }))).toEqual(["attendees", expect.objectContaining({ code: "out_of_range" })]);
    expect((await visitor().request(REGISTER, { input })).errors).toBeUndefined();
    expect(field(await visitor().request(REGISTER, { input: { ...input, email: input.email.toUpperCase() } }))).toEqual(["email", expect.objectContaining({ code: "duplicate_registration" })]);
    const closed = await publishedEvent({ title: "Closed", registrationMode: "REGISTRATION", capacity: 5, registrationClosesAt: new Date(Date.now() - 60_000).toISOString() });
    const [closedOccurrence] = await occurrencesOf(closed.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    expect(field(await visitor().request(REGISTER, { input: { ...input, eventId: closed.id, originalStart: closedOccurrence!.originalStart } }))).toEqual([
      "originalStart",
      expect.objectContaining({ code: "registration_closed" }),
    ]);
  });
});

describe("RSVP", () => {
  it("members and visitors answer, change and withdraw; counts follow", async () => {
    const event = await publishedEvent({ title: "Picnic", registrationMode: "RSVP" });
    const [occurrence] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    const RSVP = EventsRsvpDocument;
    const asMember = new GqlClient(gateway, { token: member.token, ip: ip() });
    const yes = await asMember.execute(RSVP, { input: { eventId: event.id, originalStart: occurrence!.originalStart, response: "YES", guests: 2 } });
    expect(yes.errors).toBeUndefined();
    expect(yes.data!.rsvp.token).toBeNull();
    const changed = await asMember.execute(RSVP, { input: { eventId: event.id, originalStart: occurrence!.originalStart, response: "MAYBE" } });
    expect(changed.data!.rsvp.rsvp).toMatchObject({ id: yes.data!.rsvp.rsvp.id, response: "MAYBE" });

    const guest = visitor();
    const visitorYes = await guest.execute(RSVP, {
      input: { eventId: event.id, originalStart: occurrence!.originalStart, response: "YES", guests: 1, name: "Guest", email: uniqueEmail("rsvp") },
    });
    expect(visitorYes.errors).toBeUndefined();
    const token = visitorYes.data!.rsvp.token;
    const GOING = EventsGoingDocument;
    expect((await visitor().execute(GOING, { slug: event.slug, date: occurrence!.date })).data!.occurrence!.goingCount).toBe(2);
    const withdrawn = await visitor().request(`mutation($id: ID!, $t: String) { withdrawRsvp(id: $id, token: $t) }`, { id: visitorYes.data!.rsvp.rsvp.id, t: token });
    expect(withdrawn.errors).toBeUndefined();
    expect((await visitor().execute(GOING, { slug: event.slug, date: occurrence!.date })).data!.occurrence!.goingCount).toBe(0);
    // Without the token, a visitor cannot withdraw someone's answer.
    const stranger = await visitor().request(`mutation($id: ID!) { withdrawRsvp(id: $id) }`, { id: yes.data!.rsvp.rsvp.id });
    expect(errorCode(stranger)).toBe("UNAUTHENTICATED");
  });
});

describe("iCalendar feeds", () => {
  it("/feeds/events.ics parses with ical.js and expands to the gateway's occurrences for the next 12 months", async () => {
    const weekly = await publishedEvent({ title: "Feed worship; with, commas", rrule: "FREQ=WEEKLY;BYDAY=SU", locationName: "Main hall", locationAddress: "1 Church St, Springfield" });
    const monthly = await publishedEvent({ title: "Feed potluck", timezone: "Europe/London", startsAt: `${nextYear}-01-11T12:30`, endsAt: `${nextYear}-01-11T14:00`, rrule: "FREQ=MONTHLY;BYDAY=2SU" });
    const from = `${nextYear}-01-01T00:00:00Z`;
    const to = `${nextYear}-12-31T00:00:00Z`;
    const [first] = await occurrencesOf(weekly.id, from, to);
    await staff().request(`mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o) { id } }`, { e: weekly.id, o: first!.originalStart });
    const base = await baseUrl();
    const response = await fetch(`${base}/feeds/events.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/calendar/);
    const text = await response.text();
    expect(text.endsWith("\r\n")).toBe(true);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:America/New_York");
    expect(text).toContain("TZID:Europe/London");

    const root = new ICAL.Component(ICAL.parse(text));
    const vevents = root.getAllSubcomponents("vevent");
    for (const v of vevents) {
      expect(v.getFirstPropertyValue("uid")).toBeTruthy();
      expect(v.getFirstPropertyValue("dtstamp")).toBeTruthy();
    }
    for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
    for (const event of [weekly, monthly]) {
      const master = vevents.find((v) => String(v.getFirstPropertyValue("uid")).startsWith(`event-${event.id}@`) && !v.hasProperty("recurrence-id"))!;
      const icalEvent = new ICAL.Event(master);
      const iterator = icalEvent.iterator();
      const expanded: string[] = [];
      const end = new Date(to).getTime();
      for (let next = iterator.next(); next && next.toJSDate().getTime() < end; next = iterator.next()) {
        if (next.toJSDate().getTime() >= new Date(from).getTime()) expanded.push(next.toJSDate().toISOString());
      }
      const ours = (await occurrencesOf(event.id, from, to)).filter((o) => o.status !== "CANCELLED").map((o) => o.start);
      expect(expanded).toEqual(ours);
      expect(ours.length).toBeGreaterThan(10);
    }
    expect(text).toContain("SUMMARY:Feed worship\\; with\\, commas");
  });
});

describe("personal calendar feed", () => {
  it("lists the member's registrations at a secret address that a reset replaces", async () => {
    const event = await publishedEvent({ title: "Men's breakfast", registrationMode: "REGISTRATION", capacity: 10 });
    const [occurrence] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    const asMember = new GqlClient(gateway, { token: member.token, ip: ip() });
    const registered = await asMember.request(REGISTER, { input: { eventId: event.id, originalStart: occurrence!.originalStart, name: "Member", email: member.email, attendees: 1 } });
    expect(registered.errors).toBeUndefined();
    const reset = await asMember.execute(EventsResetCalendarTokenDocument);
    const url = new URL(reset.data!.resetCalendarToken);
    const base = await baseUrl();
    const feed = await fetch(`${base}${url.pathname}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("cache-control")).toContain("no-store");
    const text = await feed.text();
    expect(text).toContain("SUMMARY:Men's breakfast");
    const again = await asMember.execute(EventsResetCalendarTokenDocument);
    expect(again.data!.resetCalendarToken).not.toBe(reset.data!.resetCalendarToken);
    expect((await fetch(`${base}${url.pathname}`)).status).toBe(404);
    const mine = await asMember.execute(EventsMyUpcomingDocument);
    expect(mine.data!.myUpcomingEvents.map((o) => o.event.id)).toContain(event.id);
  });
});

describe("event pages for crawlers and link previews", () => {
  it("a public event's HTML carries a schema.org Event; drafts and members-only events answer 404; the sitemap lists it", async () => {
    const webDist = await mkdtemp(join(tmpdir(), "flock-web-"));
    await writeFile(join(webDist, "index.html"), '<!doctype html><html lang="en"><head><title>Flock</title><!--flock:head--></head><body><div id="root"></div></body></html>');
    const withApp = await testGateway({ webDist });
    const appUrl = await withApp.listen();
    try {
      const event = await publishedEvent({ title: "Carol service", summary: "Candles and carols.", rrule: "FREQ=YEARLY", locationName: "Main hall" });
      const response = await fetch(`${appUrl}/events/${event.slug}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!) as Record<string, unknown>;
      expect(jsonLd).toMatchObject({ "@type": "Event", name: "Carol service", description: "Candles and carols.", eventStatus: "https://schema.org/EventScheduled" });
      expect(String(jsonLd.startDate)).toMatch(/^\d{4}-01-04T15:00:00Z$/);
      expect(html).toContain('<meta property="og:title" content="Carol service');
      const members = await publishedEvent({ title: "Members meeting", visibility: "MEMBERS" });
      expect((await fetch(`${appUrl}/events/${members.slug}`)).status).toBe(404);
      expect((await fetch(`${appUrl}/events`)).status).toBe(200);
      const map = await (await fetch(`${appUrl}/sitemap.xml`)).text();
      expect(map).toContain(`<loc>http://flock.test/events/${event.slug}</loc>`);
      expect(map).not.toContain(`/events/${members.slug}<`);
    } finally {
      withApp.server.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });
});
