// `npx tsx scripts/bench-autofill.ts`: how long Serving's auto-fill takes for a quarter (a benchmark,
// not a test: the figures go to docs/PERFORMANCE.md, nothing fails on a slow machine).
//
// A church of 300 volunteers in four teams fills 13 weekly Sunday plans × 12 positions (19 places a
// Sunday): blockouts (holidays, "every 1st Sunday", a few weekly), preferences (monthly maximum,
// service time, households together or apart), clearances for the kids' team (some expiring during
// the quarter), 8 weeks of history, some places already taken, and other plans of the same people
// (a Sunday care team that overlaps, a Wednesday youth night that does not).
//
// The data come from a seeded generator, so every run measures the same input. Prints min / median
// / max of 20 runs (wall and CPU time), the first (cold) run, how many places were proposed and left
// unfilled, and checks the result: every run the same, no proposal with a conflict (conflictsFor).
//
// Options: --runs=<n> (default 20), --seed=<n> (default 2026); BENCH_VERBOSE=1 prints each run's CPU time
// (the JIT warming up over the first runs).
import { performance } from "node:perf_hooks";
import {
  autofill,
  conflictsFor,
  type Assignment,
  type AutofillInput,
  type Candidate,
  type ClearanceKind,
  type Need,
  type PlanSlot,
  type Position,
} from "../gateway/src/schema/serving/autofill.ts";
import type { Blockout } from "../gateway/src/schema/serving/blockouts.ts";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(option("runs") ?? 20);
const SEED = Number(option("seed") ?? 2026);

const VOLUNTEERS = 300;
const WEEKS = 13;
const HISTORY_WEEKS = 8;
const FIRST_SUNDAY = "2026-03-01";

// ---------------------------------------------------------------------------------------------------
// A seeded generator (mulberry32): the same church on every run.

function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const chance = (p: number) => next() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, int, chance, pick };
}

const random = generator(SEED);

// ---------------------------------------------------------------------------------------------------
// Dates: local wall-clock times of a Chicago church (CST until the 2nd Sunday of March, then CDT).

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function localInstant(date: string, time: string): string {
  const offset = date < "2026-03-08" || date >= "2026-11-01" ? "-06:00" : "-05:00";
  return new Date(`${date}T${time}:00${offset}`).toISOString();
}

const span = (date: string, from: string, to: string) => ({
  startsAt: localInstant(date, from),
  endsAt: localInstant(date, to),
});

// ---------------------------------------------------------------------------------------------------
// The teams: 12 positions, 19 places a Sunday.

interface PositionSpec {
  position: Position;
  count: number;
  /** How many of the team's volunteers can fill it, relatively (drummers and bass players are few). */
  share: number;
}

const spec = (
  teamId: string,
  id: string,
  count: number,
  options: { requires?: ClearanceKind[]; share?: number } = {},
): PositionSpec => ({
  position: { id, teamId, name: id, requires: options.requires ?? [] },
  count,
  share: options.share ?? count,
});

const POSITIONS: PositionSpec[] = [
  spec("worship", "worship-leader", 1, { share: 0.5 }),
  spec("worship", "vocals", 3),
  spec("worship", "keys", 1),
  spec("worship", "guitar", 1),
  spec("worship", "bass", 1, { share: 0.15 }),
  spec("worship", "drums", 1, { share: 0.15 }),
  spec("production", "sound", 1),
  spec("production", "lights", 1),
  spec("production", "slides", 1),
  spec("kids", "kids-teacher", 2, { requires: ["background_check", "training"] }),
  spec("kids", "kids-helper", 2, { requires: ["background_check"] }),
  spec("hospitality", "greeter", 4),
];

const TEAMS = ["worship", "production", "kids", "hospitality"] as const;
const TEAM_WEIGHTS = [0.25, 0.15, 0.3, 0.3];

function teamByWeight(): (typeof TEAMS)[number] {
  let roll = random.next();
  for (const [i, team] of TEAMS.entries()) {
    roll -= TEAM_WEIGHTS[i]!;
    if (roll < 0) return team;
  }
  return "hospitality";
}

/** One of the team's positions, more often those with a larger share. */
function positionOnTeam(team: string): string {
  const onTeam = POSITIONS.filter((p) => p.position.teamId === team);
  let roll = random.next() * onTeam.reduce((sum, p) => sum + p.share, 0);
  for (const { position, share } of onTeam) {
    roll -= share;
    if (roll < 0) return position.id;
  }
  return onTeam.at(-1)!.position.id;
}

// ---------------------------------------------------------------------------------------------------
// Plans: the quarter's Sundays (every 4th a single combined 10:30 service), the history before them.

function sundayPlan(date: string, id: string): PlanSlot {
  const combined = id.endsWith("-combined");
  return {
    id,
    date,
    times: combined
      ? [span(date, "09:00", "10:15"), span(date, "10:30", "12:00")]
      : [span(date, "07:30", "08:45"), span(date, "09:00", "10:15"), span(date, "11:00", "12:15")],
    serviceTime: combined ? "10:30" : "09:00",
  };
}

const quarterDates = Array.from({ length: WEEKS }, (_, week) => addDays(FIRST_SUNDAY, 7 * week));
const plans = quarterDates.map((date, week) =>
  sundayPlan(date, `sun-${date}${week % 4 === 3 ? "-combined" : ""}`),
);
const historyPlans = Array.from({ length: HISTORY_WEEKS }, (_, i) => {
  const date = addDays(FIRST_SUNDAY, -7 * (HISTORY_WEEKS - i));
  return sundayPlan(date, `sun-${date}`);
});

// ---------------------------------------------------------------------------------------------------
// Volunteers

function blockoutsOfSomeone(): Blockout[] {
  const blockouts: Blockout[] = [];
  if (random.chance(0.4)) {
    const startsOn = addDays(FIRST_SUNDAY, random.int(-10, 7 * WEEKS));
    blockouts.push({ startsOn, endsOn: addDays(startsOn, random.int(2, 14)), repeat: "none", until: null });
  }
  if (random.chance(0.1)) {
    // Every 1st (or 2nd … 5th) Sunday: a monthly commitment elsewhere.
    const startsOn = addDays("2026-01-04", 7 * random.int(0, 4));
    blockouts.push({ startsOn, endsOn: startsOn, repeat: "monthly", until: null });
  }
  if (random.chance(0.08)) {
    // Every Sunday for a while (a class, a season of caring for someone).
    const startsOn = addDays(FIRST_SUNDAY, 7 * random.int(0, 8));
    blockouts.push({
      startsOn,
      endsOn: startsOn,
      repeat: "weekly",
      until: addDays(startsOn, 7 * random.int(2, 6)),
    });
  }
  return blockouts;
}

function clearancesFor(positionIds: readonly string[]): Candidate["clearances"] {
  if (!positionIds.some((id) => id.startsWith("kids-")))
    return random.chance(0.1) ? [{ kind: "training", expiresOn: null }] : [];
  const clearances: Candidate["clearances"] = [];
  if (random.chance(0.85)) {
    // One in ten expires during the quarter.
    const expiresOn = random.chance(0.1) ? addDays(FIRST_SUNDAY, random.int(0, 7 * WEEKS)) : "2027-06-30";
    clearances.push({ kind: "background_check", expiresOn });
  }
  if (random.chance(0.8)) clearances.push({ kind: "training", expiresOn: null });
  return clearances;
}

function positionsOfSomeone(): string[] {
  const team = teamByWeight();
  const count = random.pick([1, 1, 1, 2, 2, 3]);
  const chosen = new Set<string>();
  for (let i = 0; i < count; i++) chosen.add(positionOnTeam(team));
  if (random.chance(0.15)) chosen.add(random.pick(POSITIONS).position.id); // helps on a second team too
  return [...chosen];
}

/** Households of two or three for ~40 % of the volunteers. */
function householdIds(): (string | null)[] {
  const ids: (string | null)[] = [];
  let household = 0;
  while (ids.length < VOLUNTEERS) {
    if (random.chance(0.6)) {
      ids.push(null);
      continue;
    }
    household += 1;
    const size = random.pick([2, 2, 3]);
    for (let i = 0; i < size && ids.length < VOLUNTEERS; i++) ids.push(`household-${household}`);
  }
  return ids;
}

function volunteers(): Candidate[] {
  return householdIds().map((householdId, i) => {
    const positionIds = positionsOfSomeone();
    return {
      personId: `person-${String(i).padStart(3, "0")}`,
      name: `Volunteer ${i}`,
      householdId,
      positionIds,
      clearances: clearancesFor(positionIds),
      blockouts: blockoutsOfSomeone(),
      preferences: {
        maxPerMonth: random.pick([null, null, null, null, null, 2, 2, 2, 1, 1]),
        preferredTimes: random.pick([
          [],
          [],
          [],
          [],
          [],
          ["09:00"],
          ["09:00"],
          ["09:00"],
          ["10:30"],
          ["10:30"],
        ]),
        household: householdId
          ? random.pick(["none", "none", "together", "together", "apart"] as const)
          : "none",
      },
    };
  });
}

const candidates = volunteers();

// ---------------------------------------------------------------------------------------------------
// What is already scheduled or answered

function assignmentOn(
  plan: PlanSlot,
  positionId: string,
  personId: string,
  status: Assignment["status"],
): Assignment {
  return { personId, planId: plan.id, positionId, date: plan.date, times: plan.times, status };
}

/** Someone on the position, at random (history is not fair; that is what the window corrects). */
function someoneFor(positionId: string): string {
  const able = candidates.filter((c) => c.positionIds.includes(positionId));
  return random.pick(able).personId;
}

function history(): Assignment[] {
  const assignments: Assignment[] = [];
  for (const plan of historyPlans) {
    for (const { position, count } of POSITIONS) {
      for (let place = 0; place < count; place++) {
        if (random.chance(0.15))
          assignments.push(assignmentOn(plan, position.id, someoneFor(position.id), "declined"));
        assignments.push(assignmentOn(plan, position.id, someoneFor(position.id), "accepted"));
      }
    }
  }
  return assignments;
}

/** A fifth of the places of the first four Sundays are already taken, and a few people have declined. */
function alreadyScheduled(): Assignment[] {
  const assignments: Assignment[] = [];
  for (const plan of plans.slice(0, 4)) {
    for (const { position, count } of POSITIONS) {
      for (let place = 0; place < count; place++) {
        if (random.chance(0.2)) {
          assignments.push(
            assignmentOn(plan, position.id, someoneFor(position.id), random.pick(["accepted", "pending"])),
          );
        } else if (random.chance(0.05)) {
          assignments.push(assignmentOn(plan, position.id, someoneFor(position.id), "declined"));
        }
      }
    }
  }
  return assignments;
}

/** Other plans of the same people: a Sunday care team (overlaps the services) and a Wednesday youth night. */
function otherTeams(): Assignment[] {
  const assignments: Assignment[] = [];
  for (const date of quarterDates) {
    const care: PlanSlot = {
      id: `care-${date}`,
      date,
      times: [span(date, "10:00", "12:00")],
      serviceTime: "10:00",
    };
    const wednesday = addDays(date, 3);
    const youth: PlanSlot = {
      id: `youth-${wednesday}`,
      date: wednesday,
      times: [span(wednesday, "18:30", "20:30")],
      serviceTime: "18:30",
    };
    for (let i = 0; i < 4; i++)
      assignments.push(assignmentOn(care, "care-team", random.pick(candidates).personId, "accepted"));
    for (let i = 0; i < 6; i++)
      assignments.push(assignmentOn(youth, "youth-leader", random.pick(candidates).personId, "accepted"));
  }
  return assignments;
}

const needs: Need[] = plans.flatMap((plan) =>
  POSITIONS.map(({ position, count }) => ({ planId: plan.id, positionId: position.id, count })),
);

const input: AutofillInput = {
  plans,
  needs,
  positions: POSITIONS.map((p) => p.position),
  candidates,
  assignments: [...history(), ...alreadyScheduled(), ...otherTeams()],
};

// ---------------------------------------------------------------------------------------------------
// The measurement

function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

function summary(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${ms(sorted[0]!)}, median ${ms(median(sorted))}, max ${ms(sorted.at(-1)!)}; first (cold) ${ms(values[0]!)}`;
}

// Wall time, and this process's CPU time beside it: on a shared machine (the CI class has 2 cores and
// often a load of 10+) the wall time includes waiting for a core, the CPU time does not.
const wall: number[] = [];
const cpu: number[] = [];
const results: ReturnType<typeof autofill>[] = [];
for (let run = 0; run < RUNS; run++) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  results.push(autofill(input));
  wall.push(performance.now() - started);
  const used = process.cpuUsage(cpuBefore);
  cpu.push((used.user + used.system) / 1000);
}
// Compared after the runs, so that the garbage of comparing is not collected inside a timed run.
const first = results[0]!;
for (const [run, result] of results.entries()) {
  if (JSON.stringify(result) !== JSON.stringify(first))
    throw new Error(`run ${run + 1} gave a different result`);
}
if (process.env.BENCH_VERBOSE) console.log(`CPU ms per run: ${cpu.map((t) => t.toFixed(1)).join(" ")}`);

/**
 * A sanity check of the result, outside the timings: conflictsFor finds nothing against any proposal
 * (the other proposals booked as pending), and how many times the most and least used served.
 */
function checkProposals(result: ReturnType<typeof autofill>): { busiest: number; used: number } {
  const planById = new Map(plans.map((p) => [p.id, p]));
  const booked = result.proposals.map((p) =>
    assignmentOn(planById.get(p.planId)!, p.positionId, p.personId, "pending"),
  );
  const served = new Map<string, number>();
  for (const [i, proposal] of result.proposals.entries()) {
    const person = candidates.find((c) => c.personId === proposal.personId)!;
    const household = candidates
      .filter((c) => c.householdId !== null && c.householdId === person.householdId)
      .map((c) => ({ personId: c.personId, prefersApart: c.preferences.household === "apart" }));
    const others = [...input.assignments, ...booked.filter((_, j) => j !== i)];
    const position = POSITIONS.find((p) => p.position.id === proposal.positionId)!.position;
    const conflicts = conflictsFor(person, planById.get(proposal.planId)!, position, others, household);
    if (conflicts.length > 0)
      throw new Error(`proposal ${JSON.stringify(proposal)}: ${JSON.stringify(conflicts)}`);
    served.set(proposal.personId, (served.get(proposal.personId) ?? 0) + 1);
  }
  return { busiest: Math.max(...served.values()), used: served.size };
}

const { busiest, used } = checkProposals(first);
const places = needs.reduce((sum, need) => sum + need.count, 0);
const missing = first.unfilled.reduce((sum, u) => sum + u.missing, 0);
const taken = input.assignments.filter(
  (a) => a.status !== "declined" && needs.some((n) => n.planId === a.planId && n.positionId === a.positionId),
).length;

console.log(
  `auto-fill: ${plans.length} plans × ${POSITIONS.length} positions (${places} places), ` +
    `${candidates.length} volunteers, ${input.assignments.length} assignments (history ${HISTORY_WEEKS} weeks), seed ${SEED}`,
);
const onPosition = POSITIONS.map(
  ({ position }) => `${position.id} ${candidates.filter((c) => c.positionIds.includes(position.id)).length}`,
);
console.log(`volunteers per position: ${onPosition.join(", ")}`);
console.log(`${RUNS} runs, wall: ${summary(wall)}`);
console.log(`${RUNS} runs, CPU:  ${summary(cpu)}`);
console.log(
  `places: ${taken} already taken, ${first.proposals.length} proposed, ${missing} unfilled ` +
    `(${first.unfilled.length} needs short); every run gave the same result`,
);
console.log(`${used} volunteers proposed, at most ${busiest} times each; no proposal has a conflict`);
