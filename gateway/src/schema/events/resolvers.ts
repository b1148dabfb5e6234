import { checkedImageFile } from "../../pocketbase/image-file.ts";
import { Temporal } from "temporal-polyfill";
import { badUserInput, pbCall } from "../../errors.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { chooseSlug } from "../../pocketbase/slugs.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { renderBody } from "../../markdown/body.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import { requireViewer } from "../../access/guards.ts";
import { seesRsvpEmail } from "../../access/events.ts";
import { expand, isTimeZone, parseRRule, RecurrenceError } from "./recurrence.ts";
import {
  dateKeyOf,
  describeRule,
  instantOf,
  isoOf,
  MAX_RANGE_DAYS,
  occurrencesOf,
  pbDateOf,
  seriesOf,
  type OccurrenceModel,
} from "./occurrences.ts";
import type {
  EventCategoryRecord,
  EventRecord,
  RegistrationRecord,
  RsvpRecord,
} from "../../pocketbase/records.ts";
import { googleCalendarUrl } from "./ics.ts";
import { countKey, EXPAND, loadersOf } from "./loaders.ts";
import { findEvent, occurrencesIn, parseRange, requireEvent } from "./reads.ts";
import { localToInstant, ownerGroupOf, validateEvent } from "./validation.ts";
import { mailCancelled } from "./mails.ts";
import { seriesMutations } from "./series.ts";
import { newToken, signUpMutations, signUpQueries, signUpWindow } from "./sign-ups.ts";
import { subscribeToSeats } from "./seats.ts";

/**
 * Events (issue 14). Every read and write runs with the caller's token: PocketBase's rules decide who
 * sees drafts and members-only events, whose RSVPs and registrations are whose. Capacity, the
 * waitlist and promotion are decided by pb_hooks/events.pb.js inside each write's transaction. The
 * system client is used only to mail people whom a cancellation promoted from the waitlist.
 */

/**
 * The feature's resolvers' map. The parts live by concern: loaders.ts (batched reads), reads.ts (events
 * and occurrences), validation.ts, series.ts (single dates, splits), sign-ups.ts (RSVPs, registrations),
 * mails.ts, csv.ts, seats.ts (live counts).
 */
export const eventsResolvers: Resolvers = {
  Query: {
    async occurrences(_, { from, to, categorySlug }, ctx) {
      const range = parseRange(from, to);
      return occurrencesIn(ctx, range.from, range.to, categorySlug);
    },
    async upcomingOccurrences(_, { first, categorySlug }, ctx) {
      const size = Math.min(Math.max(first ?? 5, 1), 50);
      const now = Temporal.Now.instant();
      const found = await occurrencesIn(ctx, now, now.add({ hours: 24 * 120 }), categorySlug);
      return found.filter((o) => o.status !== "CANCELLED").slice(0, size);
    },
    async occurrence(_, { slug, date }, ctx) {
      const event = await findEvent(ctx, ctx.pb.filter("slug = {:slug}", { slug }));
      if (!event) return null;
      const exceptions = await loadersOf(ctx).exceptions.load(event.id);
      let all: OccurrenceModel[];
      try {
        if (date) {
          if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
            throw badUserInput({ date: { code: "invalid_date", message: "Use a date like 2026-12-06." } });
          const day = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: event.timezone });
          // The occurrence whose original start falls on that local date.
          all = occurrencesOf(
            event,
            exceptions,
            day.subtract({ days: 400 }).toInstant(),
            day.add({ days: 400 }).toInstant(),
          ).filter((o) => dateKeyOf(o) === date);
        } else {
          const now = Temporal.Now.instant();
          all = occurrencesOf(event, exceptions, now, now.add({ hours: 24 * MAX_RANGE_DAYS }));
          if (!all.length)
            all = occurrencesOf(
              event,
              exceptions,
              instantOf(event.startsAt),
              instantOf(event.startsAt).add({ hours: 24 * MAX_RANGE_DAYS }),
            ).slice(-1);
        }
      } catch (error) {
        if (error instanceof RecurrenceError) return null;
        throw error;
      }
      return all[0] ?? null;
    },
    event: (_, { slug }, ctx) => findEvent(ctx, ctx.pb.filter("slug = {:slug}", { slug })),
    eventById: (_, { id }, ctx) => findEvent(ctx, ctx.pb.filter("id = {:id}", { id })),
    async events(_, { first, search }, ctx) {
      const size = Math.min(Math.max(first ?? 50, 1), 100);
      const q = search?.trim().slice(0, LIMITS.searchMax);
      const rows = await pbCall(() =>
        ctx.pb.collection("events").getList<EventRecord>(1, size, {
          filter: q ? ctx.pb.filter("title ~ {:q}", { q }) : "",
          sort: "-startsAt,id",
          expand: EXPAND,
          skipTotal: true,
        }),
      );
      return rows.items;
    },
    eventCategories: async (_, __, ctx) =>
      (
        await pbCall(() =>
          ctx.pb
            .collection("event_categories")
            .getList<EventCategoryRecord>(1, 100, { sort: "name", skipTotal: true }),
        )
      ).items,
    recurrencePreview(_, { input }) {
      const v = new Validator();
      if (!isTimeZone(input.timezone))
        v.add("timezone", "invalid_timezone", "Choose a time zone like America/Chicago.");
      v.done();
      const start = localToInstant(v, "startsAt", input.startsAt, input.timezone);
      v.done();
      let rule;
      try {
        rule = parseRRule(input.rrule, input.timezone);
      } catch {
        throw badUserInput({ rrule: { code: "rule_invalid", message: "This repeat rule cannot be used." } });
      }
      const count = Math.min(Math.max(input.count ?? 5, 1), 20);
      const dates = expand(
        { start: start!, end: start!, rule },
        start!.toInstant(),
        start!.toInstant().add({ hours: 24 * 366 * 5 }),
        count,
      );
      if (!dates.length)
        throw badUserInput({
          rrule: {
            code: "rule_yields_nothing",
            message: "This rule gives no dates: check the days and the end.",
          },
        });
      return {
        text: describeRule(rule, start!, input.locale),
        dates: dates.map((o) => isoOf(o.start.toInstant())),
      };
    },
    ...signUpQueries,
  },

  Mutation: {
    async createEvent(_, { input }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validateEvent(input);
      const owner = await ownerGroupOf(ctx, input.ownerGroupId);
      const slug = await chooseSlug(ctx.pb, "events", input.slug, String(data.title));
      return writeAsCaller(() =>
        ctx.pb.collection("events").create<EventRecord>(
          {
            summary: "",
            description: "",
            visibility: "public",
            registrationMode: "none",
            ...data,
            ...owner,
            slug,
            status: "draft",
            updatedBy: viewer.id,
          },
          { expand: EXPAND },
        ),
      );
    },
    async updateEvent(_, { id, input }, ctx) {
      const viewer = await requireViewer(ctx);
      const current = await requireEvent(ctx, id);
      // An omitted rule or capacity stays as it is (null or empty clears it); the kept rule is checked against the new start.
      const data = validateEvent({
        ...input,
        rrule: input.rrule === undefined ? current.rrule : input.rrule,
        capacity: input.capacity === undefined ? current.capacity : input.capacity,
      });
      const owner = await ownerGroupOf(ctx, input.ownerGroupId);
      const slug =
        !input.slug || input.slug === current.slug
          ? current.slug
          : await chooseSlug(ctx.pb, "events", input.slug, String(data.title), id);
      // Exceptions are kept: they are keyed by original start, which the same rule still generates.
      return writeAsCaller(() =>
        ctx.pb
          .collection("events")
          .update<EventRecord>(id, { ...data, ...owner, slug, updatedBy: viewer.id }, { expand: EXPAND }),
      );
    },
    async setEventImage(_, { id, file }, ctx) {
      await requireViewer(ctx);
      await requireEvent(ctx, id);
      const image = file ? await checkedImageFile(file, "cover") : null;
      return writeAsCaller(() =>
        ctx.pb.collection("events").update<EventRecord>(id, { image }, { expand: EXPAND }),
      );
    },
    async publishEvent(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireEvent(ctx, id);
      return writeAsCaller(() =>
        ctx.pb.collection("events").update<EventRecord>(id, { status: "published" }, { expand: EXPAND }),
      );
    },
    async cancelEvent(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await requireEvent(ctx, id);
      const cancelled = await writeAsCaller(() =>
        ctx.pb.collection("events").update<EventRecord>(id, { status: "cancelled" }, { expand: EXPAND }),
      );
      if (current.status === "published") {
        ctx.afterResponse(
          () =>
            void mailCancelled(ctx, cancelled, null).catch((error: unknown) =>
              console.error("[events] cancellation mail failed:", error),
            ),
        );
      }
      return cancelled;
    },
    async deleteEvent(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireEvent(ctx, id);
      await writeAsCaller(() => ctx.pb.collection("events").delete(id));
      return true;
    },
    async createEventCategory(_, { input }, ctx) {
      await requireViewer(ctx);
      const v = new Validator();
      const name = v.text("name", input.name, { required: true, max: LIMITS.nameMax });
      const color = input.color?.trim() ?? "";
      if (color && !/^#[0-9a-fA-F]{6}$/.test(color))
        v.add("color", "invalid_color", "Use a colour like #1f6feb.");
      v.done();
      const slug = await chooseSlug(ctx.pb, "event_categories", input.slug, name);
      return writeAsCaller(() =>
        ctx.pb.collection("event_categories").create<EventCategoryRecord>({ name, slug, color }),
      );
    },

    async resetCalendarToken(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      const token = newToken();
      // System job: the token is a hidden field the owner cannot write through the API.
      const system = await ctx.system.get();
      await system.collection("users").update(viewer.id, { calendarToken: token });
      return `${ctx.config.publicUrl}/feeds/me/${token}.ics`;
    },
    ...seriesMutations,
    ...signUpMutations,
  },

  Subscription: {
    occurrenceSeats: {
      subscribe: async (_, { eventId, originalStart }, ctx) =>
        subscribeToSeats(ctx, eventId, originalStart) as never,
      resolve: (value: unknown) => value as never,
    },
  },

  Event: {
    path: (e) => `/events/${e.slug}`,
    url: (e, _, ctx) => `${new URL(ctx.config.publicUrl).origin}/events/${e.slug}`,
    summary: (e) => e.summary ?? "",
    description: (e) => e.description ?? "",
    descriptionHtml: (e, _, ctx) =>
      e.description ? renderBody(ctx, `event:${e.id}:${e.updated}`, e.description) : "",
    imageUrl: (e) => (e.image ? `/files/events/${e.id}/${encodeURIComponent(e.image)}?thumb=1200x630` : null),
    cardImageUrl: (e) =>
      e.image ? `/files/events/${e.id}/${encodeURIComponent(e.image)}?thumb=640x360` : null,
    category: (e) => e.expand?.category ?? null,
    ownerGroupId: (e) => e.ownerGroup || null,
    locationName: (e) => e.locationName ?? "",
    locationAddress: (e) => e.locationAddress ?? "",
    mapUrl: (e) =>
      e.locationAddress
        ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(e.locationAddress)}`
        : null,
    startsAt: (e) => fromPocketBaseDate(e.startsAt),
    endsAt: (e) => fromPocketBaseDate(e.endsAt),
    allDay: (e) => !!e.allDay,
    rrule: (e) => e.rrule || null,
    recurrenceText(e, { locale }) {
      if (!e.rrule) return null;
      try {
        const series = seriesOf(e);
        return describeRule(series.rule!, series.start, locale);
      } catch {
        return null;
      }
    },
    exdates: (e) => (e.exdates ? e.exdates.split(",").filter(Boolean) : []),
    registrationMode: (e) => e.registrationMode || "none",
    capacity: (e) => e.capacity || null,
    waitlistEnabled: (e) => !!e.waitlistEnabled,
    questions: (e) => e.questions ?? [],
    registrationOpensAt: (e) => (e.registrationOpensAt ? fromPocketBaseDate(e.registrationOpensAt) : null),
    registrationClosesAt: (e) => (e.registrationClosesAt ? fromPocketBaseDate(e.registrationClosesAt) : null),
    exceptions: (e, _, ctx) => loadersOf(ctx).exceptions.load(e.id),
    async nextOccurrences(e, { first }, ctx) {
      const now = Temporal.Now.instant();
      const size = Math.min(Math.max(first ?? 5, 1), 20);
      try {
        return occurrencesOf(
          e,
          await loadersOf(ctx).exceptions.load(e.id),
          now,
          now.add({ hours: 24 * MAX_RANGE_DAYS }),
        ).slice(0, size);
      } catch {
        return [];
      }
    },
    updated: (e) => fromPocketBaseDate(e.updated),
  },
  EventCategory: {
    color: (c) => c.color || null,
    feedUrl: (c, _, ctx) => `${ctx.config.publicUrl}/feeds/events/${c.slug}.ics`,
  },
  EventException: {
    originalStart: (x) => fromPocketBaseDate(x.originalStart),
    status: (x) => (x.status === "moved" ? "MOVED" : "CANCELLED"),
    startsAt: (x) => (x.startsAt ? fromPocketBaseDate(x.startsAt) : null),
    endsAt: (x) => (x.endsAt ? fromPocketBaseDate(x.endsAt) : null),
    note: (x) => x.note ?? "",
  },
  Occurrence: {
    id: (o) => `${o.event.id}:${o.originalStart.toInstant().epochMilliseconds}`,
    start: (o) => isoOf(o.start.toInstant()),
    end: (o) => isoOf(o.end.toInstant()),
    originalStart: (o) => isoOf(o.originalStart.toInstant()),
    date: (o) => dateKeyOf(o),
    path: (o) => `/events/${o.event.slug}?date=${dateKeyOf(o)}`,
    async seatsLeft(o, _, ctx) {
      if (o.event.registrationMode !== "registration" || !o.event.capacity) return null;
      const counts = await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant()));
      // As the events hook counted them; a date nobody registered for yet has every seat.
      return counts ? counts.seatsLeft : o.event.capacity;
    },
    confirmedCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.confirmed ?? 0,
    waitlistCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.waitlisted ?? 0,
    goingCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.going ?? 0,
    registrationOpen: async (o, _, ctx) => (await signUpWindow(ctx, o)).open,
    async myRsvp(o, _, ctx) {
      const viewer = await ctx.viewer();
      if (!viewer) return null;
      const rows = await pbCall(() =>
        ctx.pb.collection("rsvps").getList<RsvpRecord>(1, 1, {
          filter: ctx.pb.filter("event = {:e} && occurrenceStart = {:o}", {
            e: o.event.id,
            o: pbDateOf(o.originalStart.toInstant()),
          }),
          skipTotal: true,
        }),
      );
      // Staff read every RSVP: keep the viewer's own.
      return rows.items.find((r) => r.user === viewer.id) ?? null;
    },
    async myRegistrations(o, _, ctx) {
      const viewer = await ctx.viewer();
      if (!viewer) return [];
      const rows = await pbCall(() =>
        ctx.pb.collection("registrations").getList<RegistrationRecord>(1, 20, {
          filter: ctx.pb.filter(
            "event = {:e} && occurrenceStart = {:o} && user = {:u} && status != 'cancelled'",
            { e: o.event.id, o: pbDateOf(o.originalStart.toInstant()), u: viewer.id },
          ),
          sort: "created",
          skipTotal: true,
        }),
      );
      return rows.items;
    },
    googleCalendarUrl: (o, _, ctx) => googleCalendarUrl(o, ctx.config.publicUrl),
    icsUrl: (o) => `/feeds/events/occurrence/${o.event.slug}/${dateKeyOf(o)}.ics`,
  },
  Rsvp: {
    guests: (r) => r.guests ?? 0,
    async email(r, _, ctx) {
      const viewer = await ctx.viewer();
      return seesRsvpEmail(viewer, r) ? r.email || null : null;
    },
    originalStart: (r) => fromPocketBaseDate(r.occurrenceStart),
  },
  Registration: {
    event: (r, _, ctx) => r.expand?.event ?? loadersOf(ctx).event.load(r.event),
    originalStart: (r) => fromPocketBaseDate(r.occurrenceStart),
    attendeeNames: (r) => (Array.isArray(r.attendeeNames) ? r.attendeeNames : []),
    answers: (r) => (Array.isArray(r.answers) ? r.answers : []),
    waitlistPosition: (r) => (r.status === "waitlisted" ? r.waitlistPosition : null),
    promotedAt: (r) => (r.promotedAt ? fromPocketBaseDate(r.promotedAt) : null),
    cancelledAt: (r) => (r.cancelledAt ? fromPocketBaseDate(r.cancelledAt) : null),
    created: (r) => fromPocketBaseDate(r.created),
  },
};
