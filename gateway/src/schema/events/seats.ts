import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type { OccurrenceCountsRecord } from "../../pocketbase/records.ts";
import { NewestVersion } from "../../realtime/newest-version.ts";
import { isoOf, pbDateOf } from "./occurrences.ts";
import { requireOccurrence } from "./reads.ts";

/** Live counts of one occurrence: PocketBase's changes of its occurrence_counts row, under the viewer's rules. */
export async function subscribeToSeats(ctx: GatewayContext, eventId: string, originalStart: string) {
  const o = await requireOccurrence(ctx, eventId, originalStart);
  const occurrenceStart = pbDateOf(o.originalStart.toInstant());
  const queue = ctx.realtime.subscribe<OccurrenceCountsRecord>(
    await ctx.realtimeIdentity(),
    "occurrence_counts",
    "*",
    {
      filter: ctx.pb.filter("event = {:e} && occurrenceStart = {:o}", { e: eventId, o: occurrenceStart }),
    },
  );
  await queue.ready;
  const capacity = o.event.registrationMode === "registration" && o.event.capacity ? o.event.capacity : null;
  // Seats left as the events hook counted them (occurrence_counts.seatsLeft); no row yet: every seat.
  const seats = (r: OccurrenceCountsRecord | null) => ({
    originalStart: isoOf(o.originalStart.toInstant()),
    seatsLeft: capacity === null ? null : r ? r.seatsLeft : capacity,
    confirmedCount: r?.confirmed ?? 0,
    waitlistCount: r?.waitlisted ?? 0,
    goingCount: r?.going ?? 0,
  });
  // Two recounts in one write (a cancellation, then the promotion it causes) may arrive in either order.
  const newest = new NewestVersion();
  const iterator: AsyncIterableIterator<ReturnType<typeof seats>> = {
    async next() {
      for (;;) {
        const result = await queue.next();
        if (result.done) return { done: true, value: undefined };
        const event = result.value;
        if (event.type === "resync") {
          const rows = await pbCall(() =>
            ctx.pb.collection("occurrence_counts").getList<OccurrenceCountsRecord>(1, 1, {
              filter: ctx.pb.filter("event = {:e} && occurrenceStart = {:o}", {
                e: eventId,
                o: occurrenceStart,
              }),
              skipTotal: true,
            }),
          );
          const row = rows.items[0] ?? null;
          if (row) newest.reset(row.version);
          return { done: false, value: seats(row) };
        }
        if (event.action === "delete" || !newest.accept(event.record.version)) continue;
        return { done: false, value: seats(event.record) };
      }
    },
    async return() {
      await queue.return();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return iterator;
}
