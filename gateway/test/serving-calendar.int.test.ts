/**
 * A volunteer's personal calendar feed (/feeds/me/<token>.ics) carries what they serve (issue 27): each
 * place they accepted on a plan that is not a draft, once, spanning the plan's times in the church's zone;
 * never a pending or declined request, nor a draft plan. Parsed with ical.js, as the event feeds are.
 */
import { randomUUID } from "node:crypto";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, GqlClient, system, testGateway, type TestUser } from "./helpers.ts";

let gateway: Gateway;
let su: PocketBase;
let volunteer: TestUser;
let timeZone: string;
let listening: Promise<string> | null = null;
/** The gateway on a real port (listened once per file). */
const baseUrl = () => (listening ??= gateway.listen());
const run = randomUUID().slice(0, 6);
const year = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  volunteer = await createUser();
  timeZone = (await gateway.services.publicSettings.get()).timezone || "UTC";
});
afterAll(() => gateway.close());

async function feed(user: TestUser): Promise<string> {
  const reset = await new GqlClient(gateway, { token: user.token }).request<{ resetCalendarToken: string }>(
    `mutation { resetCalendarToken }`,
  );
  const response = await fetch(`${await baseUrl()}${new URL(reset.data!.resetCalendarToken).pathname}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** A plan of `team`'s position with the volunteer asked, answering `answer`; its request's id. */
async function place(
  position: string,
  title: string,
  day: string,
  status: "draft" | "published" | "done",
  answer: "pending" | "accepted" | "declined",
  times = [
    { kind: "rehearsal", label: "", startsAt: `${day}T14:00:00.000Z`, endsAt: `${day}T14:45:00.000Z` },
    {
      kind: "service",
      label: "Late service",
      startsAt: `${day}T15:00:00.000Z`,
      endsAt: `${day}T16:30:00.000Z`,
    },
  ],
): Promise<string> {
  // A plan is asked on while it is open; it is done (or a draft again) afterwards.
  const plan = await su.collection("serving_plans").create({
    title: `${title} ${run}`,
    date: `${day} 00:00:00.000Z`,
    times,
    status: status === "done" ? "published" : status,
  });
  const need = await su.collection("serving_needs").create({ plan: plan.id, position, count: 3 });
  const request = await su
    .collection("serving_requests")
    .create({ need: need.id, person: volunteer.personId, status: answer });
  if (status === "done") await su.collection("serving_plans").update(plan.id, { status: "done" });
  return request.id;
}

describe("serving in the personal calendar feed", () => {
  it("lists each accepted place on a plan that is not a draft, once, over the plan's times", async () => {
    const team = await su
      .collection("serving_teams")
      .create({ name: `Feed ${run}`, reminderDays: 0, status: "active" });
    const position = await su.collection("serving_positions").create({ team: team.id, name: "Keys; piano" });
    await su.collection("serving_members").create({
      team: team.id,
      person: volunteer.personId,
      role: "member",
      positions: [position.id],
      status: "active",
    });
    const accepted = await place(position.id, "Easter, sunrise", `${year}-04-05`, "published", "accepted");
    const done = await place(position.id, "Done plan", `${year}-04-12`, "done", "accepted");
    const allDay = await place(position.id, "Retreat", `${year}-04-19`, "published", "accepted", []);
    await place(position.id, "Pending plan", `${year}-04-26`, "published", "pending");
    await place(position.id, "Declined plan", `${year}-05-03`, "published", "declined");
    await place(position.id, "Draft plan", `${year}-05-10`, "draft", "accepted");

    const text = await feed(volunteer);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const root = new ICAL.Component(ICAL.parse(text));
    for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
    const serving = root
      .getAllSubcomponents("vevent")
      .filter((v) => String(v.getFirstPropertyValue("uid")).startsWith("serving-"));
    expect(serving.map((v) => v.getFirstPropertyValue("uid")).sort()).toEqual(
      [accepted, done, allDay].map((id) => `serving-${id}@flock.test`).sort(),
    );

    const easter = new ICAL.Event(
      serving.find((v) => v.getFirstPropertyValue("uid") === `serving-${accepted}@flock.test`)!,
    );
    // Escaped as TEXT: the semicolon and comma come back as written.
    expect(easter.summary).toBe(`Serving: Keys; piano (Feed ${run}) — Easter, sunrise ${run}`);
    // From the rehearsal's start to the service's end, written in the church's zone (its VTIMEZONE included).
    expect(easter.component.getFirstProperty("dtstart")!.getParameter("tzid")).toBe(timeZone);
    expect(easter.startDate.toJSDate().toISOString()).toBe(`${year}-04-05T14:00:00.000Z`);
    expect(easter.endDate.toJSDate().toISOString()).toBe(`${year}-04-05T16:30:00.000Z`);
    expect(text).toContain(`BEGIN:VTIMEZONE\r\nTZID:${timeZone}`);
    expect(easter.description).toMatch(
      /^Rehearsal: .+ – .+\nLate service: .+ – .+\n\nhttp:\/\/flock\.test\/me\/serving$/,
    );
    expect(easter.component.getFirstPropertyValue("url")).toBe("http://flock.test/me/serving");

    // A plan without times is its whole day.
    const retreat = new ICAL.Event(
      serving.find((v) => v.getFirstPropertyValue("uid") === `serving-${allDay}@flock.test`)!,
    );
    expect(retreat.startDate.isDate).toBe(true);
    expect(retreat.startDate.toString()).toBe(`${year}-04-19`);
    expect(retreat.endDate.toString()).toBe(`${year}-04-20`);
  });

  it("is written in the volunteer's language", async () => {
    await su.collection("users").update(volunteer.id, { locale: "es" });
    const text = (await feed(volunteer)).replace(/\r\n /g, ""); // unfolded
    expect(text).toContain(`SUMMARY:Servicio: Keys\\; piano (Feed ${run}) — Easter\\, sunrise ${run}`);
    expect(text).not.toContain("SUMMARY:Serving:");
  });
});
