/**
 * Serving: who can fill a position on a plan (conflicts), and a fair auto-fill of a range of plans.
 *
 * Pure: no PocketBase, no clock, no randomness. The resolvers load the plans, needs, positions,
 * candidates and assignments, call these functions, and write what the leader accepts. Same input →
 * same output: everything that is iterated is first sorted by an id, never taken in input order.
 *
 * Cost: assignments are indexed by person once (O(assignments)); a candidate check then reads only
 * that person's own assignments, so an auto-fill is O(places × candidates on the position × a
 * person's assignments). A quarter of 12 positions from 300 volunteers: ~4 ms once the JIT is warm,
 * 70–150 ms of CPU for the first call in a process (scripts/bench-autofill.ts, docs/PERFORMANCE.md).
 */
import { blockedOutDays, dayNumber, isBlockedOut, type Blockout } from "./blockouts.ts";

export type ClearanceKind = "background_check" | "training";

export interface Position {
  id: string;
  teamId: string;
  name: string;
  requires: ClearanceKind[];
}

export interface PlanSlot {
  id: string;
  date: string;
  /** the plan's times (rehearsal, services), for overlaps */
  times: { startsAt: string; endsAt: string }[];
  /** wall-clock start of the first service, "09:00", for preferences */
  serviceTime: string;
}

export interface Need {
  planId: string;
  positionId: string;
  count: number;
}

export interface Candidate {
  personId: string;
  name: string;
  householdId: string | null;
  /** the positions (of any team) this person can fill */
  positionIds: string[];
  /** valid when expiresOn is null or >= the plan's date */
  clearances: { kind: ClearanceKind; expiresOn: string | null }[];
  blockouts: Blockout[];
  preferences: {
    maxPerMonth: number | null;
    preferredTimes: string[];
    household: "none" | "together" | "apart";
  };
}

/** What is already scheduled or answered, across ALL teams (history included). */
export interface Assignment {
  personId: string;
  planId: string;
  positionId: string;
  date: string;
  times: { startsAt: string; endsAt: string }[];
  status: "pending" | "accepted" | "declined";
}

export type Conflict =
  | { kind: "not_on_position" }
  | { kind: "clearance_missing"; clearance: ClearanceKind }
  | { kind: "blocked_out" }
  /** already pending/accepted at an overlapping time (any team, any plan; the same plan always) */
  | { kind: "overlap"; planId: string; positionId: string }
  /** pending+accepted in that calendar month already >= maxPerMonth */
  | { kind: "over_preference"; maxPerMonth: number; inMonth: number }
  /** declined this same plan before */
  | { kind: "declined_before"; planId: string }
  /**
   * a household member is already on this plan, and the candidate or that member prefers apart (either
   * wish keeps them apart, so that the one scheduled first is not joined by the other later)
   */
  | { kind: "household_apart"; personId: string };

/** Another person of a candidate's household, for "together" and "apart". */
export interface HouseholdMember {
  personId: string;
  prefersApart: boolean;
}

export interface Reason {
  servedInWindow: number;
  windowWeeks: number;
  prefersTime: boolean;
  withHousehold: boolean;
}

export interface Proposal {
  planId: string;
  positionId: string;
  personId: string;
  reason: Reason;
}

export interface AutofillInput {
  plans: PlanSlot[];
  needs: Need[];
  positions: Position[];
  candidates: Candidate[];
  assignments: Assignment[];
  /** default 8 */
  windowWeeks?: number;
  /**
   * The households of people who are not candidates but may be on a plan (another team's volunteers),
   * for "together" and "apart". A candidate's own householdId and preference are always known.
   */
  households?: { personId: string; householdId: string | null; prefersApart: boolean }[];
}

export interface AutofillResult {
  proposals: Proposal[];
  unfilled: { planId: string; positionId: string; missing: number }[];
}

export const DEFAULT_WINDOW_WEEKS = 8;

// ---------------------------------------------------------------------------------------------------
// Prepared values: dates as day numbers and instants as epoch milliseconds, parsed once.

interface Interval {
  start: number;
  end: number;
}

interface PreparedPlan {
  slot: PlanSlot;
  day: number;
  /** "YYYY-MM", for maxPerMonth */
  month: string;
  intervals: Interval[];
}

/** One assignment (or a proposal of this run, as pending) of one person. */
interface Booking {
  planId: string;
  positionId: string;
  day: number;
  month: string;
  status: Assignment["status"];
  intervals: Interval[];
}

function instant(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO-8601 instant: "${iso}"`);
  return ms;
}

function intervalsOf(times: readonly { startsAt: string; endsAt: string }[]): Interval[] {
  return times.map((t) => ({ start: instant(t.startsAt), end: instant(t.endsAt) }));
}

function preparePlan(slot: PlanSlot): PreparedPlan {
  return {
    slot,
    day: dayNumber(slot.date),
    month: slot.date.slice(0, 7),
    intervals: intervalsOf(slot.times),
  };
}

function bookingOf(assignment: Assignment): Booking {
  return {
    planId: assignment.planId,
    positionId: assignment.positionId,
    day: dayNumber(assignment.date),
    month: assignment.date.slice(0, 7),
    status: assignment.status,
    intervals: intervalsOf(assignment.times),
  };
}

/** Pending and accepted assignments hold a place; a declined one does not. */
const isActive = (booking: { status: Assignment["status"] }) => booking.status !== "declined";

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------------
// Conflicts

function qualificationConflicts(candidate: Candidate, plan: PreparedPlan, position: Position): Conflict[] {
  const conflicts: Conflict[] = [];
  if (!candidate.positionIds.includes(position.id)) conflicts.push({ kind: "not_on_position" });
  for (const kind of new Set(position.requires)) {
    const valid = candidate.clearances.some(
      (c) => c.kind === kind && (c.expiresOn === null || c.expiresOn >= plan.slot.date),
    );
    if (!valid) conflicts.push({ kind: "clearance_missing", clearance: kind });
  }
  return conflicts;
}

/** Half-open intervals: a rehearsal ending at 09:00 does not overlap a service starting at 09:00. */
function intervalsOverlap(a: readonly Interval[], b: readonly Interval[]): boolean {
  return a.some((x) => b.some((y) => x.start < y.end && y.start < x.end));
}

function overlapConflicts(own: readonly Booking[], plan: PreparedPlan): Conflict[] {
  // The same plan always overlaps itself (even a plan without times): one person, one place per plan.
  const clashes = own.filter(
    (b) => isActive(b) && (b.planId === plan.slot.id || intervalsOverlap(b.intervals, plan.intervals)),
  );
  if (clashes.length === 0) return [];
  const keys = [...new Set(clashes.map((b) => `${b.planId}\u0000${b.positionId}`))].sort(compareStrings);
  return keys.map((key) => {
    const [planId = "", positionId = ""] = key.split("\u0000");
    return { kind: "overlap", planId, positionId };
  });
}

function monthlyConflicts(candidate: Candidate, own: readonly Booking[], plan: PreparedPlan): Conflict[] {
  const maxPerMonth = candidate.preferences.maxPerMonth;
  if (maxPerMonth === null) return [];
  const inMonth = own.filter((b) => isActive(b) && b.month === plan.month).length;
  return inMonth >= maxPerMonth ? [{ kind: "over_preference", maxPerMonth, inMonth }] : [];
}

function declinedConflicts(own: readonly Booking[], plan: PreparedPlan): Conflict[] {
  const declined = own.some((b) => b.status === "declined" && b.planId === plan.slot.id);
  return declined ? [{ kind: "declined_before", planId: plan.slot.id }] : [];
}

function householdConflicts(candidate: Candidate, householdOnPlan: readonly HouseholdMember[]): Conflict[] {
  const candidateApart = candidate.preferences.household === "apart";
  return householdOnPlan
    .filter((member) => candidateApart || member.prefersApart)
    .map((member) => ({ kind: "household_apart", personId: member.personId }));
}

/**
 * What rules a candidate out whatever is booked: not on the position, a clearance missing on the
 * date, a blockout. Auto-fill checks these once per plan and position, not once per place.
 */
function standingConflicts(
  candidate: Candidate,
  plan: PreparedPlan,
  position: Position,
  blocked: boolean,
): Conflict[] {
  return [
    ...qualificationConflicts(candidate, plan, position),
    ...(blocked ? [{ kind: "blocked_out" } as const] : []),
  ];
}

/**
 * What rules a candidate out given what is booked: their own bookings (all statuses) and the members
 * of their household who are on this plan (sorted, the candidate excluded).
 */
function bookingConflicts(
  candidate: Candidate,
  plan: PreparedPlan,
  own: readonly Booking[],
  householdOnPlan: readonly HouseholdMember[],
): Conflict[] {
  return [
    ...overlapConflicts(own, plan),
    ...monthlyConflicts(candidate, own, plan),
    ...declinedConflicts(own, plan),
    ...householdConflicts(candidate, householdOnPlan),
  ];
}

/**
 * Why `candidate` should not fill `position` on `plan`; [] when they can.
 *
 * `household` is the other people of the candidate's household with their "apart" wish: an assignment
 * carries no household, so without them "apart" could not be checked. (The one addition to the agreed
 * signature; it is required so that no caller leaves it out by accident.)
 */
export function conflictsFor(
  candidate: Candidate,
  plan: PlanSlot,
  position: Position,
  assignments: readonly Assignment[],
  household: readonly HouseholdMember[],
): Conflict[] {
  const own = assignments.filter((a) => a.personId === candidate.personId).map(bookingOf);
  const onPlan = new Set(
    assignments.filter((a) => a.planId === plan.id && isActive(a)).map((a) => a.personId),
  );
  const householdOnPlan = household
    .filter((member) => member.personId !== candidate.personId && onPlan.has(member.personId))
    .sort((a, b) => compareStrings(a.personId, b.personId));
  const prepared = preparePlan(plan);
  const blocked = isBlockedOut(candidate.blockouts, plan.date);
  return [
    ...standingConflicts(candidate, prepared, position, blocked),
    ...bookingConflicts(candidate, prepared, own, householdOnPlan),
  ];
}

// ---------------------------------------------------------------------------------------------------
// The ledger: every booking by person and by plan, growing with this run's proposals.

interface Ledger {
  byPerson: Map<string, Booking[]>;
  /** Who is on each plan (pending or accepted), for households. */
  onPlan: Map<string, Set<string>>;
  /** How many hold a place, by plan and position. */
  filled: Map<string, number>;
  householdOf: Map<string, string>;
  /** Household → its people, sorted by personId. */
  members: Map<string, HouseholdMember[]>;
}

const placeKey = (planId: string, positionId: string) => `${planId}\u0000${positionId}`;

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function record(ledger: Ledger, personId: string, booking: Booking): void {
  pushTo(ledger.byPerson, personId, booking);
  if (!isActive(booking)) return;
  const people = ledger.onPlan.get(booking.planId) ?? new Set<string>();
  ledger.onPlan.set(booking.planId, people.add(personId));
  const key = placeKey(booking.planId, booking.positionId);
  ledger.filled.set(key, (ledger.filled.get(key) ?? 0) + 1);
}

/** Everyone's household and "apart" wish; a candidate's own record wins over the extra list. */
function householdLinks(
  input: AutofillInput,
): Map<string, { householdId: string | null; member: HouseholdMember }> {
  const links = new Map<string, { householdId: string | null; member: HouseholdMember }>();
  for (const { personId, householdId, prefersApart } of input.households ?? []) {
    links.set(personId, { householdId, member: { personId, prefersApart } });
  }
  for (const { personId, householdId, preferences } of input.candidates) {
    links.set(personId, {
      householdId,
      member: { personId, prefersApart: preferences.household === "apart" },
    });
  }
  return links;
}

function buildLedger(input: AutofillInput): Ledger {
  const ledger: Ledger = {
    byPerson: new Map(),
    onPlan: new Map(),
    filled: new Map(),
    householdOf: new Map(),
    members: new Map(),
  };
  for (const assignment of input.assignments) record(ledger, assignment.personId, bookingOf(assignment));
  for (const [personId, { householdId, member }] of householdLinks(input)) {
    if (householdId === null) continue;
    ledger.householdOf.set(personId, householdId);
    pushTo(ledger.members, householdId, member);
  }
  for (const people of ledger.members.values()) people.sort((a, b) => compareStrings(a.personId, b.personId));
  return ledger;
}

/** The other members of `personId`'s household who are on `planId` (sorted by personId). */
function householdOnPlan(ledger: Ledger, personId: string, planId: string): HouseholdMember[] {
  const householdId = ledger.householdOf.get(personId);
  if (householdId === undefined) return [];
  const onPlan = ledger.onPlan.get(planId);
  return (ledger.members.get(householdId) ?? []).filter(
    (member) => member.personId !== personId && onPlan?.has(member.personId),
  );
}

// ---------------------------------------------------------------------------------------------------
// Auto-fill

interface Window {
  weeks: number;
  /** The last day of the range being filled: assignments already made up to it count as served. */
  endDay: number;
}

/**
 * Pending + accepted from `weeks` weeks before the plan's date (that day included: with weekly plans,
 * the last `weeks` Sundays) up to the end of the range, so places already taken later count too.
 */
function servedInWindow(own: readonly Booking[], plan: PreparedPlan, window: Window): number {
  const startDay = plan.day - 7 * window.weeks;
  return own.filter((b) => isActive(b) && b.day >= startDay && b.day <= window.endDay).length;
}

interface Choice {
  candidate: Candidate;
  reason: Reason;
}

/** Fewest served first; then a preferred time; then with their household; then personId. */
function better(a: Choice, b: Choice): boolean {
  if (a.reason.servedInWindow !== b.reason.servedInWindow) {
    return a.reason.servedInWindow < b.reason.servedInWindow;
  }
  if (a.reason.prefersTime !== b.reason.prefersTime) return a.reason.prefersTime;
  if (a.reason.withHousehold !== b.reason.withHousehold) return a.reason.withHousehold;
  return a.candidate.personId < b.candidate.personId;
}

/** How `candidate` ranks for a place on `plan`, whether or not a booking rules them out. */
function rankOf(
  candidate: Candidate,
  plan: PreparedPlan,
  own: readonly Booking[],
  household: readonly HouseholdMember[],
  window: Window,
): Choice {
  const reason: Reason = {
    servedInWindow: servedInWindow(own, plan, window),
    windowWeeks: window.weeks,
    prefersTime: candidate.preferences.preferredTimes.includes(plan.slot.serviceTime),
    withHousehold: candidate.preferences.household === "together" && household.length > 0,
  };
  return { candidate, reason };
}

/**
 * The best-ranked of `eligible` (no standing conflict) whom no booking rules out. Ranking is cheap
 * and the conflict check is not, so only someone who would beat the best so far is checked.
 */
function bestChoice(
  eligible: readonly Candidate[],
  plan: PreparedPlan,
  ledger: Ledger,
  window: Window,
): Choice | null {
  let best: Choice | null = null;
  for (const candidate of eligible) {
    const own = ledger.byPerson.get(candidate.personId) ?? [];
    const household = householdOnPlan(ledger, candidate.personId, plan.slot.id);
    const choice = rankOf(candidate, plan, own, household, window);
    if (best !== null && !better(choice, best)) continue;
    if (bookingConflicts(candidate, plan, own, household).length === 0) best = choice;
  }
  return best;
}

/** A proposal is booked as a pending assignment, so later checks in this run see it. */
function bookProposal(ledger: Ledger, plan: PreparedPlan, positionId: string, personId: string): void {
  record(ledger, personId, {
    planId: plan.slot.id,
    positionId,
    day: plan.day,
    month: plan.month,
    status: "pending",
    intervals: plan.intervals,
  });
}

/** Candidates by position, each list sorted by personId (the last tie-break, and determinism). */
function poolsByPosition(candidates: readonly Candidate[]): Map<string, Candidate[]> {
  const sorted = [...candidates].sort((a, b) => compareStrings(a.personId, b.personId));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.personId === sorted[i - 1]!.personId) {
      throw new Error(`autofill: candidate ${sorted[i]!.personId} is listed twice`);
    }
  }
  const pools = new Map<string, Candidate[]>();
  for (const candidate of sorted) {
    for (const positionId of new Set(candidate.positionIds)) pushTo(pools, positionId, candidate);
  }
  return pools;
}

/** One need per plan and position; a repeated one keeps its largest count. */
function needsByPlan(needs: readonly Need[]): Map<string, Map<string, number>> {
  const byPlan = new Map<string, Map<string, number>>();
  for (const need of needs) {
    const positions = byPlan.get(need.planId) ?? new Map<string, number>();
    positions.set(need.positionId, Math.max(need.count, positions.get(need.positionId) ?? 0));
    byPlan.set(need.planId, positions);
  }
  return byPlan;
}

/** The candidates who could take the position on this date at all (on it, cleared, not blocked out). */
function eligible(context: Context, plan: PreparedPlan, position: Position): Candidate[] {
  const pool = context.pools.get(position.id) ?? [];
  return pool.filter((candidate) => {
    const blocked = context.blockedOut.get(candidate.personId)?.(plan.day) ?? false;
    return standingConflicts(candidate, plan, position, blocked).length === 0;
  });
}

interface Context {
  ledger: Ledger;
  window: Window;
  positions: Map<string, Position>;
  pools: Map<string, Candidate[]>;
  /** Each candidate's blockouts, parsed once for all plans. */
  blockedOut: Map<string, (day: number) => boolean>;
  result: AutofillResult;
}

function positionNamed(context: Context, positionId: string): Position {
  const position = context.positions.get(positionId);
  if (!position) throw new Error(`autofill: a need names position ${positionId}, which is not in positions`);
  return position;
}

function fillNeed(context: Context, plan: PreparedPlan, need: EligibleNeed): void {
  const { ledger, window, result } = context;
  const { position, count, candidates } = need;
  let open = count - (ledger.filled.get(placeKey(plan.slot.id, position.id)) ?? 0);
  for (; open > 0; open--) {
    const choice = bestChoice(candidates, plan, ledger, window);
    if (!choice) break;
    const personId = choice.candidate.personId;
    result.proposals.push({ planId: plan.slot.id, positionId: position.id, personId, reason: choice.reason });
    bookProposal(ledger, plan, position.id, personId);
  }
  if (open > 0) result.unfilled.push({ planId: plan.slot.id, positionId: position.id, missing: open });
}

interface EligibleNeed {
  position: Position;
  count: number;
  /** Sorted by personId. */
  candidates: Candidate[];
}

/**
 * The plan's scarcest positions (fewest eligible) are filled first, so that a versatile volunteer is
 * not spent on a position others could have taken while the only drummer's place goes empty.
 */
function fillPlan(context: Context, plan: PreparedPlan, needs: ReadonlyMap<string, number>): void {
  const ordered: EligibleNeed[] = [...needs]
    .map(([positionId, count]) => {
      const position = positionNamed(context, positionId);
      return { position, count, candidates: eligible(context, plan, position) };
    })
    .sort(
      (a, b) => a.candidates.length - b.candidates.length || compareStrings(a.position.id, b.position.id),
    );
  for (const need of ordered) fillNeed(context, plan, need);
}

/**
 * Proposes volunteers for every open place of `needs` (count minus pending and accepted), plan by plan
 * in date order (then id), each place to the conflict-free candidate who served least in the window
 * (see `better` for the tie-breaks). Places nobody can take are reported as unfilled.
 */
export function autofill(input: AutofillInput): AutofillResult {
  const plans = input.plans
    .map(preparePlan)
    .sort((a, b) => a.day - b.day || compareStrings(a.slot.id, b.slot.id));
  const needs = needsByPlan(input.needs);
  const planIds = new Set(plans.map((p) => p.slot.id));
  const stray = [...needs.keys()].filter((id) => !planIds.has(id)).sort(compareStrings);
  if (stray.length > 0)
    throw new Error(`autofill: needs name plans that are not in plans: ${stray.join(", ")}`);

  const context: Context = {
    ledger: buildLedger(input),
    window: { weeks: input.windowWeeks ?? DEFAULT_WINDOW_WEEKS, endDay: plans.at(-1)?.day ?? 0 },
    positions: new Map(input.positions.map((p) => [p.id, p])),
    pools: poolsByPosition(input.candidates),
    blockedOut: new Map(input.candidates.map((c) => [c.personId, blockedOutDays(c.blockouts)])),
    result: { proposals: [], unfilled: [] },
  };
  for (const plan of plans) {
    const planNeeds = needs.get(plan.slot.id);
    needs.delete(plan.slot.id); // a plan listed twice is filled once
    if (planNeeds) fillPlan(context, plan, planNeeds);
  }
  return context.result;
}
