/**
 * Serving reminders (issue 27): the system job mails whoever accepted a place on a published plan within
 * their team's reminderDays, once per person and plan, through the mail outbox; never a pending or
 * declined request, a team without reminders, a draft plan or a plan further off; never twice, not
 * even from two runs at once. The job is run directly at a chosen instant (plans far in the future, so
 * no other file's plans are in its window).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";
import { linkFrom, type CaughtMail } from "../../scripts/lib/smtp-catcher.ts";
import type { Gateway } from "../src/index.ts";
import { sendServingReminders } from "../src/system/serving-reminders.ts";
import { catcherUrl, createUser, pbAs, system, testGateway, type TestUser } from "./helpers.ts";

let gateway: Gateway;
let su: PocketBase;
let timeZone: string;
let churchName: string;
const run = randomUUID().slice(0, 6);
// A day of its own in the 2040s: the window of every run below holds this file's plans only.
const base = Date.UTC(2045, 0, 1) + Math.floor(Math.random() * 3000) * 86_400_000;
const day = (n: number) => new Date(base + n * 86_400_000).toISOString().slice(0, 10);
/** An instant of day `n` at a wall-clock time in the church's zone. */
const at = (n: number, time: string) =>
  new Date(Temporal.PlainDateTime.from(`${day(n)}T${time}`).toZonedDateTime(timeZone).epochMilliseconds);
/** An instant on day `n` at a UTC time (plans store their times as instants). */
const utc = (n: number, time: string) => `${day(n)}T${time}:00.000Z`;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const settings = await gateway.services.publicSettings.get();
  timeZone = settings.timezone || "UTC";
  churchName = settings.churchName;
});
afterAll(() => gateway.close());

const reminders = (now: Date) => sendServingReminders(gateway.services, now);

async function mailsTo(user: TestUser): Promise<CaughtMail[]> {
  // Everything queued has been sent (or failed) once the outbox's pass is over.
  await gateway.services.mailOutbox.drain();
  const response = await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(user.email)}`);
  return (await response.json()) as CaughtMail[];
}

let teams = 0;
async function team(reminderDays: number, positionNames: string[]) {
  const created = await su
    .collection("serving_teams")
    .create({ name: `Reminders ${run} ${++teams}`, reminderDays, status: "active" });
  const positions = [];
  for (const [sort, name] of positionNames.entries())
    positions.push(await su.collection("serving_positions").create({ team: created.id, name, sort }));
  return { id: created.id, name: created.name as string, positions: positions.map((p) => p.id) };
}

async function plan(title: string, n: number, status: "draft" | "published") {
  return su.collection("serving_plans").create({
    title: `${title} ${run}`,
    date: `${day(n)} 00:00:00.000Z`,
    times: [
      { kind: "rehearsal", label: "", startsAt: utc(n, "14:00"), endsAt: utc(n, "14:45") },
      { kind: "service", label: "Morning service", startsAt: utc(n, "15:00"), endsAt: utc(n, "16:15") },
    ],
    status,
  });
}

/** `person` on the team for `positions`, and their requests for each on `planId`, with `status`. */
async function serve(
  person: TestUser,
  onTeam: { id: string; positions: string[] },
  planId: string,
  status: "pending" | "accepted" | "declined",
  positions = onTeam.positions,
) {
  const roster = await su.collection("serving_members").getList(1, 1, {
    filter: su.filter("team = {:team} && person = {:person}", { team: onTeam.id, person: person.personId }),
  });
  if (!roster.items.length)
    await su.collection("serving_members").create({
      team: onTeam.id,
      person: person.personId,
      role: "member",
      positions: onTeam.positions,
      status: "active",
    });
  const ids: string[] = [];
  for (const position of positions) {
    const existing = await su.collection("serving_needs").getList(1, 1, {
      filter: su.filter("plan = {:plan} && position = {:position}", { plan: planId, position }),
    });
    const need =
      existing.items[0] ??
      (await su.collection("serving_needs").create<{ id: string }>({ plan: planId, position, count: 10 }));
    ids.push(
      (await su.collection("serving_requests").create({ need: need.id, person: person.personId, status })).id,
    );
  }
  return ids;
}

async function volunteer(firstName: string, locale = "") {
  const user = await createUser();
  await su.collection("people").update(user.personId!, { firstName, lastName: `Reminded ${run}` });
  if (locale) await su.collection("users").update(user.id, { locale });
  return user;
}

describe("serving reminders", () => {
  it("mail each accepted volunteer once, in the window of their team, with every place they hold on the plan", async () => {
    const [accepted, pending, declined, noReminders, draftOnly, later, staff] = await Promise.all([
      volunteer("Ada"),
      volunteer("Ben"),
      volunteer("Cleo"),
      volunteer("Dan"),
      volunteer("Eve"),
      volunteer("Finn"),
      createUser({ roles: ["Pastor"] }),
    ]);
    const welcome = await team(2, ["Greeter", "Usher"]);
    const media = await team(0, ["Sound"]);
    const sunday = await plan("Sunday services", 2, "published");
    const draft = await plan("Draft plan", 1, "draft");
    const further = await plan("Later plan", 3, "published");
    const acceptedIds = await serve(accepted, welcome, sunday.id, "accepted");
    await serve(pending, welcome, sunday.id, "pending");
    const [declinedId] = await serve(declined, welcome, sunday.id, "declined");
    await serve(noReminders, media, sunday.id, "accepted");
    await serve(draftOnly, welcome, draft.id, "accepted");
    await serve(later, welcome, further.id, "accepted");

    // Before 7:00 in the church's zone nothing goes out, not even what is due.
    expect(await reminders(at(0, "05:00"))).toEqual({ mailed: 0, reminded: [] });

    const first = await reminders(at(0, "12:00"));
    expect(first.mailed).toBe(1);
    expect(first.reminded.sort()).toEqual([...acceptedIds].sort());
    const [mail, ...more] = await mailsTo(accepted);
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^Reminder: you're serving on \w+day, /);
    expect(mail!.text).toContain("Hello Ada,");
    expect(mail!.text).toContain(
      `A reminder from ${churchName}: you're serving at Sunday services ${run} on`,
    );
    expect(mail!.text).toContain(`Your places:\n• Greeter (${welcome.name})\n• Usher (${welcome.name})`);
    expect(mail!.text).toMatch(/Times:\n• Rehearsal: .+ – .+\n• Morning service: .+ – .+/);
    expect(linkFrom(mail!, "/me/serving")).toBe("http://flock.test/me/serving");
    for (const user of [pending, declined, noReminders, draftOnly, later])
      expect(await mailsTo(user)).toEqual([]);

    // Reminded: the state is on the requests, where only the system reads and writes it.
    const stored = await su.collection("serving_requests").getOne(acceptedIds[0]!);
    expect(stored.remindedAt).toBeTruthy();
    expect(
      (await su.collection("serving_requests").getOne(declinedId!)).remindedAt,
      "a declined request is never reminded",
    ).toBe("");
    expect(
      (await pbAs(accepted).collection("serving_requests").getOne(acceptedIds[0]!)).remindedAt,
    ).toBeUndefined();
    await pbAs(staff).collection("serving_requests").update(acceptedIds[0]!, { remindedAt: "" });
    expect((await su.collection("serving_requests").getOne(acceptedIds[0]!)).remindedAt).toBe(
      stored.remindedAt,
    );

    // A second run (later that day, and the next) sends nothing more; the next day reaches the later plan.
    expect(await reminders(at(0, "18:00"))).toEqual({ mailed: 0, reminded: [] });
    const nextDay = await reminders(at(1, "09:00"));
    expect(nextDay.mailed).toBe(1);
    expect(await mailsTo(accepted)).toHaveLength(1);
    expect(await mailsTo(later)).toHaveLength(1);
    expect(await mailsTo(draftOnly)).toEqual([]);
  });

  it("two runs at once queue one mail; a place accepted after the reminder gets its own; a reader's language", async () => {
    const spanish = await volunteer("Lucía", "es");
    const greeters = await team(3, ["Greeter", "Usher"]);
    const sunday = await plan("Culto", 1, "published");
    const [greeter] = await serve(spanish, greeters, sunday.id, "accepted", greeters.positions.slice(0, 1));
    const runs = await Promise.all([reminders(at(0, "10:00")), reminders(at(0, "10:00"))]);
    expect(runs.map((r) => r.mailed).sort()).toEqual([0, 1]);
    expect(runs.flatMap((r) => r.reminded)).toContain(greeter);
    const [mail, ...more] = await mailsTo(spanish);
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^Recordatorio: sirves el /);
    expect(mail!.text).toContain(`Tu lugar:\n• Greeter (${greeters.name})`);
    expect(mail!.text).toMatch(/Horarios:\n• Ensayo: /);

    // Accepted later the same day: a reminder of that place alone.
    const [usher] = await serve(spanish, greeters, sunday.id, "accepted", greeters.positions.slice(1));
    expect(await reminders(at(0, "11:00"))).toEqual({ mailed: 1, reminded: [usher] });
    const mails = await mailsTo(spanish);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(`Tu lugar:\n• Usher (${greeters.name})`);
  });
});
