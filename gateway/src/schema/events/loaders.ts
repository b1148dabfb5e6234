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

export function loadersOf(ctx: GatewayContext): EventLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    l = {
      exceptions: new DataLoader(
        async (ids) => {
          const filter = ids.map((id) => ctx.pb.filter("event = {:id}", { id })).join(" || ");
          const rows = await pbCall(() =>
            ctx.pb.collection("event_exceptions").getFullList<EventExceptionRecord>({ filter, batch: 500 }),
          );
          return ids.map((id) => rows.filter((r) => r.event === id));
        },
        { maxBatchSize: 50 },
      ),
      counts: new DataLoader(
        async (keys) => {
          const filter = keys
            .map((key) => {
              const [event, start] = key.split("|");
              return ctx.pb.filter("(event = {:e} && occurrenceStart = {:s})", { e: event, s: start });
            })
            .join(" || ");
          const rows = await pbCall(() =>
            ctx.pb
              .collection("occurrence_counts")
              .getFullList<OccurrenceCountsRecord>({ filter, batch: 500 }),
          );
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
