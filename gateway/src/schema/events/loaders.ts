import DataLoader from "dataloader";
import type { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type { EventExceptionRecord, EventRecord, OccurrenceCountsRecord } from "../../pocketbase/records.ts";
import { instantOf, pbDateOf } from "./occurrences.ts";

/** Events are read with their category. */
export const EXPAND = "category";

// Per-request loaders: exceptions and counts of many occurrences in one PocketBase call each.

/** The sign-up window of an occurrence, as the events hook decides it: open, or the refusal's code. */
export interface SignUpWindow {
  open: boolean;
  code: "rsvp_not_open" | "registration_not_open" | "registration_closed" | null;
}

export interface EventLoaders {
  exceptions: DataLoader<string, EventExceptionRecord[]>;
  counts: DataLoader<string, OccurrenceCountsRecord | null>;
  event: DataLoader<string, EventRecord | null>;
  /** By windowKey: the events hook's answer, null for an event the caller may not view. */
  windows: DataLoader<string, SignUpWindow | null>;
}
const loaders = new WeakMap<object, EventLoaders>();
export const countKey = (eventId: string, original: Temporal.Instant) => `${eventId}|${pbDateOf(original)}`;
/** An occurrence and the kind of sign-up asked about ("" for the event's own). */
export const windowKey = (
  eventId: string,
  original: Temporal.Instant,
  kind: "rsvp" | "registration" | "" = "",
) => `${eventId}|${pbDateOf(original)}|${kind}`;

/**
 * The rows of a collection that belong to some events (their exceptions, their counts), read through
 * the events themselves: `events?filter=id = …&expand=<collection>_via_event`. Most events have no
 * exception and most dates no sign-up, so asking the collection itself (`filter=event = …`) was a
 * filtered list that usually came back empty, and PocketBase answers those, past 3 in 3 s from one IP
 * (a church's Wi-Fi), after a random 0–500 ms sleep (issue 25). The events were just read under the
 * caller's rules, so this list is not empty; the expanded rows pass their own collection's rules.
 */
async function withEvents<T>(ctx: GatewayContext, ids: readonly string[], via: string): Promise<T[]> {
  const filter = ids.map((id) => ctx.pb.filter("id = {:id}", { id })).join(" || ");
  const events = await pbCall(() =>
    ctx.pb.collection("events").getFullList<{ expand?: Record<string, T[]> }>({
      filter,
      expand: via,
      fields: `id,expand.${via}`,
      batch: 500,
    }),
  );
  return events.flatMap((event) => event.expand?.[via] ?? []);
}

export function loadersOf(ctx: GatewayContext): EventLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    l = {
      exceptions: new DataLoader(
        async (ids) => {
          const rows = await withEvents<EventExceptionRecord>(ctx, ids, "event_exceptions_via_event");
          return ids.map((id) => rows.filter((r) => r.event === id));
        },
        { maxBatchSize: 50 },
      ),
      counts: new DataLoader(
        async (keys) => {
          const ids = [...new Set(keys.map((key) => key.split("|")[0]!))];
          const rows = await withEvents<OccurrenceCountsRecord>(ctx, ids, "occurrence_counts_via_event");
          const byKey = new Map(rows.map((r) => [`${r.event}|${pbDateOf(instantOf(r.occurrenceStart))}`, r]));
          return keys.map((k) => byKey.get(k) ?? null);
        },
        { maxBatchSize: 40 },
      ),
      event: new DataLoader(
        async (ids) => {
          const filter = ids.map((id) => ctx.pb.filter("id = {:id}", { id })).join(" || ");
          const rows = await pbCall(() =>
            ctx.pb.collection("events").getFullList<EventRecord>({ filter, expand: EXPAND }),
          );
          return ids.map((id) => rows.find((r) => r.id === id) ?? null);
        },
        { maxBatchSize: 50 },
      ),
      // The events hook answers the windows of many occurrences in one call (pb_hooks/events.pb.js).
      windows: new DataLoader(
        async (keys) => {
          const occurrences = keys.map((key) => {
            const [event, occurrence, kind] = key.split("|");
            return { event, occurrence, ...(kind ? { kind } : {}) };
          });
          return pbCall(() =>
            ctx.pb.send<Array<SignUpWindow | null>>("/api/flock/events/sign-up-windows", {
              method: "POST",
              body: { occurrences },
            }),
          );
        },
        { maxBatchSize: 100 },
      ),
    };
    loaders.set(ctx, l);
  }
  return l;
}
