import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall } from "../../errors.ts";
import type { EventRecord } from "../../pocketbase/records.ts";
import { EXPAND, loadersOf } from "./loaders.ts";
import {
  MAX_RANGE_DAYS,
  occurrenceAt,
  occurrencesOf,
  pbDateOf,
  type OccurrenceModel,
} from "./occurrences.ts";
import { parseInstant } from "./validation.ts";

// Reading events and occurrences.

const MAX_EVENTS_PER_RANGE = 500;

export function parseRange(from: string, to: string): { from: Temporal.Instant; to: Temporal.Instant } {
  let start: Temporal.Instant, end: Temporal.Instant;
  try {
    start = Temporal.Instant.from(from);
    end = Temporal.Instant.from(to);
  } catch {
    throw badUserInput({ from: { code: "invalid_date", message: "Use ISO date-times with an offset." } });
  }
  if (Temporal.Instant.compare(end, start) <= 0)
    throw badUserInput({ to: { code: "before_start", message: "The end must be after the start." } });
  if (end.epochMilliseconds - start.epochMilliseconds > MAX_RANGE_DAYS * 86_400_000) {
    throw badUserInput({ to: { code: "range_too_long", message: "Ask for at most 18 months at a time." } });
  }
  return { from: start, to: end };
}

/**
 * The events that may have a date in [from, to), under the caller's rules. On the home page and the
 * calendar of every church, so the read must never be a filtered list that comes back empty: PocketBase
 * answers those, past 3 in 3 s from one IP (a church's Wi-Fi), after a random 0–500 ms sleep (issue 25).
 * So the caller's newest event is read first, without a filter (the rule's own list); none: the church
 * has no event this caller may see, and nothing else is asked. Otherwise the window's filter also admits
 * that one event by its id — it can no longer come back empty — and the event is kept only if it
 * belongs to the window.
 */
async function eventsOverlapping(
  ctx: GatewayContext,
  from: Temporal.Instant,
  to: Temporal.Instant,
  categorySlug?: string | null,
): Promise<EventRecord[]> {
  const newest = await pbCall(() =>
    ctx.pb.collection("events").getList<EventRecord>(1, 1, { sort: "-startsAt,-id", skipTotal: true }),
  );
  const anchor = newest.items[0];
  if (!anchor) return [];
  const filters = [
    'status != "draft"',
    ctx.pb.filter("startsAt < {:to} && (rrule != '' || endsAt > {:from})", {
      from: pbDateOf(from),
      to: pbDateOf(to),
    }),
  ];
  if (categorySlug) filters.push(ctx.pb.filter("category.slug = {:c}", { c: categorySlug }));
  const window = filters.join(" && ");
  const rows = await pbCall(() =>
    ctx.pb.collection("events").getList<EventRecord>(1, MAX_EVENTS_PER_RANGE + 1, {
      filter: `(${window}) || ${ctx.pb.filter("id = {:anchor}", { anchor: anchor.id })}`,
      sort: "startsAt,id",
      expand: EXPAND,
      skipTotal: true,
    }),
  );
  const inWindow = (event: EventRecord) =>
    event.status !== "draft" &&
    event.startsAt < pbDateOf(to) &&
    (event.rrule !== "" || event.endsAt > pbDateOf(from)) &&
    (!categorySlug || event.expand?.category?.slug === categorySlug);
  return rows.items
    .filter((event) => event.id !== anchor.id || inWindow(event))
    .slice(0, MAX_EVENTS_PER_RANGE);
}

export async function occurrencesIn(
  ctx: GatewayContext,
  from: Temporal.Instant,
  to: Temporal.Instant,
  categorySlug?: string | null,
): Promise<OccurrenceModel[]> {
  const events = await eventsOverlapping(ctx, from, to, categorySlug);
  const exceptions = await Promise.all(events.map((e) => loadersOf(ctx).exceptions.load(e.id)));
  const all = events.flatMap((event, i) => {
    try {
      return occurrencesOf(event, exceptions[i]!, from, to);
    } catch {
      return []; // a rule written outside the gateway that does not parse shows nothing rather than failing the calendar
    }
  });
  return all.sort(
    (a, b) =>
      Temporal.Instant.compare(a.start.toInstant(), b.start.toInstant()) ||
      a.event.title.localeCompare(b.event.title),
  );
}

export async function findEvent(ctx: GatewayContext, filter: string): Promise<EventRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("events").getList<EventRecord>(1, 1, { filter, expand: EXPAND, skipTotal: true }),
  );
  return rows.items[0] ?? null;
}

export async function requireEvent(ctx: GatewayContext, id: string): Promise<EventRecord> {
  const event = await findEvent(ctx, ctx.pb.filter("id = {:id}", { id }));
  if (!event) throw notFound();
  return event;
}

/** The occurrence the caller means (by its original start); NOT_FOUND when the series has none then. */
export async function requireOccurrence(
  ctx: GatewayContext,
  eventId: string,
  originalStart: string,
): Promise<OccurrenceModel> {
  const event = await requireEvent(ctx, eventId);
  const original = parseInstant("originalStart", originalStart);
  const occurrence = occurrenceAt(event, await loadersOf(ctx).exceptions.load(event.id), original);
  if (!occurrence)
    throw badUserInput({
      originalStart: { code: "no_such_occurrence", message: "The event does not take place then." },
    });
  return occurrence;
}
