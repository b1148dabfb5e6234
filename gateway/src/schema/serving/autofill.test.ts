import { describe, expect, it } from "vitest";
import {
  autofill,
  conflictsFor,
  type Assignment,
  type AutofillInput,
  type Candidate,
  type ClearanceKind,
  type PlanSlot,
  type Position,
} from "./autofill.ts";

// ---------------------------------------------------------------------------------------------------
// Builders: a worship team's Sunday 09:00 service in UTC unless a test says otherwise.

const position = (id: string, requires: ClearanceKind[] = [], teamId = "worship"): Position => ({
  id,
  teamId,
  name: id,
  requires,
});

/** A plan on `date` with its times as "HH:MM-HH:MM" (UTC), e.g. ["07:30-08:45", "09:00-10:30"]. */
function plan(id: string, date: string, times = ["09:00-10:30"], serviceTime = "09:00"): PlanSlot {
  return {
    id,
    date,
    times: times.map((range) => {
      const [from, to] = range.split("-");
      return { startsAt: `${date}T${from}:00Z`, endsAt: `${date}T${to}:00Z` };
    }),
    serviceTime,
  };
}

function candidate(
  personId: string,
  positionIds: string[],
  overrides: Partial<Omit<Candidate, "preferences">> & {
    preferences?: Partial<Candidate["preferences"]>;
  } = {},
): Candidate {
  return {
    personId,
    name: personId,
    householdId: null,
    positionIds,
    clearances: [],
    blockouts: [],
    ...overrides,
    preferences: { maxPerMonth: null, preferredTimes: [], household: "none", ...overrides.preferences },
  };
}

function assignment(
  personId: string,
  on: PlanSlot,
  positionId: string,
  status: Assignment["status"] = "accepted",
): Assignment {
  return { personId, planId: on.id, positionId, date: on.date, times: on.times, status };
}

/** Sundays from `first`, `weeks` of them, as "YYYY-MM-DD". */
function sundays(first: string, weeks: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: weeks }, (_, i) =>
    new Date(start + i * 7 * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Who was proposed, plan by plan: { planId: [personId, …] }. */
function rota(result: ReturnType<typeof autofill>): Record<string, string[]> {
  const byPlan: Record<string, string[]> = {};
  for (const p of result.proposals) (byPlan[p.planId] ??= []).push(p.personId);
  return byPlan;
}

function timesServed(result: ReturnType<typeof autofill>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of result.proposals) counts[p.personId] = (counts[p.personId] ?? 0) + 1;
  return counts;
}

const input = (overrides: Partial<AutofillInput>): AutofillInput => ({
  plans: [],
  needs: [],
  positions: [],
  candidates: [],
  assignments: [],
  ...overrides,
});

const sunday = plan("sun", "2026-03-08", ["07:30-08:45", "09:00-10:30"]);
const keys = position("keys");

// ---------------------------------------------------------------------------------------------------

describe("conflictsFor: qualification", () => {
  it("reports a person who is not on the position", () => {
    const amy = candidate("amy", ["drums"]);
    expect(conflictsFor(amy, sunday, keys, [], [])).toEqual([{ kind: "not_on_position" }]);
    expect(conflictsFor(candidate("amy", ["keys"]), sunday, keys, [], [])).toEqual([]);
  });

  it("reports each clearance the position requires and the person lacks", () => {
    const kidsTeacher = position("kids-teacher", ["background_check", "training"], "kids");
    const trainedOnly = candidate("amy", ["kids-teacher"], {
      clearances: [{ kind: "training", expiresOn: null }],
    });
    expect(conflictsFor(trainedOnly, sunday, kidsTeacher, [], [])).toEqual([
      { kind: "clearance_missing", clearance: "background_check" },
    ]);
    expect(conflictsFor(candidate("bob", ["kids-teacher"]), sunday, kidsTeacher, [], [])).toEqual([
      { kind: "clearance_missing", clearance: "background_check" },
      { kind: "clearance_missing", clearance: "training" },
    ]);
  });

  it("treats a clearance that expired before the plan's date as missing, and one expiring on or after it as valid", () => {
    const kidsHelper = position("kids-helper", ["background_check"], "kids");
    const checkedUntil = (expiresOn: string | null) =>
      candidate("amy", ["kids-helper"], { clearances: [{ kind: "background_check", expiresOn }] });
    expect(conflictsFor(checkedUntil("2026-03-07"), sunday, kidsHelper, [], [])).toEqual([
      { kind: "clearance_missing", clearance: "background_check" },
    ]);
    expect(conflictsFor(checkedUntil("2026-03-08"), sunday, kidsHelper, [], [])).toEqual([]);
    expect(conflictsFor(checkedUntil("2027-01-31"), sunday, kidsHelper, [], [])).toEqual([]);
    expect(conflictsFor(checkedUntil(null), sunday, kidsHelper, [], [])).toEqual([]);
  });
});

describe("conflictsFor: blockouts", () => {
  it("reports a person blocked out on the plan's date (a monthly 1st-Sunday blockout)", () => {
    const firstSundays = {
      startsOn: "2026-01-04",
      endsOn: "2026-01-04",
      repeat: "monthly" as const,
      until: null,
    };
    const amy = candidate("amy", ["keys"], { blockouts: [firstSundays] });
    expect(conflictsFor(amy, plan("p", "2026-06-07"), keys, [], [])).toEqual([{ kind: "blocked_out" }]);
    expect(conflictsFor(amy, plan("p", "2026-06-14"), keys, [], [])).toEqual([]);
  });
});

describe("conflictsFor: overlaps across teams", () => {
  const amy = candidate("amy", ["keys"]);
  const kidsTeacher = "kids-teacher";
  // The kids' plan on the same Sunday, at 10:00–11:00: it overlaps the 09:00–10:30 service.
  const kids = plan("kids-sun", "2026-03-08", ["10:00-11:00"]);

  it("an accepted or pending assignment on another team's plan at an overlapping time blocks", () => {
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", kids, kidsTeacher, "accepted")], [])).toEqual([
      { kind: "overlap", planId: "kids-sun", positionId: kidsTeacher },
    ]);
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", kids, kidsTeacher, "pending")], [])).toEqual([
      { kind: "overlap", planId: "kids-sun", positionId: kidsTeacher },
    ]);
  });

  it("compares instants, whatever their offset (10:15 at -05:00 is 15:15Z)", () => {
    const evening = plan("evening", "2026-03-08", ["15:00-16:00"]);
    const offsetKids: Assignment = {
      ...assignment("amy", kids, kidsTeacher),
      times: [{ startsAt: "2026-03-08T10:15:00-05:00", endsAt: "2026-03-08T11:15:00-05:00" }],
    };
    expect(conflictsFor(amy, evening, keys, [offsetKids], [])).toEqual([
      { kind: "overlap", planId: "kids-sun", positionId: kidsTeacher },
    ]);
  });

  it("an adjacent time does not (10:30–11:30 after a service ending at 10:30)", () => {
    const adjacent = plan("kids-late", "2026-03-08", ["10:30-11:30"]);
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", adjacent, kidsTeacher)], [])).toEqual([]);
  });

  it("a declined assignment does not, nor does someone else's", () => {
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", kids, kidsTeacher, "declined")], [])).toEqual(
      [],
    );
    expect(conflictsFor(amy, sunday, keys, [assignment("bob", kids, kidsTeacher)], [])).toEqual([]);
  });

  it("lists several overlaps once each, in plan and position order whatever the input order", () => {
    const care = plan("care-sun", "2026-03-08", ["08:00-12:00"]);
    const booked = [
      assignment("amy", kids, kidsTeacher),
      assignment("amy", care, "care-team"),
      assignment("amy", care, "care-team", "pending"),
    ];
    const expected = [
      { kind: "overlap", planId: "care-sun", positionId: "care-team" },
      { kind: "overlap", planId: "kids-sun", positionId: kidsTeacher },
    ];
    expect(conflictsFor(amy, sunday, keys, booked, [])).toEqual(expected);
    expect(conflictsFor(amy, sunday, keys, [...booked].reverse(), [])).toEqual(expected);
  });

  it("a place on the same plan always overlaps, even a plan without times", () => {
    const noTimes = plan("no-times", "2026-03-08", []);
    expect(conflictsFor(amy, noTimes, keys, [assignment("amy", noTimes, "vocals")], [])).toEqual([
      { kind: "overlap", planId: "no-times", positionId: "vocals" },
    ]);
  });
});

describe("conflictsFor: preferences, declines and households", () => {
  it("over_preference counts pending and accepted in the plan's calendar month, not declined or other months", () => {
    const amy = candidate("amy", ["keys"], { preferences: { maxPerMonth: 2 } });
    const march1 = plan("m1", "2026-03-01");
    const march15 = plan("m15", "2026-03-15");
    const february = plan("f22", "2026-02-22");
    const onePending = [assignment("amy", march1, "keys", "pending"), assignment("amy", february, "keys")];
    expect(conflictsFor(amy, sunday, keys, onePending, [])).toEqual([]);
    const twoInMarch = [...onePending, assignment("amy", march15, "vocals", "accepted")];
    expect(conflictsFor(amy, sunday, keys, twoInMarch, [])).toEqual([
      { kind: "over_preference", maxPerMonth: 2, inMonth: 2 },
    ]);
    const declined = [...onePending, assignment("amy", march15, "vocals", "declined")];
    expect(conflictsFor(amy, sunday, keys, declined, [])).toEqual([]);
  });

  it("declined_before: a decline of this same plan (any position), not of another plan", () => {
    const amy = candidate("amy", ["keys"]);
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", sunday, "vocals", "declined")], [])).toEqual([
      { kind: "declined_before", planId: "sun" },
    ]);
    const otherPlan = plan("next", "2026-03-15");
    expect(conflictsFor(amy, sunday, keys, [assignment("amy", otherPlan, "keys", "declined")], [])).toEqual(
      [],
    );
  });

  it("household_apart: the candidate, or the member on the plan, prefers apart", () => {
    const onPlan = [assignment("ben", sunday, "sound")];
    const apart = candidate("amy", ["keys"], { householdId: "h1", preferences: { household: "apart" } });
    const easy = candidate("amy", ["keys"], { householdId: "h1" });
    const ben = { personId: "ben", prefersApart: false };
    expect(conflictsFor(apart, sunday, keys, onPlan, [ben])).toEqual([
      { kind: "household_apart", personId: "ben" },
    ]);
    expect(conflictsFor(easy, sunday, keys, onPlan, [ben])).toEqual([]);
    expect(conflictsFor(easy, sunday, keys, onPlan, [{ ...ben, prefersApart: true }])).toEqual([
      { kind: "household_apart", personId: "ben" },
    ]);
    // Ben declined: he is not on the plan.
    expect(
      conflictsFor(apart, sunday, keys, [assignment("ben", sunday, "sound", "declined")], [ben]),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe("autofill: places and conflicts", () => {
  it("fills only the open places and reports the rest as unfilled with the missing count", () => {
    const result = autofill(
      input({
        plans: [sunday],
        needs: [{ planId: "sun", positionId: "vocals", count: 4 }],
        positions: [position("vocals")],
        candidates: [candidate("amy", ["vocals"]), candidate("bob", ["vocals"]), candidate("cat", ["drums"])],
        assignments: [
          assignment("dan", sunday, "vocals", "accepted"),
          assignment("eve", sunday, "vocals", "declined"),
        ],
      }),
    );
    expect(rota(result)).toEqual({ sun: ["amy", "bob"] });
    expect(result.unfilled).toEqual([{ planId: "sun", positionId: "vocals", missing: 1 }]);
  });

  it("proposes nobody for a need already met", () => {
    const result = autofill(
      input({
        plans: [sunday],
        needs: [{ planId: "sun", positionId: "keys", count: 1 }],
        positions: [keys],
        candidates: [candidate("amy", ["keys"])],
        assignments: [assignment("bob", sunday, "keys", "pending")],
      }),
    );
    expect(result).toEqual({ proposals: [], unfilled: [] });
  });

  it("never proposes anyone with a conflict (clearance, blockout, overlap on another team, declined)", () => {
    const kids = plan("kids", "2026-03-08", ["09:30-10:30"]);
    const result = autofill(
      input({
        plans: [sunday],
        needs: [{ planId: "sun", positionId: "greeter", count: 5 }],
        positions: [position("greeter", ["background_check"], "hospitality")],
        candidates: [
          candidate("amy", ["greeter"]),
          candidate("bob", ["greeter"], {
            clearances: [{ kind: "background_check", expiresOn: "2026-03-01" }],
          }),
          candidate("cat", ["greeter"], {
            clearances: [{ kind: "background_check", expiresOn: null }],
            blockouts: [{ startsOn: "2026-03-07", endsOn: "2026-03-09", repeat: "none", until: null }],
          }),
          candidate("dan", ["greeter"], { clearances: [{ kind: "background_check", expiresOn: null }] }),
          candidate("eve", ["greeter"], { clearances: [{ kind: "background_check", expiresOn: null }] }),
          candidate("fay", ["greeter"], {
            clearances: [{ kind: "background_check", expiresOn: "2026-03-08" }],
          }),
        ],
        assignments: [
          assignment("dan", kids, "kids-teacher"),
          assignment("eve", sunday, "greeter", "declined"),
        ],
      }),
    );
    expect(rota(result)).toEqual({ sun: ["fay"] });
    expect(result.unfilled).toEqual([{ planId: "sun", positionId: "greeter", missing: 4 }]);
  });

  it("never proposes one person twice at overlapping times (two positions, or two plans that overlap)", () => {
    const early = plan("early", "2026-03-08", ["09:00-10:30"]);
    const youth = plan("youth", "2026-03-08", ["10:00-11:00"]);
    const result = autofill(
      input({
        plans: [early, youth],
        needs: [
          { planId: "early", positionId: "keys", count: 1 },
          { planId: "early", positionId: "vocals", count: 1 },
          { planId: "youth", positionId: "keys", count: 1 },
        ],
        positions: [keys, position("vocals")],
        candidates: [candidate("amy", ["keys", "vocals"])],
      }),
    );
    expect(result.proposals).toHaveLength(1);
    expect(result.unfilled).toHaveLength(2);
  });

  it("fills a plan's scarcest position first, so a versatile person is not spent where others could serve", () => {
    // By id, "p1-guitar" would come first and take Ann (the first by id); then nobody could drum.
    const result = autofill(
      input({
        plans: [sunday],
        needs: [
          { planId: "sun", positionId: "p1-guitar", count: 1 },
          { planId: "sun", positionId: "p2-drums", count: 1 },
        ],
        positions: [position("p1-guitar"), position("p2-drums")],
        candidates: [candidate("ann", ["p1-guitar", "p2-drums"]), candidate("bob", ["p1-guitar"])],
      }),
    );
    expect(result.proposals.map((p) => [p.positionId, p.personId])).toEqual([
      ["p2-drums", "ann"],
      ["p1-guitar", "bob"],
    ]);
    expect(result.unfilled).toEqual([]);
  });

  it("refuses a need for a plan or position it was not given (a caller's bug, not an empty rota)", () => {
    expect(() =>
      autofill(input({ plans: [sunday], needs: [{ planId: "gone", positionId: "keys", count: 1 }] })),
    ).toThrow(/gone/);
    expect(() =>
      autofill(
        input({ plans: [sunday], needs: [{ planId: "sun", positionId: "keys", count: 1 }], positions: [] }),
      ),
    ).toThrow(/keys/);
  });
});

describe("autofill: preferences", () => {
  it("respects maxPerMonth, counting pending and accepted assignments and this run's proposals", () => {
    const [m1, m8, m15, m22, a5] = ["2026-03-01", "2026-03-08", "2026-03-15", "2026-03-22", "2026-04-05"].map(
      (date) => plan(date, date),
    ) as [PlanSlot, PlanSlot, PlanSlot, PlanSlot, PlanSlot];
    // A pending place on another team in March (an evening, no overlap), and a declined one that does not count.
    const evening = plan("youth-m22", "2026-03-22", ["23:00-23:30"]);
    const eveningDeclined = plan("youth-m15", "2026-03-15", ["23:00-23:30"]);
    const result = autofill(
      input({
        plans: [m1, m8, m15, m22, a5],
        needs: [m1, m8, m15, m22, a5].map((p) => ({ planId: p.id, positionId: "keys", count: 1 })),
        positions: [keys],
        candidates: [candidate("amy", ["keys"], { preferences: { maxPerMonth: 2 } })],
        assignments: [
          assignment("amy", evening, "youth-keys", "pending"),
          assignment("amy", eveningDeclined, "youth-keys", "declined"),
        ],
      }),
    );
    // March: 1 pending + 1 proposal = 2; April starts afresh.
    expect(rota(result)).toEqual({ "2026-03-01": ["amy"], "2026-04-05": ["amy"] });
    expect(result.unfilled.map((u) => u.planId)).toEqual(["2026-03-08", "2026-03-15", "2026-03-22"]);
  });

  it("breaks a tie toward the person who prefers the plan's service time", () => {
    const eleven = plan("eleven", "2026-03-08", ["11:00-12:30"], "11:00");
    const nine = plan("nine", "2026-03-15", ["09:00-10:30"], "09:00");
    const people = [
      candidate("amy", ["keys"]),
      candidate("bob", ["keys"], { preferences: { preferredTimes: ["11:00"] } }),
    ];
    const at = (p: PlanSlot) =>
      autofill(
        input({
          plans: [p],
          needs: [{ planId: p.id, positionId: "keys", count: 1 }],
          positions: [keys],
          candidates: people,
        }),
      ).proposals;
    expect(at(eleven).map((p) => [p.personId, p.reason.prefersTime])).toEqual([["bob", true]]);
    expect(at(nine).map((p) => [p.personId, p.reason.prefersTime])).toEqual([["amy", false]]);
  });

  it("puts fairness before the preferred time (fewer served wins)", () => {
    const eleven = plan("eleven", "2026-03-08", ["11:00-12:30"], "11:00");
    const result = autofill(
      input({
        plans: [eleven],
        needs: [{ planId: "eleven", positionId: "keys", count: 1 }],
        positions: [keys],
        candidates: [
          candidate("amy", ["keys"]),
          candidate("bob", ["keys"], { preferences: { preferredTimes: ["11:00"] } }),
        ],
        assignments: [assignment("bob", plan("before", "2026-03-01"), "keys")],
      }),
    );
    expect(result.proposals.map((p) => [p.personId, p.reason.servedInWindow])).toEqual([["amy", 0]]);
  });

  it("household together: breaks a tie toward the plan a household member is on (scheduled or proposed)", () => {
    const week1 = plan("w1", "2026-03-08");
    const week2 = plan("w2", "2026-03-15");
    const week3 = plan("w3", "2026-03-22");
    const zed = candidate("zed", ["keys"], { householdId: "h1", preferences: { household: "together" } });
    const result = autofill(
      input({
        plans: [week1, week2, week3],
        needs: [
          { planId: "w1", positionId: "keys", count: 1 },
          { planId: "w2", positionId: "keys", count: 1 },
          { planId: "w3", positionId: "keys", count: 1 },
          { planId: "w3", positionId: "sound", count: 1 },
        ],
        positions: [keys, position("sound", [], "production")],
        // Mia (zed's household, on another team) is scheduled for w1 and is the only sound person for w3.
        candidates: [candidate("amy", ["keys"]), zed, candidate("mia", ["sound"], { householdId: "h1" })],
        assignments: [assignment("mia", week1, "sound")],
      }),
    );
    // Amy would win w1 by personId; zed wins it to be with Mia. w2: Amy (fewer served). w3: zed and amy
    // have one each, and Mia is proposed for sound (the scarcer position, filled first): zed again.
    expect(result.proposals.map((p) => [p.planId, p.positionId, p.personId, p.reason.withHousehold])).toEqual(
      [
        ["w1", "keys", "zed", true],
        ["w2", "keys", "amy", false],
        ["w3", "sound", "mia", false],
        ["w3", "keys", "zed", true],
      ],
    );
  });

  it("household apart: never on the same plan as a household member (either one's wish)", () => {
    const result = autofill(
      input({
        plans: [sunday],
        needs: [
          { planId: "sun", positionId: "keys", count: 1 },
          { planId: "sun", positionId: "vocals", count: 1 },
        ],
        positions: [keys, position("vocals")],
        candidates: [
          candidate("amy", ["keys"], { householdId: "h1", preferences: { household: "apart" } }),
          candidate("ben", ["vocals"], { householdId: "h1" }),
        ],
        // Someone not among the candidates (another team), also of h1: amy cannot go to the same plan.
        households: [{ personId: "cal", householdId: "h1", prefersApart: false }],
        assignments: [assignment("cal", sunday, "kids-teacher")],
      }),
    );
    // Ben does not mind; Cal does not mind; Amy does: only Ben is proposed.
    expect(rota(result)).toEqual({ sun: ["ben"] });
    expect(result.unfilled).toEqual([{ planId: "sun", positionId: "keys", missing: 1 }]);
  });

  it("skips a person who declined this same plan before", () => {
    const result = autofill(
      input({
        plans: [sunday],
        needs: [{ planId: "sun", positionId: "keys", count: 1 }],
        positions: [keys],
        candidates: [candidate("amy", ["keys"]), candidate("bob", ["keys"])],
        assignments: [assignment("amy", sunday, "keys", "declined")],
      }),
    );
    expect(rota(result)).toEqual({ sun: ["bob"] });
  });
});

describe("autofill: fairness over a quarter", () => {
  const dates = sundays("2026-03-01", 13);
  const quarter = dates.map((date) => plan(`p-${date}`, date));
  const people = ["ann", "bea", "cal", "dee", "eli", "fox"].map((id) => candidate(id, ["vocals"]));
  const quarterInput = (assignments: Assignment[] = []): AutofillInput =>
    input({
      plans: quarter,
      needs: quarter.map((p) => ({ planId: p.id, positionId: "vocals", count: 2 })),
      positions: [position("vocals")],
      candidates: people,
      assignments,
    });

  it("13 weekly plans × 2 places among 6 equally available people: each serves 4 or 5 times", () => {
    const result = autofill(quarterInput());
    expect(result.proposals).toHaveLength(26);
    expect(result.unfilled).toEqual([]);
    const counts = Object.values(timesServed(result));
    expect(counts).toHaveLength(6);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.every((n) => n === 4 || n === 5)).toBe(true);
  });

  it("with history, the least-served go first; history older than the window does not count", () => {
    const past = sundays("2025-12-28", 9).map((date) => plan(`h-${date}`, date)); // 9 weeks before March 1
    const served = (personId: string, weeks: PlanSlot[]) =>
      weeks.map((p) => assignment(personId, p, "vocals"));
    const history = [
      ...served("ann", past.slice(1)), // the last 8 weeks: 8
      ...served("bea", past.slice(5)), // 4
      ...served("cal", past.slice(7)), // 2
      ...served("dee", past.slice(0, 1)), // 9 weeks ago only: outside the window
      ...served("fox", [plan("late", dates[12]!, ["18:00-19:00"])]), // already scheduled later in the quarter
    ];
    const result = autofill(quarterInput(history));
    const first = result.proposals.filter((p) => p.planId === quarter[0]!.id);
    expect(first.map((p) => [p.personId, p.reason.servedInWindow, p.reason.windowWeeks])).toEqual([
      ["dee", 0, 8],
      ["eli", 0, 8],
    ]);
    // Week 2: dee, eli and fox have one each (fox's is later in the quarter), a tie broken by personId.
    // Week 3: fox (1), then cal (2: her 8-week window still holds two) before dee and eli (2 each, by id).
    expect([1, 2].map((week) => rota(result)[quarter[week]!.id])).toEqual([
      ["dee", "eli"],
      ["fox", "cal"],
    ]);
    // Ann (8 in her window) and Bea (4) are not asked until their history has aged out of the window.
    const weeksBefore = (personId: string) =>
      quarter.findIndex((p) => rota(result)[p.id]!.includes(personId));
    expect(["ann", "bea", "cal", "dee", "eli", "fox"].map(weeksBefore)).toEqual([5, 5, 2, 0, 0, 2]);
  });
});

describe("autofill: determinism", () => {
  /** A seeded shuffle (mulberry32): the same "random" orders on every run. */
  function shuffled<T>(items: readonly T[], seed: number): T[] {
    let state = seed;
    const next = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  const dates = sundays("2026-03-01", 8);
  const plans = dates.map((date, i) =>
    plan(`p${i}`, date, ["07:30-08:45", "09:00-10:30"], i % 2 ? "11:00" : "09:00"),
  );
  const positions = [position("keys"), position("vocals"), position("kids", ["background_check"], "kids")];
  const names = ["ann", "bea", "cal", "dee", "eli", "fox", "gus", "hal", "ivy", "jon"];
  const candidates = names.map((id, i) =>
    candidate(id, i % 3 ? ["keys", "vocals"] : ["vocals", "kids"], {
      householdId: i < 4 ? `h${i % 2}` : null,
      clearances: i % 2 ? [{ kind: "background_check", expiresOn: null }] : [],
      preferences: {
        maxPerMonth: i % 4 === 0 ? 2 : null,
        preferredTimes: i % 2 ? ["11:00"] : ["09:00"],
        household: (["together", "apart", "none"] as const)[i % 3]!,
      },
    }),
  );
  const needs = plans.flatMap((p) => [
    { planId: p.id, positionId: "keys", count: 1 },
    { planId: p.id, positionId: "vocals", count: 2 },
    { planId: p.id, positionId: "kids", count: 1 },
  ]);
  const assignments = [
    assignment("cal", plans[2]!, "keys", "declined"),
    assignment("dee", plans[3]!, "vocals"),
  ];

  it("gives the same result when every input array is shuffled", () => {
    const expected = autofill({ plans, needs, positions, candidates, assignments });
    expect(expected.proposals.length).toBeGreaterThan(20);
    for (const seed of [1, 2, 3, 4, 5]) {
      const again = autofill({
        plans: shuffled(plans, seed),
        needs: shuffled(needs, seed + 10),
        positions: shuffled(positions, seed + 20),
        candidates: shuffled(candidates, seed + 30).map((c) => ({
          ...c,
          positionIds: shuffled(c.positionIds, seed),
        })),
        assignments: shuffled(assignments, seed + 40),
      });
      expect(again).toEqual(expected);
    }
  });

  it("proposes nothing that conflictsFor would refuse, given the other proposals as pending", () => {
    const result = autofill({ plans, needs, positions, candidates, assignments });
    const asAssignments = result.proposals.map((p): Assignment => {
      const slot = plans.find((s) => s.id === p.planId)!;
      return assignment(p.personId, slot, p.positionId, "pending");
    });
    for (const [i, proposal] of result.proposals.entries()) {
      const person = candidates.find((c) => c.personId === proposal.personId)!;
      const household = candidates
        .filter((c) => c.householdId !== null && c.householdId === person.householdId)
        .map((c) => ({ personId: c.personId, prefersApart: c.preferences.household === "apart" }));
      const others = [...assignments, ...asAssignments.filter((_, j) => j !== i)];
      const slot = plans.find((s) => s.id === proposal.planId)!;
      const pos = positions.find((p) => p.id === proposal.positionId)!;
      expect(conflictsFor(person, slot, pos, others, household), JSON.stringify(proposal)).toEqual([]);
    }
  });
});
