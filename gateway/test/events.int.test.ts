/**
 * Events through GraphQL (issue 14): validation with field errors, occurrences with exceptions and
 * "this and following", registration (party split, waitlist, the mail link that cancels signed out and
 * promotes the next person, who is mailed), RSVPs, and the iCalendar feeds read back by an
 * independent parser (ical.js) that must expand to the same occurrences the gateway returns.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ICAL from "ical.js";
import type { Gateway } from "../src/index.ts";
import { waitForMail, linkFrom } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  CSRF_HEADER,
  errorCode,
  fieldErrors,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
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
afterAll(() => gateway.close());

const CREATE = `mutation($input: EventInput!) { createEvent(input: $input) { id slug status timezone rrule recurrenceText startsAt } }`;
const nextYear = new Date().getUTCFullYear() + 1;

async function publishedEvent(input: Record<string, unknown>) {
  const created = await staff().request<{ createEvent: { id: string; slug: string } }>(CREATE, {
    input: {
      title: "Event",
      timezone: "America/New_York",
      startsAt: `${nextYear}-01-04T10:00`,
      endsAt: `${nextYear}-01-04T11:00`,
      visibility: "PUBLIC",
      slug: uniqueSlug("ev"),
      ...input,
    },
  });
  expect(created.errors).toBeUndefined();
  const published = await staff().request(`mutation($id: ID!) { publishEvent(id: $id) { id } }`, {
    id: created.data!.createEvent.id,
  });
  expect(published.errors).toBeUndefined();
  return created.data!.createEvent;
}

const OCCURRENCES = `query($from: DateTime!, $to: DateTime!) { occurrences(from: $from, to: $to) { event { id } start originalStart date status seatsLeft } }`;
type Occ = {
  event: { id: string };
  start: string;
  originalStart: string;
  date: string;
  status: string;
  seatsLeft: number | null;
};
async function occurrencesOf(eventId: string, from: string, to: string, client = visitor()): Promise<Occ[]> {
  const result = await client.request<{ occurrences: Occ[] }>(OCCURRENCES, { from, to });
  expect(result.errors).toBeUndefined();
  return result.data!.occurrences.filter((o) => o.event.id === eventId);
}

describe("creating events: bad input comes back as field errors", () => {
  it("refuses an end before the start, an unknown zone and a rule that yields nothing", async () => {
    const base = {
      title: "Bad",
      startsAt: `${nextYear}-03-01T10:00`,
      endsAt: `${nextYear}-03-01T11:00`,
      timezone: "America/New_York",
    };
    const fields = async (input: Record<string, unknown>) => {
      const result = await staff().request(CREATE, { input: { ...base, ...input } });
      expect(errorCode(result)).toBe("BAD_USER_INPUT");
      const codes = result.errors![0]!.extensions!.fieldErrorCodes as Record<string, string>;
      return Object.fromEntries(Object.entries(codes).map(([k, code]) => [k, { code }]));
    };
    expect((await fields({ endsAt: `${nextYear}-03-01T09:00` })).endsAt!.code).toBe("before_start");
    expect((await fields({ timezone: "Mars/Olympus_Mons" })).timezone!.code).toBe("invalid_timezone");
    expect((await fields({ rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" })).rrule!.code).toBe(
      "rule_yields_nothing",
    );
    expect((await fields({ rrule: "FREQ=SECONDLY" })).rrule!.code).toBe("rule_unsupported");
  });

  it("describes the rule in words and stores its normalised form", async () => {
    const result = await staff().request<{
      createEvent: { rrule: string; recurrenceText: string; status: string };
    }>(CREATE, {
      input: {
        title: "Potluck",
        startsAt: `${nextYear}-01-11T12:30`,
        endsAt: `${nextYear}-01-11T14:00`,
        timezone: "America/Chicago",
        rrule: "freq=monthly;byday=2su;until=20271231T235959Z",
      },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.createEvent).toMatchObject({
      status: "DRAFT",
      rrule: "FREQ=MONTHLY;UNTIL=20271231T235959Z;BYDAY=2SU",
    });
    // The time as every screen writes it (English: "12:30 PM", with the narrow space ICU puts before PM).
    expect(result.data!.createEvent.recurrenceText.replace(/\s/g, " ")).toBe(
      "Every 2nd Sunday at 12:30 PM, until 31 Dec 2027",
    );
    const preview = await visitor().request<{ recurrencePreview: { text: string; dates: string[] } }>(
      `query($i: RecurrencePreviewInput!) { recurrencePreview(input: $i) { text dates } }`,
      {
        i: {
          startsAt: "2026-01-11T10:00",
          timezone: "Europe/London",
          rrule: "FREQ=MONTHLY;BYDAY=-1FR",
          count: 3,
          locale: "es",
        },
      },
    );
    expect(preview.data!.recurrencePreview.text).toBe("Cada último viernes del mes a las 10:00");
    expect(preview.data!.recurrencePreview.dates).toEqual([
      "2026-01-30T10:00:00.000Z",
      "2026-02-27T10:00:00.000Z",
      "2026-03-27T10:00:00.000Z",
    ]);
  });
});

describe("occurrences, exceptions and splitting", () => {
  it("a weekly service stays at 10:00 New York time, cancels and moves single dates, and splits", async () => {
    const event = await publishedEvent({ title: "Sunday worship", rrule: "FREQ=WEEKLY;BYDAY=SU" });
    const march = await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`);
    expect(march.length).toBeGreaterThanOrEqual(4);
    for (const o of march) {
      const local = new Intl.DateTimeFormat("en-US", {
        timeZone: "America/New_York",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(new Date(o.start));
      expect(local).toBe("10:00");
    }
    const [first, second, third] = march;
    type Answer = {
      exceptions: { originalStart: string; note: string }[];
      nextOccurrences: { originalStart: string; status: string }[];
    };
    const cancel = await staff().request<{ cancelOccurrence: Answer }>(
      `mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o, note: "Snow") { exceptions { originalStart note } nextOccurrences(first: 20) { originalStart status } } }`,
      { e: event.id, o: first!.originalStart },
    );
    expect(cancel.errors).toBeUndefined();
    // The answer already shows the change (the staff screen renders it).
    expect(cancel.data!.cancelOccurrence.exceptions).toEqual([
      { originalStart: first!.originalStart, note: "Snow" },
    ]);
    expect(
      cancel.data!.cancelOccurrence.nextOccurrences.find((o) => o.originalStart === first!.originalStart)
        ?.status,
    ).toBe("CANCELLED");
    const moved = await staff().request<{ moveOccurrence: Answer }>(
      `mutation($e: ID!, $o: DateTime!, $s: String!, $t: String!) { moveOccurrence(eventId: $e, originalStart: $o, startsAt: $s, endsAt: $t) { exceptions { originalStart note } nextOccurrences(first: 20) { originalStart status } } }`,
      { e: event.id, o: second!.originalStart, s: `${second!.date}T16:00`, t: `${second!.date}T17:00` },
    );
    expect(moved.errors).toBeUndefined();
    expect(
      moved.data!.moveOccurrence.nextOccurrences.find((o) => o.originalStart === second!.originalStart)
        ?.status,
    ).toBe("MOVED");
    // Moving to an end before the start is a field error.
    const backwards = await staff().request(
      `mutation($e: ID!, $o: DateTime!, $s: String!, $t: String!) { moveOccurrence(eventId: $e, originalStart: $o, startsAt: $s, endsAt: $t) { id } }`,
      {
        e: event.id,
        o: third!.originalStart,
        s: `${third!.date}T16:00`,
        t: `${third!.date}T15:00`,
      },
    );
    expect(backwards.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({ endsAt: "before_start" });
    const after = await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`);
    expect(after[0]).toMatchObject({ originalStart: first!.originalStart, status: "CANCELLED" });
    expect(after[1]).toMatchObject({ originalStart: second!.originalStart, status: "MOVED" });
    expect(new Date(after[1]!.start).getTime() - new Date(second!.originalStart).getTime()).toBe(
      6 * 3600_000,
    );
    // Editing the series keeps its exceptions.
    const edited = await staff().request(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id } }`,
      {
        id: event.id,
        input: {
          title: "Sunday worship (renamed)",
          timezone: "America/New_York",
          startsAt: `${nextYear}-01-04T10:00`,
          endsAt: `${nextYear}-01-04T11:00`,
          rrule: "FREQ=WEEKLY;BYDAY=SU",
        },
      },
    );
    expect(edited.errors).toBeUndefined();
    expect(
      (await occurrencesOf(event.id, `${nextYear}-03-01T00:00:00Z`, `${nextYear}-04-01T00:00:00Z`))
        .slice(0, 2)
        .map((o) => o.status),
    ).toEqual(["CANCELLED", "MOVED"]);

    // This and following: from the third March Sunday on, the service is at 11:00.
    const split = await staff().request<{ splitEvent: { id: string } }>(
      `mutation($id: ID!, $o: DateTime!, $input: EventInput!) { splitEvent(id: $id, originalStart: $o, input: $input) { id } }`,
      {
        id: event.id,
        o: third!.originalStart,
        input: {
          title: "Sunday worship",
          timezone: "America/New_York",
          startsAt: `${third!.date}T11:00`,
          endsAt: `${third!.date}T12:00`,
          rrule: "FREQ=WEEKLY;BYDAY=SU",
        },
      },
    );
    expect(split.errors).toBeUndefined();
    const oldSeries = await occurrencesOf(
      event.id,
      `${nextYear}-03-01T00:00:00Z`,
      `${nextYear}-06-01T00:00:00Z`,
    );
    expect(oldSeries).toHaveLength(2);
    const newSeries = await occurrencesOf(
      split.data!.splitEvent.id,
      `${nextYear}-03-01T00:00:00Z`,
      `${nextYear}-04-01T00:00:00Z`,
    );
    expect(newSeries[0]!.date).toBe(third!.date);
    expect(newSeries.length).toBe(march.length - 2);
  });

  it("an edit that omits the rule and capacity keeps them; a split takes the later sign-ups to the new series' same dates", async () => {
    const event = await publishedEvent({
      title: "Thursday class",
      rrule: "FREQ=WEEKLY;BYDAY=TH",
      startsAt: `${nextYear}-01-01T19:00`,
      endsAt: `${nextYear}-01-01T20:30`,
      registrationMode: "REGISTRATION",
      capacity: 12,
    });
    const edited = await staff().request<{ updateEvent: { rrule: string; capacity: number } }>(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { rrule capacity } }`,
      {
        id: event.id,
        input: {
          title: "Thursday class (new room)",
          timezone: "America/New_York",
          startsAt: `${nextYear}-01-01T19:00`,
          endsAt: `${nextYear}-01-01T20:30`,
        },
      },
    );
    expect(edited.errors).toBeUndefined();
    expect(edited.data!.updateEvent).toEqual({ rrule: "FREQ=WEEKLY;BYDAY=TH", capacity: 12 });

    const [, second, third] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const register = async (originalStart: string, label: string) => {
      const result = await visitor().request<Registered>(REGISTER, {
        input: { eventId: event.id, originalStart, name: label, email: uniqueEmail(label), attendees: 2 },
      });
      expect(result.errors).toBeUndefined();
      return result.data!.register.parts[0]!.id;
    };
    const early = await register(second!.originalStart, "early");
    const later = await register(third!.originalStart, "later");
    // From the second Thursday on, the class starts at 18:30.
    const split = await staff().request<{ splitEvent: { id: string } }>(
      `mutation($id: ID!, $o: DateTime!, $input: EventInput!) { splitEvent(id: $id, originalStart: $o, input: $input) { id } }`,
      {
        id: event.id,
        o: third!.originalStart,
        input: {
          title: "Thursday class",
          timezone: "America/New_York",
          startsAt: `${third!.date}T18:30`,
          endsAt: `${third!.date}T20:00`,
          rrule: "FREQ=WEEKLY;BYDAY=TH",
          registrationMode: "REGISTRATION",
          capacity: 12,
        },
      },
    );
    expect(split.errors).toBeUndefined();
    const su = await system();
    expect(await su.collection("registrations").getOne(early)).toMatchObject({
      event: event.id,
      status: "confirmed",
    });
    const moved = await su.collection("registrations").getOne(later);
    expect(moved).toMatchObject({ event: split.data!.splitEvent.id, status: "confirmed" });
    const [newFirst] = await occurrencesOf(
      split.data!.splitEvent.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect([newFirst!.date, new Date(moved.occurrenceStart.replace(" ", "T")).toISOString()]).toEqual([
      third!.date,
      newFirst!.originalStart,
    ]);
    expect(newFirst!.seatsLeft).toBe(10);
  });

  it("cancelling a date mails who signed up for it (with the note); cancelling the event mails the rest, once each", async () => {
    const event = await publishedEvent({
      title: `Choir practice ${n}`,
      rrule: "FREQ=WEEKLY;BYDAY=TU",
      startsAt: `${nextYear}-01-06T19:00`,
      endsAt: `${nextYear}-01-06T20:00`,
      registrationMode: "REGISTRATION",
      capacity: 2,
      waitlistEnabled: true,
    });
    const [first, second] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const [ada, ben] = [uniqueEmail("ada"), uniqueEmail("ben")];
    for (const [email, o, attendees] of [
      [ada, first!, 3],
      [ben, second!, 1],
    ] as const) {
      const result = await visitor().request<Registered>(REGISTER, {
        input: {
          eventId: event.id,
          originalStart: o.originalStart,
          name: email.split("@")[0],
          email,
          attendees,
        },
      });
      expect(result.errors).toBeUndefined();
    }
    const cancelled = await staff().request(
      `mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o, note: "The church is closed for snow.") { id } }`,
      { e: event.id, o: first!.originalStart },
    );
    expect(cancelled.errors).toBeUndefined();
    const subject = new RegExp(`^Cancelled: Choir practice`);
    const adaMail = await waitForMail(catcherUrl(), ada, subject);
    expect(adaMail.text).toContain("The church is closed for snow.");
    expect(adaMail.text).toContain("Your registration for that date no longer applies");

    expect(
      (await staff().request(`mutation($id: ID!) { cancelEvent(id: $id) { status } }`, { id: event.id }))
        .errors,
    ).toBeUndefined();
    const benMail = await waitForMail(catcherUrl(), ben, subject);
    expect(benMail.text).not.toContain("snow");
    // Ada's party (split into a confirmed and a waitlisted part) got one mail, and none again for the event.
    const all = (await (await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(ada)}`)).json()) as {
      subject: string;
    }[];
    expect(all.filter((m) => subject.test(m.subject))).toHaveLength(1);
  });

  it("staff cancelling someone's registration mails them; cancelling from one's own mail link does not", async () => {
    const event = await publishedEvent({
      title: `Workshop ${n}`,
      registrationMode: "REGISTRATION",
      capacity: 5,
    });
    const [o] = await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`);
    const [cara, dan, eve] = [uniqueEmail("cara"), uniqueEmail("dan"), uniqueEmail("eve")];
    const ids: string[] = [];
    for (const email of [cara, dan, eve]) {
      const result = await visitor().request<Registered>(REGISTER, {
        input: { eventId: event.id, originalStart: o!.originalStart, name: "Guest", email, attendees: 1 },
      });
      expect(result.errors).toBeUndefined();
      ids.push(result.data!.register.parts[0]!.id);
    }
    const byStaff = await staff().request(`mutation($id: ID) { cancelRegistration(id: $id) { status } }`, {
      id: ids[0],
    });
    expect(byStaff.errors).toBeUndefined();
    const mail = await waitForMail(catcherUrl(), cara, /^Your registration was cancelled: Workshop/);
    expect(mail.text).toMatch(/cancelled your registration for Workshop \d+ — /);

    const danMail = await waitForMail(catcherUrl(), dan, /Registered: Workshop/);
    const token = decodeURIComponent(
      linkFrom(danMail, "/events/registration/").split("/events/registration/")[1]!,
    );
    expect(
      (
        await visitor().request(`mutation($t: String) { cancelRegistration(token: $t) { status } }`, {
          t: token,
        })
      ).errors,
    ).toBeUndefined();
    // Mails go out after the response, in order: once a later staff cancellation's mail (Eve's) is here, one
    // wrongly sent to Dan would be too.
    expect(
      (await staff().request(`mutation($id: ID) { cancelRegistration(id: $id) { status } }`, { id: ids[2] }))
        .errors,
    ).toBeUndefined();
    await waitForMail(catcherUrl(), eve, /^Your registration was cancelled: Workshop/);
    const danMails = (await (
      await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(dan)}`)
    ).json()) as { subject: string }[];
    expect(
      danMails
        .map((m) => m.subject)
        .filter((subject) => subject.startsWith("Your registration was cancelled")),
    ).toEqual([]);
  });

  it("refuses ranges over 18 months", async () => {
    const result = await visitor().request(OCCURRENCES, {
      from: "2026-01-01T00:00:00Z",
      to: "2028-01-01T00:00:00Z",
    });
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
  });
});

const REGISTER = `mutation($input: RegistrationInput!) { register(input: $input) { confirmationCode confirmed waitlisted parts { id status attendees waitlistPosition } } }`;
type Registered = {
  register: {
    confirmationCode: string;
    confirmed: number;
    waitlisted: number;
    parts: { id: string; status: string; attendees: number }[];
  };
};

describe("registration", () => {
  it("asks the event's own questions: staff write them, a registration must answer them, staff read the answers and the CSV", async () => {
    const QUESTIONS = `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { questions { id label kind options required } } }`;
    const event = await publishedEvent({
      title: "Youth camp",
      registrationMode: "REGISTRATION",
      capacity: 20,
    });
    const base = {
      title: "Youth camp",
      timezone: "America/New_York",
      startsAt: `${nextYear}-01-04T10:00`,
      endsAt: `${nextYear}-01-04T11:00`,
    };
    // What staff may not ask: a choice without two options, an empty question, too many questions.
    const refused = await staff().request(QUESTIONS, {
      id: event.id,
      input: {
        ...base,
        questions: [
          { label: "T-shirt size", kind: "CHOICE", options: ["M", " M "] },
          { label: "  ", kind: "TEXT" },
        ],
      },
    });
    expect(errorCode(refused)).toBe("BAD_USER_INPUT");
    expect(Object.keys(fieldErrors(refused)).sort()).toEqual(["questions.0.options", "questions.1.label"]);
    const tooMany = await staff().request(QUESTIONS, {
      id: event.id,
      input: { ...base, questions: Array.from({ length: 11 }, (_, i) => ({ label: `Q${i}`, kind: "TEXT" })) },
    });
    expect(Object.keys(fieldErrors(tooMany))).toEqual(["questions"]);
    const saved = await staff().request<{
      updateEvent: {
        questions: { id: string; label: string; kind: string; options: string[]; required: boolean }[];
      };
    }>(QUESTIONS, {
      id: event.id,
      input: {
        ...base,
        questions: [
          { label: "Dietary needs", kind: "TEXT" },
          { label: "T-shirt size", kind: "CHOICE", options: ["S", "M", "L"], required: true },
          { label: "Needs childcare?", kind: "YES_NO", required: true },
        ],
      },
    });
    expect(saved.errors).toBeUndefined();
    const [diet, shirt, childcare] = saved.data!.updateEvent.questions;
    expect(saved.data!.updateEvent.questions.map((q) => [q.label, q.kind, q.options, q.required])).toEqual([
      ["Dietary needs", "TEXT", [], false],
      ["T-shirt size", "CHOICE", ["S", "M", "L"], true],
      ["Needs childcare?", "YES_NO", [], true],
    ]);
    const [occurrence] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const input = {
      eventId: event.id,
      originalStart: occurrence!.originalStart,
      name: "The Parkers",
      email: uniqueEmail("camp"),
      attendees: 2,
    };
    // Required questions unanswered, an option the question does not offer, a yes/no that is neither.
    const missing = await visitor().request(REGISTER, { input });
    expect(Object.keys(fieldErrors(missing)).sort()).toEqual(
      [`answers.${childcare!.id}`, `answers.${shirt!.id}`].sort(),
    );
    const wrong = await visitor().request(REGISTER, {
      input: {
        ...input,
        answers: [
          { questionId: shirt!.id, value: "XXL" },
          { questionId: childcare!.id, value: "maybe" },
        ],
      },
    });
    expect(Object.keys(fieldErrors(wrong)).sort()).toEqual(
      [`answers.${childcare!.id}`, `answers.${shirt!.id}`].sort(),
    );
    const ok = await visitor().request<{ register: { parts: { id: string }[] } }>(
      `mutation($input: RegistrationInput!) { register(input: $input) { parts { id answers { questionId question value } } } }`,
      {
        input: {
          ...input,
          answers: [
            { questionId: childcare!.id, value: "YES" },
            { questionId: shirt!.id, value: "M" },
            { questionId: diet!.id, value: "=SUM(A1) no nuts" },
            { questionId: "notaquestion", value: "ignored" },
          ],
        },
      },
    );
    expect(ok.errors).toBeUndefined();
    // Stored in the form's order with the wording asked; an answer to no question is dropped.
    expect(ok.data!.register.parts[0]).toMatchObject({
      answers: [
        { questionId: diet!.id, question: "Dietary needs", value: "=SUM(A1) no nuts" },
        { questionId: shirt!.id, question: "T-shirt size", value: "M" },
        { questionId: childcare!.id, question: "Needs childcare?", value: "YES" },
      ],
    });
    // The confirmation mail repeats the answers, in the reader's words for yes/no.
    const confirmation = await waitForMail(catcherUrl(), input.email, /^Registered/);
    expect(confirmation.text).toContain("T-shirt size — M");
    expect(confirmation.text).toContain("Needs childcare? — Yes");
    // Staff keep a question (by its id) and reword it: the CSV's column follows the form, the answer stays.
    await staff().request(QUESTIONS, {
      id: event.id,
      input: {
        ...base,
        questions: [
          { id: shirt!.id, label: "Shirt size", kind: "CHOICE", options: ["S", "M", "L"], required: true },
          { id: childcare!.id, label: "Needs childcare?", kind: "YES_NO", required: true },
          { id: diet!.id, label: "Dietary needs", kind: "TEXT" },
        ],
      },
    });
    const list = await staff().request<{ attendees: { csv: string } }>(
      `query($e: ID!, $o: DateTime!) { attendees(eventId: $e, originalStart: $o) { csv } }`,
      { e: event.id, o: occurrence!.originalStart },
    );
    const [header, row] = list.data!.attendees.csv.split("\r\n");
    expect(header).toBe(
      "name,email,attendees,names,status,code,waitlist position,registered,Shirt size,Needs childcare?,Dietary needs",
    );
    // A cell that would start a formula gets a leading '.
    expect(row).toMatch(/^The Parkers,.*,M,YES,'=SUM\(A1\) no nuts$/);
  });

  it("splits a party of 3 for 2 seats, mails a cancellation link that works signed out and promotes the waitlist", async () => {
    const event = await publishedEvent({
      title: "Marriage retreat",
      registrationMode: "REGISTRATION",
      capacity: 3,
      waitlistEnabled: true,
    });
    const [occurrence] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect(occurrence!.seatsLeft).toBe(3);
    const first = uniqueEmail("first");
    const one = await visitor().request<Registered>(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: occurrence!.originalStart,
        name: "First",
        email: first,
        attendees: 1,
      },
    });
    expect(one.errors).toBeUndefined();
    expect(one.data!.register).toMatchObject({ confirmed: 1, waitlisted: 0 });

    const party = uniqueEmail("party");
    const three = await visitor().request<Registered>(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: occurrence!.originalStart,
        name: "Party",
        email: party,
        attendees: 3,
      },
    });
    expect(three.errors).toBeUndefined();
    expect(three.data!.register).toMatchObject({ confirmed: 2, waitlisted: 1 });
    expect(three.data!.register.parts.map((p) => [p.status, p.attendees])).toEqual([
      ["CONFIRMED", 2],
      ["WAITLISTED", 1],
    ]);
    const partyMail = await waitForMail(catcherUrl(), party, /Registered: Marriage retreat/);
    expect(partyMail.text).toContain(three.data!.register.confirmationCode);
    expect(partyMail.text).toContain("On the waitlist: 1 place");

    const [after] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect(after!.seatsLeft).toBe(0);

    // The first visitor cancels from their mail, signed out: the party's waitlisted person gets the seat and a mail.
    const mail = await waitForMail(catcherUrl(), first, /Registered: Marriage retreat/);
    const token = decodeURIComponent(
      linkFrom(mail, "/events/registration/").split("/events/registration/")[1]!,
    );
    const byLink = await visitor().request<{
      registrationByToken: { status: string; confirmationCode: string };
    }>(`query($t: String!) { registrationByToken(token: $t) { status confirmationCode } }`, { t: token });
    expect(byLink.data!.registrationByToken.status).toBe("CONFIRMED");
    const cancelled = await visitor().request<{ cancelRegistration: { status: string } }>(
      `mutation($t: String!) { cancelRegistration(token: $t) { status } }`,
      { t: token },
    );
    expect(cancelled.errors).toBeUndefined();
    expect(cancelled.data!.cancelRegistration.status).toBe("CANCELLED");
    const promoted = await waitForMail(catcherUrl(), party, /A seat is yours: Marriage retreat/);
    expect(promoted.text).toContain("now confirmed");
    const su = await system();
    const rows = await su
      .collection("registrations")
      .getFullList({ filter: su.filter("event = {:e}", { e: event.id }) });
    expect(rows.filter((r) => r.status === "confirmed").reduce((s, r) => s + r.attendees, 0)).toBe(3);
  });

  it("refuses a party of 0 or 11, a duplicate, and registration outside the window, with field errors", async () => {
    const event = await publishedEvent({ title: "Workshop", registrationMode: "REGISTRATION", capacity: 20 });
    const [occurrence] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const input = {
      eventId: event.id,
      originalStart: occurrence!.originalStart,
      name: "Visitor",
      email: uniqueEmail("dup"),
      attendees: 2,
    };
    const field = (result: { errors?: Array<{ extensions?: Record<string, unknown> }> }) =>
      Object.entries(result.errors![0]!.extensions!.fieldErrorCodes as Record<string, string>).map(
        ([k, code]) => [k, { code }],
      )[0];
    expect(field(await visitor().request(REGISTER, { input: { ...input, attendees: 0 } }))).toEqual([
      "attendees",
      expect.objectContaining({ code: "out_of_range" }),
    ]);
    expect(field(await visitor().request(REGISTER, { input: { ...input, attendees: 11 } }))).toEqual([
      "attendees",
      expect.objectContaining({ code: "out_of_range" }),
    ]);
    expect((await visitor().request(REGISTER, { input })).errors).toBeUndefined();
    expect(
      field(await visitor().request(REGISTER, { input: { ...input, email: input.email.toUpperCase() } })),
    ).toEqual(["email", expect.objectContaining({ code: "duplicate_registration" })]);
    const closed = await publishedEvent({
      title: "Closed",
      registrationMode: "REGISTRATION",
      capacity: 5,
      registrationClosesAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const [closedOccurrence] = await occurrencesOf(
      closed.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect(
      field(
        await visitor().request(REGISTER, {
          input: { ...input, eventId: closed.id, originalStart: closedOccurrence!.originalStart },
        }),
      ),
    ).toEqual(["originalStart", expect.objectContaining({ code: "registration_closed" })]);
    // Before the window opens, too.
    const notYet = await publishedEvent({
      title: "Not yet",
      registrationMode: "REGISTRATION",
      capacity: 5,
      registrationOpensAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    const [notYetOccurrence] = await occurrencesOf(
      notYet.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect(
      field(
        await visitor().request(REGISTER, {
          input: {
            ...input,
            email: uniqueEmail("early"),
            eventId: notYet.id,
            originalStart: notYetOccurrence!.originalStart,
          },
        }),
      ),
    ).toEqual(["originalStart", expect.objectContaining({ code: "registration_closed" })]);
    // A window that closes before it opens is refused when the event is saved.
    const window = await staff().request(CREATE, {
      input: {
        title: "Window",
        timezone: "America/New_York",
        startsAt: `${nextYear}-01-04T10:00`,
        endsAt: `${nextYear}-01-04T11:00`,
        registrationMode: "REGISTRATION",
        registrationOpensAt: `${nextYear}-01-02T00:00:00Z`,
        registrationClosesAt: `${nextYear}-01-01T00:00:00Z`,
      },
    });
    expect(errorCode(window)).toBe("BAD_USER_INPUT");
    expect(window.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({
      registrationClosesAt: "before_start",
    });
  });

  it("staff move a registration to another date of the series; seats follow and the freed seat goes to the waitlist", async () => {
    const event = await publishedEvent({
      title: "Cooking class",
      registrationMode: "REGISTRATION",
      capacity: 1,
      waitlistEnabled: true,
      rrule: "FREQ=WEEKLY;BYDAY=SU",
    });
    const [first, second] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const movedEmail = uniqueEmail("move-a");
    const a = await visitor().request<Registered>(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: first!.originalStart,
        name: "A",
        email: movedEmail,
        attendees: 1,
      },
    });
    const waiting = uniqueEmail("move-b");
    const b = await visitor().request<Registered>(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: first!.originalStart,
        name: "B",
        email: waiting,
        attendees: 1,
      },
    });
    expect(b.data!.register).toMatchObject({ confirmed: 0, waitlisted: 1 });
    // A visitor may not move anyone.
    expect(
      errorCode(
        await visitor().request(
          `mutation($id: ID!, $o: DateTime!) { moveRegistration(id: $id, originalStart: $o) { id } }`,
          { id: a.data!.register.parts[0]!.id, o: second!.originalStart },
        ),
      ),
    ).toBe("UNAUTHENTICATED");
    const moved = await staff().request<{ moveRegistration: { originalStart: string; status: string } }>(
      `mutation($id: ID!, $o: DateTime!) { moveRegistration(id: $id, originalStart: $o) { originalStart status } }`,
      { id: a.data!.register.parts[0]!.id, o: second!.originalStart },
    );
    expect(moved.errors).toBeUndefined();
    expect(moved.data!.moveRegistration).toMatchObject({
      originalStart: second!.originalStart,
      status: "CONFIRMED",
    });
    const promoted = await waitForMail(catcherUrl(), waiting, /A seat is yours: Cooking class/);
    expect(promoted.text).toContain("now confirmed");
    // The person moved is told, with the link that still views or cancels their registration.
    const movedMail = await waitForMail(
      catcherUrl(),
      movedEmail,
      /New date for your registration: Cooking class/,
    );
    expect(movedMail.text).toContain("Your place is confirmed.");
    const registeredMail = await waitForMail(catcherUrl(), movedEmail, /Registered: Cooking class/);
    expect(linkFrom(movedMail, "/events/registration/")).toBe(
      linkFrom(registeredMail, "/events/registration/"),
    );
    const [firstAfter, secondAfter] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect([firstAfter!.seatsLeft, secondAfter!.seatsLeft]).toEqual([0, 0]);
    // Moving into a full date puts the party at the end of that date's waitlist; its old seat is freed.
    const third = (
      await occurrencesOf(event.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`)
    )[2]!;
    const d = await visitor().request<Registered>(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: third.originalStart,
        name: "D",
        email: uniqueEmail("move-d"),
        attendees: 1,
      },
    });
    expect(d.data!.register).toMatchObject({ confirmed: 1 });
    const intoFull = await staff().request<{
      moveRegistration: { status: string; waitlistPosition: number | null };
    }>(
      `mutation($id: ID!, $o: DateTime!) { moveRegistration(id: $id, originalStart: $o) { status waitlistPosition } }`,
      { id: a.data!.register.parts[0]!.id, o: third.originalStart },
    );
    expect(intoFull.errors).toBeUndefined();
    expect(intoFull.data!.moveRegistration).toEqual({ status: "WAITLISTED", waitlistPosition: 1 });
    const counts = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    expect(counts.slice(0, 3).map((o) => o.seatsLeft)).toEqual([0, 1, 0]);
    // To another event: admitted there again (it has room), confirmed.
    const other = await publishedEvent({
      title: "Baking class",
      registrationMode: "REGISTRATION",
      capacity: 5,
    });
    const [otherDate] = await occurrencesOf(
      other.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const MOVE_TO_EVENT = `mutation($id: ID!, $o: DateTime!, $e: ID) { moveRegistration(id: $id, originalStart: $o, eventId: $e) { status originalStart event { id } } }`;
    const elsewhere = await staff().request<{
      moveRegistration: { status: string; originalStart: string; event: { id: string } };
    }>(MOVE_TO_EVENT, { id: a.data!.register.parts[0]!.id, o: otherDate!.originalStart, e: other.id });
    expect(elsewhere.errors).toBeUndefined();
    expect(elsewhere.data!.moveRegistration).toEqual({
      status: "CONFIRMED",
      originalStart: otherDate!.originalStart,
      event: { id: other.id },
    });
    expect(
      (await occurrencesOf(other.id, `${nextYear}-01-01T00:00:00Z`, `${nextYear}-02-01T00:00:00Z`))[0]!
        .seatsLeft,
    ).toBe(4);
    const noSignUp = await publishedEvent({ title: "Open house" });
    const [openHouse] = await occurrencesOf(
      noSignUp.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const refused = await staff().request(MOVE_TO_EVENT, {
      id: a.data!.register.parts[0]!.id,
      o: openHouse!.originalStart,
      e: noSignUp.id,
    });
    expect(refused.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({
      eventId: "registration_not_open",
    });
    // Moving to a date the series does not have is a field error.
    const nowhere = await staff().request(
      `mutation($id: ID!, $o: DateTime!) { moveRegistration(id: $id, originalStart: $o) { id } }`,
      { id: a.data!.register.parts[0]!.id, o: `${nextYear}-01-06T15:00:00Z` },
    );
    expect(nowhere.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({
      originalStart: "no_such_occurrence",
    });
  });
});

describe("RSVP", () => {
  it("members and visitors answer, change and withdraw; counts follow", async () => {
    const event = await publishedEvent({ title: "Picnic", registrationMode: "RSVP" });
    const [occurrence] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const RSVP = `mutation($input: RsvpInput!) { rsvp(input: $input) { token rsvp { id response guests } } }`;
    const asMember = new GqlClient(gateway, { token: member.token, ip: ip() });
    const yes = await asMember.request<{ rsvp: { token: string | null; rsvp: { id: string } } }>(RSVP, {
      input: { eventId: event.id, originalStart: occurrence!.originalStart, response: "YES", guests: 2 },
    });
    expect(yes.errors).toBeUndefined();
    expect(yes.data!.rsvp.token).toBeNull();
    const changed = await asMember.request<{ rsvp: { rsvp: { id: string; response: string } } }>(RSVP, {
      input: { eventId: event.id, originalStart: occurrence!.originalStart, response: "MAYBE" },
    });
    expect(changed.data!.rsvp.rsvp).toMatchObject({ id: yes.data!.rsvp.rsvp.id, response: "MAYBE" });
    // A member's answer, and each change of it, is confirmed by mail too.
    const memberMail = await waitForMail(catcherUrl(), member.email, /Your answer for Picnic: going/);
    expect(memberMail.text).toContain("with 2 guests");
    expect(memberMail.text).toContain("while signed in");
    expect(linkFrom(memberMail, `/events/${event.slug}?date=`)).toContain(`date=${occurrence!.date}`);
    await waitForMail(catcherUrl(), member.email, /Your answer for Picnic: maybe/);

    const guest = visitor();
    const visitorEmail = uniqueEmail("rsvp");
    const visitorYes = await guest.request<{ rsvp: { token: string; rsvp: { id: string } } }>(RSVP, {
      input: {
        eventId: event.id,
        originalStart: occurrence!.originalStart,
        response: "YES",
        guests: 1,
        name: "Guest",
        email: visitorEmail,
      },
    });
    expect(visitorYes.errors).toBeUndefined();
    const token = visitorYes.data!.rsvp.token;
    const GOING = `query($slug: String!, $date: String) { occurrence(slug: $slug, date: $date) { goingCount } }`;
    expect(
      (
        await visitor().request<{ occurrence: { goingCount: number } }>(GOING, {
          slug: event.slug,
          date: occurrence!.date,
        })
      ).data!.occurrence.goingCount,
    ).toBe(2);
    // The visitor's answer is confirmed by mail, with a link that opens it in any browser: the event's
    // page with the RSVP's secret, through which it is read (with its email) and changed in place.
    const visitorMail = await waitForMail(catcherUrl(), visitorEmail, /Your answer for Picnic: going/);
    expect(visitorMail.text).toContain("with 1 guest");
    expect(visitorMail.text).toContain("from any browser");
    const manageLink = new URL(linkFrom(visitorMail, `/events/${event.slug}?date=`));
    expect(manageLink.searchParams.get("date")).toBe(occurrence!.date);
    const linkToken = manageLink.searchParams.get("rsvp")!;
    expect(linkToken).toBe(token);
    const BY_TOKEN = `query($t: String!) { rsvpByToken(token: $t) { id response guests name email originalStart } }`;
    const elsewhere = visitor();
    expect((await elsewhere.request(BY_TOKEN, { t: linkToken })).data).toEqual({
      rsvpByToken: {
        id: visitorYes.data!.rsvp.rsvp.id,
        response: "YES",
        guests: 1,
        name: "Guest",
        email: visitorEmail,
        originalStart: occurrence!.originalStart,
      },
    });
    const fromLink = await elsewhere.request<{ rsvp: { rsvp: { id: string; response: string } } }>(RSVP, {
      input: {
        eventId: event.id,
        originalStart: occurrence!.originalStart,
        response: "MAYBE",
        guests: 1,
        name: "Guest",
        email: visitorEmail,
        token: linkToken,
      },
    });
    expect(fromLink.data!.rsvp.rsvp).toEqual({
      id: visitorYes.data!.rsvp.rsvp.id,
      response: "MAYBE",
      guests: 1,
    });
    // A token that does not exist, or one too long to be one, reads nothing.
    expect((await visitor().request(BY_TOKEN, { t: "not-a-real-token" })).data).toEqual({
      rsvpByToken: null,
    });
    expect((await visitor().request(BY_TOKEN, { t: "x".repeat(65) })).data).toEqual({ rsvpByToken: null });
    const withdrawn = await visitor().request(
      `mutation($id: ID!, $t: String) { withdrawRsvp(id: $id, token: $t) }`,
      { id: visitorYes.data!.rsvp.rsvp.id, t: token },
    );
    expect(withdrawn.errors).toBeUndefined();
    expect(
      (
        await visitor().request<{ occurrence: { goingCount: number } }>(GOING, {
          slug: event.slug,
          date: occurrence!.date,
        })
      ).data!.occurrence.goingCount,
    ).toBe(0);
    // After the withdrawal its link finds nothing.
    expect(
      (await visitor().request<{ rsvpByToken: unknown }>(BY_TOKEN, { t: linkToken })).data!.rsvpByToken,
    ).toBeNull();
    // Without the token, a visitor cannot withdraw someone's answer.
    const stranger = await visitor().request(`mutation($id: ID!) { withdrawRsvp(id: $id) }`, {
      id: yes.data!.rsvp.rsvp.id,
    });
    expect(errorCode(stranger)).toBe("UNAUTHENTICATED");
  });
});

describe("cover image", () => {
  const SET_IMAGE = `mutation($id: ID!, $file: File) { setEventImage(id: $id, file: $file) { id imageUrl } }`;
  const upload = (client: GqlClient, id: string, file: File) =>
    client.request<{ setEventImage: { imageUrl: string | null } }>(
      SET_IMAGE,
      {},
      { body: multipartBody(SET_IMAGE, "file", file, file.name, { id }), headers: { [CSRF_HEADER]: "1" } },
    );

  it("staff upload a cover image (served through /files), remove it; other files, visitors and members are refused", async () => {
    const event = await publishedEvent({ title: "Harvest supper" });
    const uploaded = await upload(staff(), event.id, fileOf(pngBytes(), "harvest.png", "image/png"));
    expect(uploaded.errors).toBeUndefined();
    expect(uploaded.data!.setEventImage.imageUrl).toMatch(
      new RegExp(`^/files/events/${event.id}/harvest_\\w+\\.png\\?thumb=1200x630$`),
    );
    const base = await baseUrl();
    const served = await fetch(`${base}${uploaded.data!.setEventImage.imageUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
    const read = await visitor().request<{ event: { imageUrl: string } }>(
      `query($s: String!) { event(slug: $s) { imageUrl } }`,
      { s: event.slug },
    );
    expect(read.data!.event.imageUrl).toBe(uploaded.data!.setEventImage.imageUrl);

    // HTML renamed .png is not an image.
    const fake = await upload(
      staff(),
      event.id,
      fileOf(new TextEncoder().encode("<html><script>alert(1)</script></html>"), "x.png", "image/png"),
    );
    expect(errorCode(fake)).toBe("UNSUPPORTED_FILE_TYPE");
    const pdf = await upload(
      staff(),
      event.id,
      fileOf(new TextEncoder().encode("%PDF-1.4"), "x.pdf", "application/pdf"),
    );
    expect(errorCode(pdf)).toBe("UNSUPPORTED_FILE_TYPE");
    expect(errorCode(await upload(visitor(), event.id, fileOf(pngBytes(), "x.png", "image/png")))).toBe(
      "UNAUTHENTICATED",
    );
    expect(
      errorCode(
        await upload(
          new GqlClient(gateway, { token: member.token, ip: ip() }),
          event.id,
          fileOf(pngBytes(), "x.png", "image/png"),
        ),
      ),
    ).toBe("FORBIDDEN");

    const removed = await staff().request<{ setEventImage: { imageUrl: string | null } }>(SET_IMAGE, {
      id: event.id,
      file: null,
    });
    expect(removed.errors).toBeUndefined();
    expect(removed.data!.setEventImage.imageUrl).toBeNull();
  });
});

describe("iCalendar feeds", () => {
  it("/feeds/events.ics parses with ical.js and expands to the gateway's occurrences for the next 12 months", async () => {
    const weekly = await publishedEvent({
      title: "Feed worship; with, commas",
      rrule: "FREQ=WEEKLY;BYDAY=SU",
      locationName: "Main hall",
      locationAddress: "1 Church St, Springfield",
    });
    const monthly = await publishedEvent({
      title: "Feed potluck",
      timezone: "Europe/London",
      startsAt: `${nextYear}-01-11T12:30`,
      endsAt: `${nextYear}-01-11T14:00`,
      rrule: "FREQ=MONTHLY;BYDAY=2SU",
    });
    const from = `${nextYear}-01-01T00:00:00Z`;
    const to = `${nextYear}-12-31T00:00:00Z`;
    const [first] = await occurrencesOf(weekly.id, from, to);
    await staff().request(
      `mutation($e: ID!, $o: DateTime!) { cancelOccurrence(eventId: $e, originalStart: $o) { id } }`,
      { e: weekly.id, o: first!.originalStart },
    );
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
      const master = vevents.find(
        (v) =>
          String(v.getFirstPropertyValue("uid")).startsWith(`event-${event.id}@`) &&
          !v.hasProperty("recurrence-id"),
      )!;
      const icalEvent = new ICAL.Event(master);
      const iterator = icalEvent.iterator();
      const expanded: string[] = [];
      const end = new Date(to).getTime();
      for (let next = iterator.next(); next && next.toJSDate().getTime() < end; next = iterator.next()) {
        if (next.toJSDate().getTime() >= new Date(from).getTime())
          expanded.push(next.toJSDate().toISOString());
      }
      // Cancelled dates included: they stay in the series, overridden with STATUS:CANCELLED.
      const ours = (await occurrencesOf(event.id, from, to)).map((o) => o.start);
      expect(expanded).toEqual(ours);
      expect(ours.length).toBeGreaterThan(10);
    }
    const cancelled = vevents.find(
      (v) =>
        String(v.getFirstPropertyValue("uid")).startsWith(`event-${weekly.id}@`) &&
        v.hasProperty("recurrence-id"),
    )!;
    expect(new ICAL.Event(cancelled).recurrenceId.toJSDate().toISOString()).toBe(first!.originalStart);
    expect(cancelled.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(text).toContain("SUMMARY:Feed worship\\; with\\, commas");
  });
});

describe("categories", () => {
  it("filter the calendar and have their own iCalendar feed; an unknown category's feed is 404", async () => {
    const name = `Youth ${uniqueSlug("c")}`;
    const created = await staff().request<{
      createEventCategory: { id: string; slug: string; feedUrl: string };
    }>(`mutation($input: EventCategoryInput!) { createEventCategory(input: $input) { id slug feedUrl } }`, {
      input: { name, color: "#2da44e" },
    });
    expect(created.errors).toBeUndefined();
    const category = created.data!.createEventCategory;
    expect(category.feedUrl).toBe(`http://flock.test/feeds/events/${category.slug}.ics`);
    const badColour = await staff().request(
      `mutation($input: EventCategoryInput!) { createEventCategory(input: $input) { id } }`,
      { input: { name: "Bad", color: "green" } },
    );
    expect(badColour.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({ color: "invalid_color" });
    expect(
      errorCode(await visitor().request(`mutation { createEventCategory(input: { name: "Nope" }) { id } }`)),
    ).toBe("UNAUTHENTICATED");

    const youth = await publishedEvent({
      title: "Youth night",
      categoryId: category.id,
      startsAt: `${nextYear}-05-08T19:00`,
      endsAt: `${nextYear}-05-08T21:00`,
    });
    const other = await publishedEvent({
      title: "Choir practice",
      startsAt: `${nextYear}-05-08T19:00`,
      endsAt: `${nextYear}-05-08T21:00`,
    });
    const filtered = await visitor().request<{
      occurrences: { event: { id: string; category: { slug: string } | null } }[];
    }>(
      `query($from: DateTime!, $to: DateTime!, $c: String) { occurrences(from: $from, to: $to, categorySlug: $c) { event { id category { slug } } } }`,
      { from: `${nextYear}-05-01T00:00:00Z`, to: `${nextYear}-06-01T00:00:00Z`, c: category.slug },
    );
    expect(filtered.data!.occurrences.map((o) => o.event.id)).toEqual([youth.id]);
    expect(filtered.data!.occurrences[0]!.event.category!.slug).toBe(category.slug);

    const base = await baseUrl();
    const feed = await fetch(`${base}/feeds/events/${category.slug}.ics`);
    expect(feed.status).toBe(200);
    const text = await feed.text();
    const uids = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents("vevent")
      .map((v) => String(v.getFirstPropertyValue("uid")));
    expect(uids.some((u) => u.startsWith(`event-${youth.id}@`))).toBe(true);
    expect(uids.some((u) => u.startsWith(`event-${other.id}@`))).toBe(false);
    expect((await fetch(`${base}/feeds/events/no-such-category.ics`)).status).toBe(404);
  });
});

describe("all-day events", () => {
  it("are stored as all-day and written to the feed as DATE values covering their days", async () => {
    const event = await publishedEvent({
      title: "Church camp",
      allDay: true,
      startsAt: `${nextYear}-07-04T00:00`,
      endsAt: `${nextYear}-07-05T23:59`,
    });
    const read = await visitor().request<{ event: { allDay: boolean } }>(
      `query($s: String!) { event(slug: $s) { allDay } }`,
      { s: event.slug },
    );
    expect(read.data!.event.allDay).toBe(true);
    const text = await (await fetch(`${await baseUrl()}/feeds/events.ics`)).text();
    const vevent = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents("vevent")
      .find((v) => String(v.getFirstPropertyValue("uid")).startsWith(`event-${event.id}@`))!;
    const start = vevent.getFirstPropertyValue("dtstart") as ICAL.Time;
    const end = vevent.getFirstPropertyValue("dtend") as ICAL.Time;
    expect([start.isDate, start.toString(), end.toString()]).toEqual([
      true,
      `${nextYear}-07-04`,
      `${nextYear}-07-06`,
    ]);
  });
});

describe("personal calendar feed", () => {
  it("lists the member's registrations at a secret address that a reset replaces", async () => {
    const event = await publishedEvent({
      title: "Men's breakfast",
      registrationMode: "REGISTRATION",
      capacity: 10,
    });
    const [occurrence] = await occurrencesOf(
      event.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const asMember = new GqlClient(gateway, { token: member.token, ip: ip() });
    const registered = await asMember.request(REGISTER, {
      input: {
        eventId: event.id,
        originalStart: occurrence!.originalStart,
        name: "Member",
        email: member.email,
        attendees: 1,
      },
    });
    expect(registered.errors).toBeUndefined();
    const reset = await asMember.request<{ resetCalendarToken: string }>(`mutation { resetCalendarToken }`);
    const url = new URL(reset.data!.resetCalendarToken);
    const base = await baseUrl();
    const feed = await fetch(`${base}${url.pathname}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("cache-control")).toContain("no-store");
    const text = await feed.text();
    expect(text).toContain("SUMMARY:Men's breakfast");
    const again = await asMember.request<{ resetCalendarToken: string }>(`mutation { resetCalendarToken }`);
    expect(again.data!.resetCalendarToken).not.toBe(reset.data!.resetCalendarToken);
    expect((await fetch(`${base}${url.pathname}`)).status).toBe(404);
    const mine = await asMember.request<{ myUpcomingEvents: { event: { id: string } }[] }>(
      `{ myUpcomingEvents { event { id } } }`,
    );
    expect(mine.data!.myUpcomingEvents.map((o) => o.event.id)).toContain(event.id);
  });
});

describe("a signed-in member's mail links", () => {
  it("open, answer and cancel the party of that link, not the member's other registrations", async () => {
    const me = await createUser();
    const asMe = new GqlClient(gateway, { token: me.token, ip: ip() });
    const registerFor = async (title: string, day: string) => {
      const event = await publishedEvent({
        title,
        registrationMode: "REGISTRATION",
        capacity: 10,
        startsAt: `${nextYear}-01-${day}T18:00`,
        endsAt: `${nextYear}-01-${day}T20:00`,
      });
      const [date] = await occurrencesOf(
        event.id,
        `${nextYear}-01-01T00:00:00Z`,
        `${nextYear}-02-01T00:00:00Z`,
      );
      const result = await asMe.request<{ register: { confirmationCode: string; parts: { id: string }[] } }>(
        REGISTER,
        {
          input: {
            eventId: event.id,
            originalStart: date!.originalStart,
            name: "Me",
            email: me.email,
            attendees: 2,
          },
        },
      );
      expect(result.errors).toBeUndefined();
      return result.data!.register;
    };
    const first = await registerFor("First class", "12");
    const second = await registerFor("Second class", "13");
    // The answer to the second registration is the second's party (it used to be the member's first).
    expect(second.parts.map((p) => p.id)).not.toContain(first.parts[0]!.id);
    const su = await system();
    const secondRow = await su.collection("registrations").getOne(second.parts[0]!.id);
    expect(secondRow.confirmationCode).toBe(second.confirmationCode);
    const token = secondRow.cancelToken as string;
    const BY_TOKEN = `query($t: String!) { registrationByToken(token: $t) { id confirmationCode } }`;
    const opened = await asMe.request<{ registrationByToken: { id: string; confirmationCode: string } }>(
      BY_TOKEN,
      { t: token },
    );
    expect(opened.data!.registrationByToken).toEqual({
      id: second.parts[0]!.id,
      confirmationCode: second.confirmationCode,
    });
    const cancelled = await asMe.request<{ cancelRegistration: { id: string; status: string } }>(
      `mutation($t: String) { cancelRegistration(token: $t) { id status } }`,
      { t: token },
    );
    expect(cancelled.data!.cancelRegistration).toEqual({ id: second.parts[0]!.id, status: "CANCELLED" });
    expect((await su.collection("registrations").getOne(first.parts[0]!.id)).status).toBe("confirmed");
    // The mail of the second registration speaks of the second class.
    const mail = await waitForMail(catcherUrl(), me.email, /Second class/);
    expect(mail.text).toContain(second.confirmationCode);
    expect(mail.text).not.toContain(first.confirmationCode);
  });
});

describe("my upcoming events", () => {
  it("the caller's own future sign-ups in date order: no cancelled registration, no 'no', no past date, never someone else's (event staff included)", async () => {
    const me = await createUser();
    const asMe = new GqlClient(gateway, { token: me.token, ip: ip() });
    const RSVP = `mutation($input: RsvpInput!) { rsvp(input: $input) { rsvp { id } } }`;
    const weekly = await publishedEvent({
      title: "Weekly supper",
      registrationMode: "RSVP",
      rrule: "FREQ=WEEKLY;COUNT=3",
    });
    const [first, second, third] = await occurrencesOf(
      weekly.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const answer = async (client: GqlClient, o: Occ, response: string) =>
      expect(
        (
          await client.request(RSVP, {
            input: { eventId: weekly.id, originalStart: o.originalStart, response },
          })
        ).errors,
      ).toBeUndefined();
    await answer(asMe, third!, "YES");
    await answer(asMe, first!, "MAYBE");
    await answer(asMe, second!, "NO");
    const course = await publishedEvent({
      title: "Membership class",
      registrationMode: "REGISTRATION",
      capacity: 10,
      startsAt: `${nextYear}-01-06T18:00`,
      endsAt: `${nextYear}-01-06T20:00`,
    });
    const [lesson] = await occurrencesOf(
      course.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const registered = await asMe.request<{ register: { parts: { id: string }[] } }>(REGISTER, {
      input: {
        eventId: course.id,
        originalStart: lesson!.originalStart,
        name: "Me",
        email: me.email,
        attendees: 1,
      },
    });
    expect(registered.errors).toBeUndefined();
    const dropped = await publishedEvent({
      title: "Dropped class",
      registrationMode: "REGISTRATION",
      capacity: 10,
      startsAt: `${nextYear}-01-07T18:00`,
      endsAt: `${nextYear}-01-07T20:00`,
    });
    const [droppedDate] = await occurrencesOf(
      dropped.id,
      `${nextYear}-01-01T00:00:00Z`,
      `${nextYear}-02-01T00:00:00Z`,
    );
    const droppedReg = await asMe.request<{ register: { parts: { id: string }[] } }>(REGISTER, {
      input: {
        eventId: dropped.id,
        originalStart: droppedDate!.originalStart,
        name: "Me",
        email: me.email,
        attendees: 1,
      },
    });
    expect(
      (
        await asMe.request(`mutation($id: ID) { cancelRegistration(id: $id) { id } }`, {
          id: droppedReg.data!.register.parts[0]!.id,
        })
      ).errors,
    ).toBeUndefined();
    // An answer for a date already past (written directly: the API refuses answers for past dates).
    const su = await system();
    await su.collection("rsvps").create({
      event: weekly.id,
      occurrenceStart: "2020-01-02 15:00:00.000Z",
      user: me.id,
      name: "Me",
      email: me.email,
      response: "yes",
      guests: 0,
    });
    // Event staff answer too; they read everyone's sign-ups, yet their own list is their own.
    await answer(staff(), second!, "YES");

    const MINE = `{ myUpcomingEvents { event { title } date } }`;
    const mine = await asMe.request<{ myUpcomingEvents: { event: { title: string }; date: string }[] }>(MINE);
    expect(mine.errors).toBeUndefined();
    expect(mine.data!.myUpcomingEvents.map((o) => `${o.event.title} ${o.date}`)).toEqual([
      `Weekly supper ${first!.date}`,
      `Membership class ${lesson!.date}`,
      `Weekly supper ${third!.date}`,
    ]);
    const theirs = await staff().request<{ myUpcomingEvents: { event: { title: string }; date: string }[] }>(
      MINE,
    );
    expect(
      theirs.data!.myUpcomingEvents.filter((o) => o.event.title === "Weekly supper").map((o) => o.date),
    ).toEqual([second!.date]);
  });
});

describe("group events", () => {
  it("staff give an event to a group they may see; the group's page lists it and its members' personal feeds carry the series", async () => {
    const su = await system();
    const tag = uniqueSlug("circle");
    const group = await su.collection("groups").create({
      name: `Circle ${tag}`,
      slug: tag,
      type: "small_group",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "open",
      rosterVisibility: "leaders",
      status: "active",
    });
    const hidden = await su.collection("groups").create({
      name: `Hidden ${tag}`,
      slug: `${tag}-h`,
      type: "team",
      locationDisplay: "hidden",
      visibility: "hidden",
      joinPolicy: "closed",
      rosterVisibility: "leaders",
      status: "active",
    });
    const me = await createUser();
    const membership = await su
      .collection("group_members")
      .create({ group: group.id, person: me.personId, role: "member", status: "active" });
    // A group the caller cannot see, or no group at all, is a field error.
    const base = {
      title: `Circle supper ${tag}`,
      timezone: "America/Chicago",
      startsAt: `${nextYear}-02-03T18:00`,
      endsAt: `${nextYear}-02-03T20:00`,
      rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=6",
      slug: uniqueSlug("supper"),
    };
    for (const ownerGroupId of [hidden.id, "nosuchgroup0000", "bad id"]) {
      const refused = await staff().request(CREATE, { input: { ...base, ownerGroupId } });
      expect(errorCode(refused)).toBe("BAD_USER_INPUT");
      expect(refused.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({
        ownerGroupId: "unknown_group",
      });
    }
    const event = await publishedEvent({ ...base, ownerGroupId: group.id });
    const draft = await staff().request<{ createEvent: { id: string } }>(CREATE, {
      input: { ...base, title: `Draft supper ${tag}`, slug: uniqueSlug("draft"), ownerGroupId: group.id },
    });
    expect(draft.errors).toBeUndefined();
    // Renaming keeps the group (omitted); the page lists the event.
    const renamed = await staff().request<{ updateEvent: { ownerGroupId: string } }>(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { ownerGroupId } }`,
      {
        id: event.id,
        input: { ...base, title: `Circle supper ${tag}`, slug: event.slug },
      },
    );
    expect(renamed.data!.updateEvent.ownerGroupId).toBe(group.id);
    const page = await visitor().request<{ group: { events: { id: string }[] } }>(
      `query($s: String!) { group(slug: $s) { events(first: 10) { id } } }`,
      { s: tag },
    );
    expect(page.data!.group.events.map((e) => e.id)).toEqual([event.id]);

    const asMe = new GqlClient(gateway, { token: me.token, ip: ip() });
    const feedUrl = new URL(
      (await asMe.request<{ resetCalendarToken: string }>(`mutation { resetCalendarToken }`)).data!
        .resetCalendarToken,
    );
    const base2 = await baseUrl();
    const feed = async () => (await fetch(`${base2}${feedUrl.pathname}`)).text();
    const text = await feed();
    expect(text).toContain(`SUMMARY:Circle supper ${tag}`);
    expect(text).toContain("RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=WE");
    expect(text).not.toContain(`Draft supper ${tag}`);
    // An answer for one of its dates does not repeat that date beside the series.
    const [first] = await occurrencesOf(
      event.id,
      `${nextYear}-02-01T00:00:00Z`,
      `${nextYear}-03-01T00:00:00Z`,
    );
    await su.collection("rsvps").create({
      event: event.id,
      occurrenceStart: first!.originalStart.replace("T", " "),
      user: me.id,
      name: "Me",
      email: me.email,
      response: "yes",
      guests: 0,
    });
    expect((await feed()).split(`SUMMARY:Circle supper ${tag}`).length - 1).toBe(1);
    // Leaving the group takes the series out (the RSVP'd date stays, as a sign-up).
    await su.collection("group_members").update(membership.id, { status: "inactive" });
    const after = await feed();
    expect(after.split(`SUMMARY:Circle supper ${tag}`).length - 1).toBe(1);
    expect(after).not.toContain("RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=WE");
  });
});

describe("event pages for crawlers and link previews", () => {
  it("a public event's HTML carries a schema.org Event; drafts and members-only events answer 404; the sitemap lists it", async () => {
    const webDist = await mkdtemp(join(tmpdir(), "flock-web-"));
    await writeFile(
      join(webDist, "index.html"),
      '<!doctype html><html lang="en"><head><title>Flock</title><!--flock:head--></head><body><div id="root"></div></body></html>',
    );
    const withApp = await testGateway({ webDist });
    const appUrl = await withApp.listen();
    try {
      const event = await publishedEvent({
        title: "Carol service",
        summary: "Candles and carols.",
        rrule: "FREQ=YEARLY",
        locationName: "Main hall",
      });
      const response = await fetch(`${appUrl}/events/${event.slug}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const jsonLd = JSON.parse(
        /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!,
      ) as Record<string, unknown>;
      expect(jsonLd).toMatchObject({
        "@type": "Event",
        name: "Carol service",
        description: "Candles and carols.",
        eventStatus: "https://schema.org/EventScheduled",
      });
      expect(String(jsonLd.startDate)).toMatch(/^\d{4}-01-04T15:00:00Z$/);
      expect(html).toContain('<meta property="og:title" content="Carol service');
      const members = await publishedEvent({ title: "Members meeting", visibility: "MEMBERS" });
      expect((await fetch(`${appUrl}/events/${members.slug}`)).status).toBe(404);
      expect((await fetch(`${appUrl}/events`)).status).toBe(200);
      const map = await (await fetch(`${appUrl}/sitemap.xml`)).text();
      expect(map).toContain(`<loc>http://flock.test/events/${event.slug}</loc>`);
      expect(map).not.toContain(`/events/${members.slug}<`);
    } finally {
      await withApp.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });
});
