/**
 * Check-in reports (issue 28) with the real PocketBase: headcounts per session and room, the weekly
 * trend and the first-timers over a span of church days, and the same as CSV; operators only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, errorCode, GqlClient, system, testGateway, type TestUser } from "./helpers.ts";
import { CheckinCheckInDocument, CheckinReportDocument } from "./__generated__/operations.ts";
import { createFamily, createOperator, createRoom, createSession } from "./checkin-support.ts";

let gateway: Gateway;
let su: PocketBase;
let operator: TestUser;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  operator = await createOperator();
});
afterAll(() => gateway.close());

const gql = (user: TestUser) => new GqlClient(gateway, { token: user.token });
/** A church day (the test church's zone) `daysAgo` days before today. */
async function churchDay(daysAgo: number) {
  const zone = (await su.collection("settings").getFirstListItem("id != ''")).timezone || "UTC";
  const day = new Date(Date.now() - daysAgo * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(day);
}

describe("a check-in report", () => {
  it("counts each session's rooms, the weeks and the first-timers, and gives them as CSV", async () => {
    const room = await createRoom(su, { name: `Preschool ${Date.now() % 1000}` });
    const other = await createRoom(su, { name: "=cmd|' /C calc'!A0" });
    const today = await createSession(su, [room.id, other.id]);
    const family = await createFamily([
      { first: "Uma", months: 40 },
      { first: "Vic", months: 44 },
    ]);
    const checked = await gql(operator).execute(CheckinCheckInDocument, {
      input: {
        sessionId: today.id,
        people: [
          { personId: family.children[0]!.id, roomId: room.id },
          { personId: family.children[1]!.id, roomId: other.id },
        ],
      },
    });
    expect(checked.data!.checkIn.refused).toEqual([]);
    // A session two weeks ago, its numbers as the hook left them.
    const past = await createSession(su, [room.id], -14 * 24 * 60);
    const pastRow = await su
      .collection("checkin_counts")
      .getFirstListItem(`session = "${past.id}" && room = "${room.id}"`);
    await su.collection("checkin_counts").update(pastRow.id, { childrenTotal: 7, firstTime: 2 });

    const from = await churchDay(20);
    const to = await churchDay(0);
    const report = await gql(operator).execute(CheckinReportDocument, { from, to });
    expect(report.errors).toBeUndefined();
    const { sessions, weeks, firstTimers, csv } = report.data!.checkinReport;
    const mine = sessions.filter((s) => [today.id, past.id].includes(s.session.id));
    // Newest first.
    expect(mine.map((s) => s.session.id)).toEqual([today.id, past.id]);
    expect(mine[0]).toMatchObject({ children: 2, firstTime: 2 });
    expect(mine[0]!.rooms).toEqual(
      expect.arrayContaining([
        { room: { id: room.id, name: room.name }, children: 1, firstTime: 1 },
        { room: { id: other.id, name: other.name }, children: 1, firstTime: 1 },
      ]),
    );
    expect(mine[1]).toMatchObject({ children: 7, firstTime: 2 });
    // The trend: weeks oldest first, each with at least these sessions' children.
    expect(weeks.map((w) => w.weekOf)).toEqual([...weeks.map((w) => w.weekOf)].sort());
    expect(weeks.reduce((sum, w) => sum + w.children, 0)).toBeGreaterThanOrEqual(9);
    for (const week of weeks) expect(new Date(`${week.weekOf}T12:00:00Z`).getUTCDay()).toBe(1);
    // First-timers, for follow-up: the child, the household, where and when.
    expect(firstTimers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: family.children[0]!.name,
          householdName: expect.stringContaining("household"),
          sessionName: today.name,
          roomName: room.name,
        }),
      ]),
    );
    // CSV: a header, a row per session and room; a cell that would run as a formula is defused.
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("date,session,room,children,first time");
    expect(lines).toContain(`${to},${today.name},${room.name},1,1`);
    expect(lines).toContain(`${to},${today.name},'${other.name},1,1`);
    expect(lines).toContain(`${await churchDay(14)},${past.name},${room.name},7,2`);
  });

  it("is for operators, over at most 366 days, the last day not before the first", async () => {
    const member = await createUser();
    const from = await churchDay(10);
    const to = await churchDay(0);
    expect(errorCode(await gql(member).execute(CheckinReportDocument, { from, to }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(operator).execute(CheckinReportDocument, { from: to, to: from }))).toBe(
      "BAD_USER_INPUT",
    );
    expect(
      errorCode(await gql(operator).execute(CheckinReportDocument, { from: "2024-01-01", to: "2025-06-01" })),
    ).toBe("BAD_USER_INPUT");
  });
});
