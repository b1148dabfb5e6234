import { ClientResponseError } from "pocketbase";
import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, pbCall } from "../../errors.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { MutationResolvers } from "../__generated__/types.ts";
import { chooseSlug } from "../../pocketbase/slugs.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { requireViewer } from "../../access/guards.ts";
import type {
  EventExceptionRecord,
  EventRecord,
  RegistrationRecord,
  RsvpRecord,
} from "../../pocketbase/records.ts";
import { expand, formatRRule, splitSeries } from "./recurrence.ts";
import { instantOf, pbDateOf, seriesOf } from "./occurrences.ts";
import { EXPAND, loadersOf } from "./loaders.ts";
import { requireEvent, requireOccurrence } from "./reads.ts";
import { localToInstant, ownerGroupOf, parseInstant, validateEvent } from "./validation.ts";
import { mailCancelled } from "./mails.ts";

// A series' single dates (cancel, move, restore) and "this and following" (a split into a new series).

async function exceptionFor(
  ctx: GatewayContext,
  eventId: string,
  original: Temporal.Instant,
): Promise<EventExceptionRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("event_exceptions").getList<EventExceptionRecord>(1, 1, {
      filter: ctx.pb.filter("event = {:e} && originalStart = {:o}", { e: eventId, o: pbDateOf(original) }),
      skipTotal: true,
    }),
  );
  return rows.items[0] ?? null;
}

async function saveException(
  ctx: GatewayContext,
  eventId: string,
  original: Temporal.Instant,
  data: Record<string, unknown>,
) {
  const existing = await exceptionFor(ctx, eventId, original);
  if (existing) await writeAsCaller(() => ctx.pb.collection("event_exceptions").update(existing.id, data));
  else
    await writeAsCaller(() =>
      ctx.pb
        .collection("event_exceptions")
        .create({ event: eventId, originalStart: pbDateOf(original), note: "", ...data }),
    );
}

/**
 * After "this and following": RSVPs and registrations from the split on follow the new series to its
 * occurrence on the same local date (the usual reason to split is a new time or place). One whose date the
 * new series does not have, or that no longer fits its capacity, stays on the old series for staff to move.
 */
async function moveSignUpsToSplit(
  ctx: GatewayContext,
  old: EventRecord,
  created: EventRecord,
  from: Temporal.Instant,
): Promise<void> {
  const filter = ctx.pb.filter("event = {:e} && occurrenceStart >= {:from}", {
    e: old.id,
    from: pbDateOf(from),
  });
  const [rsvps, registrations] = await Promise.all([
    pbCall(() =>
      ctx.pb
        .collection("rsvps")
        .getFullList<RsvpRecord>({ filter, sort: "occurrenceStart,created", fields: "id,occurrenceStart" }),
    ),
    // In the order they came (seats and waitlist places are given again in that order); cancelled ones stay as records of the old date.
    pbCall(() =>
      ctx.pb.collection("registrations").getFullList<RegistrationRecord>({
        filter: `${filter} && status != 'cancelled'`,
        sort: "occurrenceStart,status,waitlistPosition,created",
        fields: "id,occurrenceStart",
      }),
    ),
  ]);
  const rows = [
    ...rsvps.map((r) => ({ collection: "rsvps" as const, ...r })),
    ...registrations.map((r) => ({ collection: "registrations" as const, ...r })),
  ];
  if (!rows.length) return;
  const last = instantOf(
    rows.reduce((max, r) => (r.occurrenceStart > max ? r.occurrenceStart : max), rows[0]!.occurrenceStart),
  );
  const dateOf = (instant: Temporal.Instant, zone: string) =>
    instant.toZonedDateTimeISO(zone).toPlainDate().toString();
  const newStarts = new Map<string, Temporal.Instant>();
  for (const occurrence of expand(seriesOf(created), from.subtract({ hours: 48 }), last.add({ hours: 48 }))) {
    newStarts.set(
      dateOf(occurrence.originalStart.toInstant(), created.timezone),
      occurrence.originalStart.toInstant(),
    );
  }
  for (const row of rows) {
    const target = newStarts.get(dateOf(instantOf(row.occurrenceStart), old.timezone));
    if (!target) continue;
    try {
      await writeAsCaller(() =>
        ctx.pb
          .collection(row.collection)
          .update(row.id, { event: created.id, occurrenceStart: pbDateOf(target) }),
      );
    } catch (error) {
      if (!(error instanceof ClientResponseError && error.status === 400)) throw error; // no seats there: stays for staff
    }
  }
}

/** Changes to one date of a series, and splitting a series in two. */
export const seriesMutations: Pick<
  MutationResolvers,
  "cancelOccurrence" | "moveOccurrence" | "restoreOccurrence" | "splitEvent"
> = {
  async cancelOccurrence(_, { eventId, originalStart, note }, ctx) {
    await requireViewer(ctx);
    const o = await requireOccurrence(ctx, eventId, originalStart);
    const text = (note ?? "").trim().slice(0, LIMITS.occurrenceNoteMax);
    await saveException(ctx, eventId, o.originalStart.toInstant(), {
      status: "cancelled",
      startsAt: "",
      endsAt: "",
      note: text,
    });
    if (o.status !== "CANCELLED" && o.event.status === "published") {
      ctx.afterResponse(
        () =>
          void mailCancelled(ctx, o.event, o.originalStart.toInstant(), text).catch((error: unknown) =>
            console.error("[events] cancellation mail failed:", error),
          ),
      );
    }
    loadersOf(ctx).exceptions.clear(eventId); // the answer's occurrences must include the new exception
    return requireEvent(ctx, eventId);
  },
  async moveOccurrence(_, { eventId, originalStart, startsAt, endsAt, note }, ctx) {
    await requireViewer(ctx);
    const o = await requireOccurrence(ctx, eventId, originalStart);
    const v = new Validator();
    const start = localToInstant(v, "startsAt", startsAt, o.event.timezone);
    const end = localToInstant(v, "endsAt", endsAt, o.event.timezone);
    if (start && end && Temporal.ZonedDateTime.compare(end, start) < 0)
      v.add("endsAt", "before_start", "The end must not be before the start.");
    v.done();
    await saveException(ctx, eventId, o.originalStart.toInstant(), {
      status: "moved",
      startsAt: pbDateOf(start!.toInstant()),
      endsAt: pbDateOf(end!.toInstant()),
      note: (note ?? "").trim().slice(0, LIMITS.occurrenceNoteMax),
    });
    loadersOf(ctx).exceptions.clear(eventId);
    return requireEvent(ctx, eventId);
  },
  async restoreOccurrence(_, { eventId, originalStart }, ctx) {
    await requireViewer(ctx);
    await requireEvent(ctx, eventId);
    const existing = await exceptionFor(ctx, eventId, parseInstant("originalStart", originalStart));
    if (existing) await writeAsCaller(() => ctx.pb.collection("event_exceptions").delete(existing.id));
    loadersOf(ctx).exceptions.clear(eventId);
    return requireEvent(ctx, eventId);
  },
  async splitEvent(_, { id, originalStart, input }, ctx) {
    const viewer = await requireViewer(ctx);
    const current = await requireEvent(ctx, id);
    if (!current.rrule)
      throw badUserInput({
        originalStart: { code: "not_recurring", message: "Only a repeating event can be split." },
      });
    const o = await requireOccurrence(ctx, id, originalStart);
    const data = validateEvent(input);
    // The new series stays the group's unless the input says otherwise.
    const owner =
      input.ownerGroupId === undefined
        ? { ownerGroup: current.ownerGroup ?? "" }
        : await ownerGroupOf(ctx, input.ownerGroupId);
    const { head } = splitSeries(seriesOf(current), o.originalStart);
    const slug = await chooseSlug(
      ctx.pb,
      "events",
      input.slug && input.slug !== current.slug ? input.slug : null,
      String(data.title),
    );
    const created = await writeAsCaller(() =>
      ctx.pb.collection("events").create<EventRecord>(
        {
          summary: "",
          description: "",
          visibility: current.visibility,
          registrationMode: current.registrationMode,
          ...data,
          ...owner,
          slug,
          status: current.status,
          splitFrom: current.id,
          updatedBy: viewer.id,
        },
        { expand: EXPAND },
      ),
    );
    // Exceptions from the split on follow the new series; the old one ends before it (or goes, when nothing is left).
    const later = (await loadersOf(ctx).exceptions.load(id)).filter(
      (x) => Temporal.Instant.compare(instantOf(x.originalStart), o.originalStart.toInstant()) >= 0,
    );
    for (const x of later)
      await writeAsCaller(() => ctx.pb.collection("event_exceptions").update(x.id, { event: created.id }));
    await moveSignUpsToSplit(ctx, current, created, o.originalStart.toInstant());
    if (head) {
      const exdates = (head.exdates ?? []).map((d) => d.toString()).join(",");
      await writeAsCaller(() =>
        ctx.pb.collection("events").update(id, { rrule: formatRRule(head.rule!), exdates }),
      );
    } else {
      await writeAsCaller(() => ctx.pb.collection("events").update(id, { status: "cancelled" }));
    }
    return created;
  },
};
