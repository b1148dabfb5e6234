import { checkedImageFile } from "../../pocketbase/image-file.ts";
import { randomBytes } from "node:crypto";
import DataLoader from "dataloader";
import { ClientResponseError } from "pocketbase";
import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall, rateLimited, unauthenticated } from "../../errors.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { EventInput, Resolvers } from "../__generated__/types.ts";
import { chooseSlug, renderBody, writeAsCaller } from "../content/shared.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { readsEveryAttendee, seesRsvpEmail } from "../../access/events.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { churchLocale, recipientLocale, translator, type Locale } from "../../mail/i18n.ts";
import {
  firstOccurrence,
  isTimeZone,
  parseRRule,
  RecurrenceError,
  splitSeries,
  expand,
  formatRRule,
} from "./recurrence.ts";
import {
  dateKeyOf,
  describeRule,
  instantOf,
  isoOf,
  MAX_RANGE_DAYS,
  occurrenceAt,
  occurrencesOf,
  pbDateOf,
  seriesOf,
  shortDate,
  localeOf,
  type OccurrenceModel,
} from "./occurrences.ts";
import type {
  EventCategoryRecord,
  EventExceptionRecord,
  EventRecord,
  OccurrenceCountsRecord,
  RegistrationRecord,
  RsvpRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { googleCalendarUrl } from "./ics.ts";

/**
 * Events (issue 14). Every read and write runs with the caller's token: PocketBase's rules decide who
 * sees drafts and members-only events, whose RSVPs and registrations are whose. Capacity, the
 * waitlist and promotion are decided by pb_hooks/events.pb.js inside each write's transaction. The
 * system client is used only to mail people whom a cancellation promoted from the waitlist.
 */

const EXPAND = "category";
const MAX_EVENTS_PER_RANGE = 500;
const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
const upper = <T extends string>(value: string): T => value.toUpperCase() as T;
const newToken = () => randomBytes(24).toString("base64url");
const newCode = () => {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length])
    .join("")
    .replace(/^(.{4})/, "$1-");
};

// ---------------------------------------------------------------------------------------------------
// Per-request loaders: exceptions and counts of many occurrences in one PocketBase call each.

interface EventLoaders {
  exceptions: DataLoader<string, EventExceptionRecord[]>;
  counts: DataLoader<string, OccurrenceCountsRecord | null>;
  event: DataLoader<string, EventRecord | null>;
}
const loaders = new WeakMap<object, EventLoaders>();
const countKey = (eventId: string, original: Temporal.Instant) => `${eventId}|${pbDateOf(original)}`;

function loadersOf(ctx: GatewayContext): EventLoaders {
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
    };
    loaders.set(ctx, l);
  }
  return l;
}

// ---------------------------------------------------------------------------------------------------
// Reading events and occurrences.

function parseRange(from: string, to: string): { from: Temporal.Instant; to: Temporal.Instant } {
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

async function eventsOverlapping(
  ctx: GatewayContext,
  from: Temporal.Instant,
  to: Temporal.Instant,
  categorySlug?: string | null,
): Promise<EventRecord[]> {
  const filters = [
    'status != "draft"',
    ctx.pb.filter("startsAt < {:to} && (rrule != '' || endsAt > {:from})", {
      from: pbDateOf(from),
      to: pbDateOf(to),
    }),
  ];
  if (categorySlug) filters.push(ctx.pb.filter("category.slug = {:c}", { c: categorySlug }));
  const rows = await pbCall(() =>
    ctx.pb.collection("events").getList<EventRecord>(1, MAX_EVENTS_PER_RANGE, {
      filter: filters.join(" && "),
      sort: "startsAt,id",
      expand: EXPAND,
      skipTotal: true,
    }),
  );
  return rows.items;
}

async function occurrencesIn(
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

async function findEvent(ctx: GatewayContext, filter: string): Promise<EventRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("events").getList<EventRecord>(1, 1, { filter, expand: EXPAND, skipTotal: true }),
  );
  return rows.items[0] ?? null;
}

async function requireEvent(ctx: GatewayContext, id: string): Promise<EventRecord> {
  const event = await findEvent(ctx, ctx.pb.filter("id = {:id}", { id }));
  if (!event) throw notFound();
  return event;
}

function parseInstant(field: string, value: string): Temporal.Instant {
  try {
    return Temporal.Instant.from(value);
  } catch {
    throw badUserInput({
      [field]: { code: "invalid_date", message: "Use an ISO date-time with an offset." },
    });
  }
}

/** The occurrence the caller means (by its original start); NOT_FOUND when the series has none then. */
async function requireOccurrence(
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

/** Is registration (or RSVP) open for this occurrence now? */
export function registrationOpen(o: OccurrenceModel, now = Temporal.Now.instant()): boolean {
  const e = o.event;
  if (e.registrationMode === "none" || e.status !== "published" || o.status === "CANCELLED") return false;
  if (Temporal.Instant.compare(o.originalStart.toInstant(), now) < 0) return false;
  if (e.registrationOpensAt && Temporal.Instant.compare(now, instantOf(e.registrationOpensAt)) < 0)
    return false;
  if (e.registrationClosesAt && Temporal.Instant.compare(now, instantOf(e.registrationClosesAt)) > 0)
    return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Writing events.

/** A local wall-clock time ("2026-12-06T10:00") in `zone` as an instant. */
function localToInstant(
  v: Validator,
  field: string,
  value: string,
  zone: string,
): Temporal.ZonedDateTime | null {
  try {
    return Temporal.PlainDateTime.from(value.trim()).toZonedDateTime(zone, { disambiguation: "compatible" });
  } catch {
    v.add(field, "invalid_date", "Use a date and time like 2026-12-06T10:00.");
    return null;
  }
}

function validateEvent(input: EventInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const summary =
    input.summary == null ? undefined : v.text("summary", input.summary, { max: LIMITS.summaryMax });
  const description = input.description ?? undefined;
  if (description !== undefined && description.length > LIMITS.markdownMax)
    v.add("description", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const locationName =
    input.locationName == null
      ? undefined
      : v.text("locationName", input.locationName, { max: LIMITS.nameMax });
  const locationAddress =
    input.locationAddress == null
      ? undefined
      : v.text("locationAddress", input.locationAddress, { max: LIMITS.addressMax });
  const timezone = input.timezone.trim();
  const zoneOk = isTimeZone(timezone);
  if (!zoneOk) v.add("timezone", "invalid_timezone", "Choose a time zone like America/Chicago.");
  const start = zoneOk ? localToInstant(v, "startsAt", input.startsAt, timezone) : null;
  const end = zoneOk ? localToInstant(v, "endsAt", input.endsAt, timezone) : null;
  if (start && end && Temporal.ZonedDateTime.compare(end, start) < 0)
    v.add("endsAt", "before_start", "The end must not be before the start.");
  let rrule = "";
  if (input.rrule?.trim() && start && end) {
    try {
      const rule = parseRRule(input.rrule, timezone);
      if (!firstOccurrence({ start, end, rule }))
        v.add("rrule", "rule_yields_nothing", "This rule gives no dates: check the days and the end.");
      rrule = formatRRule(rule);
    } catch (error) {
      if (!(error instanceof RecurrenceError)) throw error;
      v.add(
        "rrule",
        error.reason === "unsupported" ? "rule_unsupported" : "rule_invalid",
        "This repeat rule cannot be used.",
      );
    }
  }
  const capacity = input.capacity ?? 0;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > 100_000)
    v.add("capacity", "out_of_range", "Enter a number of seats from 0 (no limit) to 100000.");
  const opens = input.registrationOpensAt
    ? parseInstant("registrationOpensAt", input.registrationOpensAt)
    : null;
  const closes = input.registrationClosesAt
    ? parseInstant("registrationClosesAt", input.registrationClosesAt)
    : null;
  if (opens && closes && Temporal.Instant.compare(closes, opens) <= 0)
    v.add("registrationClosesAt", "before_start", "Registration must close after it opens.");
  v.done();
  return defined({
    title,
    summary,
    description,
    locationName,
    locationAddress,
    category: input.categoryId === undefined ? undefined : (input.categoryId ?? ""),
    startsAt: pbDateOf(start!.toInstant()),
    endsAt: pbDateOf(end!.toInstant()),
    allDay: input.allDay ?? undefined,
    timezone,
    rrule,
    visibility: input.visibility ? input.visibility.toLowerCase() : undefined,
    registrationMode: input.registrationMode ? input.registrationMode.toLowerCase() : undefined,
    capacity,
    waitlistEnabled: input.waitlistEnabled ?? undefined,
    registrationOpensAt: input.registrationOpensAt === undefined ? undefined : opens ? pbDateOf(opens) : "",
    registrationClosesAt:
      input.registrationClosesAt === undefined ? undefined : closes ? pbDateOf(closes) : "",
  });
}

/**
 * The `ownerGroup` to write for EventInput.ownerGroupId: nothing when omitted (kept), "" to clear, or a
 * group the caller may read (the groups rules decide; an unknown or hidden one is a field error).
 */
async function ownerGroupOf(
  ctx: GatewayContext,
  id: string | null | undefined,
): Promise<{ ownerGroup?: string }> {
  if (id === undefined) return {};
  if (!id) return { ownerGroup: "" };
  const found = /^[a-z0-9]{15}$/.test(id)
    ? (
        await pbCall(() =>
          ctx.pb
            .collection("groups")
            .getList(1, 1, { filter: ctx.pb.filter("id = {:id}", { id }), fields: "id", skipTotal: true }),
        )
      ).items.length > 0
    : false;
  if (!found)
    throw badUserInput({ ownerGroupId: { code: "unknown_group", message: "Choose a group from the list." } });
  return { ownerGroup: id };
}

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

// ---------------------------------------------------------------------------------------------------
// RSVPs and registrations.

function throttleVisitorForm(ctx: GatewayContext, kind: string): void {
  const key = `form:${kind}:${ctx.clientIp}`;
  const wait = ctx.limiter.retryAfter(key, THROTTLE.visitorFormsPerIp, THROTTLE.anonymousFormWindowMs);
  if (wait > 0) throw rateLimited(wait);
  ctx.limiter.hit(key, THROTTLE.anonymousFormWindowMs);
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

/** PocketBase's hook refusals ("validation_not_enough_seats") as field errors of our catalogue. */
async function hookWrite<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 400) {
      const data = (error.response?.data ?? {}) as Record<string, { code?: string; message?: string }>;
      const known: Record<string, string> = {
        validation_duplicate_registration: "You are already registered for this date with this email.",
        validation_not_enough_seats: "There are not enough seats left.",
        validation_registration_closed: "Registration is closed for this date.",
        validation_registration_not_open: "This event does not take registrations.",
      };
      const fields = Object.entries(data).filter(([, d]) => d.code && known[d.code]);
      if (fields.length) {
        throw badUserInput(
          Object.fromEntries(
            fields.map(([field, d]) => [
              field === "occurrenceStart" || field === "event" ? "originalStart" : field,
              { code: d.code!.replace(/^validation_/, ""), message: known[d.code!]! },
            ]),
          ),
        );
      }
    }
    return writeAsCaller(() => Promise.reject(error));
  }
}

const eventWhen = (o: { start: Temporal.ZonedDateTime }, locale: string) =>
  new Intl.DateTimeFormat(locale === "es" ? "es" : "en-US", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: o.start.timeZoneId,
  }).format(new Date(o.start.epochMilliseconds));

/**
 * The rows of one mail link's party (a registration and its waitlisted part, or an RSVP). The token
 * in the query opens the rule's token branch; the filter keeps the list to that party, since a
 * signed-in caller also reads all their own sign-ups through the rule's owner branch (without it, a
 * member's second registration answered with, mailed and cancelled their first).
 */
const tokenParty = (ctx: GatewayContext, token: string) => ({
  query: { token },
  filter: ctx.pb.filter("cancelToken = {:token}", { token }),
});

/** The caller's own sign-ups read for "my upcoming events", newest date first (future ones lead). */
const MY_EVENTS_SCAN = 200;

/** Whether an RSVP's answer (or its number of guests) differs from before: worth a confirmation mail. */
const answerChanged = (before: RsvpRecord | undefined, after: RsvpRecord) =>
  !before || before.response !== after.response || (before.guests ?? 0) !== (after.guests ?? 0);

/**
 * Event mails go to visitors as much as to members: a sign-up with an account (`userId`) is written in
 * its owner's language, others in the church's (system job: the superuser reads the account's choice).
 */
async function mailContext(
  ctx: GatewayContext,
  userId?: string | null,
): Promise<{ churchName: string; locale: Locale; t: ReturnType<typeof translator> }> {
  const settings = await ctx.publicSettings.get();
  let locale = churchLocale(settings);
  if (userId) {
    const system = await ctx.system.get();
    const user = await system
      .collection("users")
      .getOne<UserRecord>(userId, { fields: "locale" })
      .catch(() => null);
    locale = recipientLocale(user, settings);
  }
  return { churchName: settings.churchName, locale, t: translator(locale) };
}

type MailText = Awaited<ReturnType<typeof mailContext>>;

/** Write one event mail in its reader's language (`userId`: the sign-up's account, if any) and send it. */
async function sendEventMail(
  ctx: GatewayContext,
  userId: string | null | undefined,
  write: (text: MailText) => {
    to: string;
    subject: string;
    paragraphs: string[];
    link: { url: string; label: string };
  },
): Promise<void> {
  const text = await mailContext(ctx, userId);
  await sendNotice(
    ctx.mailer,
    composeMail({ ...write(text), churchName: text.churchName, locale: text.locale }),
    text.churchName,
  );
}

async function mailRegistration(
  ctx: GatewayContext,
  o: OccurrenceModel,
  parts: RegistrationRecord[],
  token: string,
) {
  const first = parts[0]!;
  const confirmed = parts.filter((p) => p.status === "confirmed").reduce((n, p) => n + p.attendees, 0);
  const waitlisted = parts.filter((p) => p.status === "waitlisted").reduce((n, p) => n + p.attendees, 0);
  await sendEventMail(ctx, first.user, ({ t, locale }) => ({
    to: first.email,
    subject: t("event.registered.subject", { confirmed, event: o.event.title }),
    paragraphs: [
      t("mail.hello", { name: first.name }),
      t("event.registered.when", {
        event: o.event.title,
        when: eventWhen(o, locale),
        hasPlace: o.event.locationName ? "yes" : "no",
        place: o.event.locationName ?? "",
      }),
      confirmed ? t("event.registered.confirmed", { count: confirmed }) : "",
      waitlisted ? t("event.registered.waitlisted", { count: waitlisted }) : "",
      t("event.registered.code", { code: first.confirmationCode }),
      t("event.registered.cancelHint"),
    ].filter(Boolean),
    link: {
      url: `${ctx.config.publicUrl}/events/registration/${encodeURIComponent(token)}`,
      label: t("event.registered.button"),
    },
  }));
}

/**
 * An RSVP, and each change of answer, is confirmed by mail with the event's date and address: a
 * visitor's (name and email, no account) and a signed-in member's alike.
 */
async function mailRsvp(ctx: GatewayContext, o: OccurrenceModel, rsvp: RsvpRecord) {
  const response = rsvp.response;
  await sendEventMail(ctx, rsvp.user, ({ t, locale }) => ({
    to: rsvp.email,
    subject: t("event.rsvp.subject", { event: o.event.title, response }),
    paragraphs: [
      t("mail.hello", { name: rsvp.name }),
      t("event.rsvp.body", {
        event: o.event.title,
        when: eventWhen(o, locale),
        hasPlace: o.event.locationName ? "yes" : "no",
        place: o.event.locationName ?? "",
        response,
        guests: rsvp.guests ?? 0,
      }),
      t(rsvp.user ? "event.rsvp.changeSignedIn" : "event.rsvp.change"),
    ],
    link: {
      url: `${ctx.config.publicUrl}/events/${o.event.slug}?date=${dateKeyOf(o)}`,
      label: t("event.rsvp.button"),
    },
  }));
}

/**
 * System job: tell someone staff moved their registration (the new date, whether they have a seat
 * there, the same link to view or cancel). The system client reads the row only to address the mail
 * and to put its secret link in it, which staff may not read.
 */
async function mailMoved(ctx: GatewayContext, o: OccurrenceModel, id: string): Promise<void> {
  const system = await ctx.system.get();
  const r = await system.collection("registrations").getOne<RegistrationRecord>(id);
  await sendEventMail(ctx, r.user, ({ t, locale }) => ({
    to: r.email,
    subject: t("event.moved.subject", { event: o.event.title }),
    paragraphs: [
      t("mail.hello", { name: r.name }),
      t("event.moved.body", {
        event: o.event.title,
        when: eventWhen(o, locale),
        status: r.status,
        count: r.attendees,
        position: r.waitlistPosition ?? 0,
      }),
      t("event.registered.code", { code: r.confirmationCode }),
    ],
    link: {
      url: `${ctx.config.publicUrl}/events/registration/${encodeURIComponent(r.cancelToken)}`,
      label: t("event.registered.button"),
    },
  }));
}

/**
 * System job: tell everyone signed up for a cancelled date (registrations not cancelled, RSVPs yes or
 * maybe) — one date (`only`), or every date not yet begun when the whole event is cancelled. The
 * superuser only reads these rows to address mail.
 */
async function mailCancelled(
  ctx: GatewayContext,
  event: EventRecord,
  only: Temporal.Instant | null,
  note = "",
): Promise<void> {
  const system = await ctx.system.get();
  const when = only
    ? system.filter("occurrenceStart = {:o}", { o: pbDateOf(only) })
    : system.filter("occurrenceStart >= {:now}", { now: pbDateOf(Temporal.Now.instant()) });
  const filter = `${system.filter("event = {:e}", { e: event.id })} && ${when}`;
  const [registrations, rsvps] = await Promise.all([
    system.collection("registrations").getFullList<RegistrationRecord>({
      filter: `${filter} && status != 'cancelled' && partOf = ''`,
      fields: "name,email,occurrenceStart,user",
    }),
    system.collection("rsvps").getFullList<RsvpRecord>({
      filter: `${filter} && response != 'no' && email != ''`,
      fields: "name,email,occurrenceStart,user",
    }),
  ]);
  // Dates cancelled before were mailed then.
  const sent = new Set<string>();
  if (!only) {
    const earlier = await system.collection("event_exceptions").getFullList<EventExceptionRecord>({
      filter: system.filter("event = {:e} && status = 'cancelled'", { e: event.id }),
      fields: "originalStart",
    });
    for (const x of earlier)
      for (const row of [...registrations, ...rsvps])
        if (row.occurrenceStart === x.originalStart)
          sent.add(`${row.email.toLowerCase()}|${row.occurrenceStart}`);
  }
  for (const [kind, row] of [
    ...registrations.map((r) => ["registration", r] as const),
    ...rsvps.map((r) => ["rsvp", r] as const),
  ]) {
    const key = `${row.email.toLowerCase()}|${row.occurrenceStart}`;
    if (sent.has(key)) continue; // a party split into parts, or the same person both registered and answered
    sent.add(key);
    const start = instantOf(row.occurrenceStart).toZonedDateTimeISO(event.timezone);
    await sendEventMail(ctx, row.user, ({ t, locale }) => ({
      to: row.email,
      subject: t("event.cancelled.subject", { event: event.title }),
      paragraphs: [
        t("mail.hello", { name: row.name }),
        t("event.cancelled.body", {
          event: event.title,
          when: eventWhen({ start }, locale),
          hasNote: note ? "yes" : "no",
          note,
        }),
        t("event.cancelled.signUp", { kind }),
      ],
      link: { url: `${ctx.config.publicUrl}/events`, label: t("event.cancelled.button") },
    }));
  }
}

/** System job: tell a registrant that staff cancelled their registration (the superuser reads it to address the mail). */
async function mailCancelledByStaff(ctx: GatewayContext, id: string): Promise<void> {
  const system = await ctx.system.get();
  const r = await system.collection("registrations").getOne<RegistrationRecord>(id, { expand: "event" });
  const event = r.expand?.event;
  if (!event) return;
  const start = instantOf(r.occurrenceStart).toZonedDateTimeISO(event.timezone);
  await sendEventMail(ctx, r.user, ({ t, locale, churchName }) => ({
    to: r.email,
    subject: t("event.cancelledByStaff.subject", { event: event.title }),
    paragraphs: [
      t("mail.hello", { name: r.name }),
      t("event.cancelledByStaff.body", {
        event: event.title,
        when: eventWhen({ start }, locale),
        church: churchName,
      }),
    ],
    link: {
      url: `${ctx.config.publicUrl}${event.slug ? `/events/${event.slug}` : "/events"}`,
      label: t("event.cancelled.button"),
    },
  }));
}

/**
 * System job: mail everyone the waitlist promoted (the hook marks them with promotedAt) and not yet
 * told. Runs after the writes that free seats; the superuser only reads these rows to address mail.
 */
export async function mailPromotions(ctx: GatewayContext, eventId: string): Promise<void> {
  const system = await ctx.system.get();
  const rows = await system.collection("registrations").getFullList<RegistrationRecord>({
    filter: system.filter(
      "event = {:e} && promotedAt != '' && promotionMailedAt = '' && status = 'confirmed'",
      { e: eventId },
    ),
    expand: "event",
  });
  for (const r of rows) {
    const event = r.expand?.event;
    if (!event) continue;
    const start = instantOf(r.occurrenceStart).toZonedDateTimeISO(event.timezone);
    await system
      .collection("registrations")
      .update(r.id, { promotionMailedAt: pbDateOf(Temporal.Now.instant()) });
    await sendEventMail(ctx, r.user, ({ t, locale }) => ({
      to: r.email,
      subject: t("event.promoted.subject", { event: event.title }),
      paragraphs: [
        t("mail.hello", { name: r.name }),
        t("event.promoted.body", {
          event: event.title,
          when: eventWhen({ start }, locale),
          count: r.attendees,
        }),
        t("event.registered.code", { code: r.confirmationCode }),
      ],
      link: {
        url: `${ctx.config.publicUrl}/events/registration/${encodeURIComponent(r.cancelToken)}`,
        label: t("event.registered.button"),
      },
    }));
  }
}

const csvCell = (value: unknown) => {
  const text = String(value ?? "");
  // A leading = + - @ would be a formula in spreadsheet apps.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

// ---------------------------------------------------------------------------------------------------

const occurrenceModelOf = (event: EventRecord, o: OccurrenceModel) => ({ ...o, event });

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
    async registrationByToken(_, { token }, ctx) {
      if (!token || token.length > 64) return null;
      const rows = await pbCall(() =>
        ctx.pb.collection("registrations").getList<RegistrationRecord>(1, 10, {
          ...tokenParty(ctx, token),
          sort: "created",
          expand: "event",
          skipTotal: true,
        }),
      );
      return rows.items.find((r) => !r.partOf) ?? rows.items[0] ?? null;
    },
    async attendees(_, { eventId, originalStart }, ctx) {
      await requireAbility(ctx, "manageEvents");
      const original = parseInstant("originalStart", originalStart);
      const filter = ctx.pb.filter("event = {:e} && occurrenceStart = {:o}", {
        e: eventId,
        o: pbDateOf(original),
      });
      const [registrations, rsvps] = await Promise.all([
        pbCall(() =>
          ctx.pb.collection("registrations").getFullList<RegistrationRecord>({ filter, sort: "created" }),
        ),
        pbCall(() => ctx.pb.collection("rsvps").getFullList<RsvpRecord>({ filter, sort: "created" })),
      ]);
      const header = [
        "name",
        "email",
        "attendees",
        "names",
        "status",
        "code",
        "waitlist position",
        "registered",
      ];
      const lines = registrations.map((r) =>
        [
          r.name,
          r.email,
          r.attendees,
          (r.attendeeNames ?? []).join("; "),
          r.status,
          r.confirmationCode,
          r.status === "waitlisted" ? r.waitlistPosition : "",
          fromPocketBaseDate(r.created),
        ]
          .map(csvCell)
          .join(","),
      );
      const rsvpLines = rsvps.map((r) =>
        [
          r.name,
          r.email,
          1 + (r.guests ?? 0),
          "",
          `rsvp ${r.response}`,
          "",
          "",
          fromPocketBaseDate(r.created),
        ]
          .map(csvCell)
          .join(","),
      );
      return { registrations, rsvps, csv: [header.join(","), ...lines, ...rsvpLines].join("\r\n") + "\r\n" };
    },
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
    async myUpcomingEvents(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      const now = pbDateOf(Temporal.Now.instant());
      // The rules give a member their own registrations and RSVPs only, so those are read without a
      // filter, newest date first: a filtered list that comes back empty (nothing signed up for, the
      // usual case) is answered after PocketBase's random 0–500 ms throttle once more than 3 came from
      // one IP in 3 s (a church's Wi-Fi). Event staff read everyone's, so theirs name the caller.
      const mine = readsEveryAttendee(viewer) ? ctx.pb.filter("user = {:u}", { u: viewer.id }) : "";
      const read = <T extends RegistrationRecord | RsvpRecord>(collection: "registrations" | "rsvps") =>
        pbCall(() =>
          ctx.pb
            .collection(collection)
            .getList<T>(1, MY_EVENTS_SCAN, { filter: mine, sort: "-occurrenceStart,-id", skipTotal: true }),
        );
      const [registrations, rsvps] = await Promise.all([
        read<RegistrationRecord>("registrations"),
        read<RsvpRecord>("rsvps"),
      ]);
      const upcoming = [
        ...registrations.items.filter((r) => r.status !== "cancelled"),
        ...rsvps.items.filter((r) => r.response !== "no"),
      ].filter((row) => row.user === viewer.id && row.occurrenceStart >= now);
      const seen = new Set<string>();
      const rows = upcoming.filter((row) => {
        const key = `${row.event}|${row.occurrenceStart}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      // All at once, so the loaders read every event (and its exceptions) in one call each.
      const events = await Promise.all(rows.map((row) => loadersOf(ctx).event.load(row.event)));
      const exceptions = await Promise.all(
        events.map((event) => (event ? loadersOf(ctx).exceptions.load(event.id) : null)),
      );
      const out: OccurrenceModel[] = [];
      rows.forEach((row, i) => {
        const event = events[i];
        if (!event) return;
        const o = occurrenceAt(event, exceptions[i]!, instantOf(row.occurrenceStart));
        if (o) out.push(o);
      });
      return out.sort((a, b) => Temporal.Instant.compare(a.start.toInstant(), b.start.toInstant()));
    },
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
    async cancelOccurrence(_, { eventId, originalStart, note }, ctx) {
      await requireViewer(ctx);
      const o = await requireOccurrence(ctx, eventId, originalStart);
      const text = (note ?? "").trim().slice(0, 500);
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
        note: (note ?? "").trim().slice(0, 500),
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

    async rsvp(_, { input }, ctx) {
      const viewer = await ctx.viewer();
      const o = await requireOccurrence(ctx, input.eventId, input.originalStart);
      const v = new Validator();
      const guests = input.guests ?? 0;
      if (!Number.isInteger(guests) || guests < 0 || guests > 20)
        v.add("guests", "out_of_range", "Enter a number of guests from 0 to 20.");
      const name = viewer
        ? viewer.name || viewer.email
        : v.text("name", input.name, { required: true, max: LIMITS.nameMax });
      const email = viewer ? viewer.email : v.email("email", input.email);
      if (o.event.registrationMode !== "rsvp")
        v.add("originalStart", "rsvp_not_open", "This event does not take RSVPs.");
      else if (!registrationOpen(o))
        v.add("originalStart", "registration_closed", "RSVPs are closed for this date.");
      v.done();
      const response = input.response.toLowerCase();
      const key = { event: o.event.id, occurrenceStart: pbDateOf(o.originalStart.toInstant()) };
      if (viewer) {
        const mine = await pbCall(() =>
          ctx.pb.collection("rsvps").getList<RsvpRecord>(1, 1, {
            filter: ctx.pb.filter("event = {:e} && occurrenceStart = {:o} && user = {:u}", {
              e: key.event,
              o: key.occurrenceStart,
              u: viewer.id,
            }),
            skipTotal: true,
          }),
        );
        const existing = mine.items[0];
        const rsvp = existing
          ? await writeAsCaller(() =>
              ctx.pb.collection("rsvps").update<RsvpRecord>(existing.id, { response, guests }),
            )
          : await writeAsCaller(() =>
              ctx.pb.collection("rsvps").create<RsvpRecord>({
                ...key,
                user: viewer.id,
                person: viewer.person || "",
                name,
                email,
                response,
                guests,
              }),
            );
        if (answerChanged(existing, rsvp)) ctx.afterResponse(() => void mailRsvp(ctx, o, rsvp));
        return { rsvp, token: null };
      }
      if (input.website?.trim())
        throw badUserInput({ website: { code: "invalid", message: "Leave this field empty." } });
      if (input.token) {
        const found = await pbCall(() =>
          ctx.pb
            .collection("rsvps")
            .getList<RsvpRecord>(1, 1, { ...tokenParty(ctx, input.token!), skipTotal: true }),
        );
        const existing = found.items[0];
        if (existing && existing.event === key.event && existing.occurrenceStart === key.occurrenceStart) {
          const rsvp = await writeAsCaller(() =>
            ctx.pb
              .collection("rsvps")
              .update<RsvpRecord>(
                existing.id,
                { response, guests, name, email },
                { query: { token: input.token! } },
              ),
          );
          if (answerChanged(existing, rsvp)) ctx.afterResponse(() => void mailRsvp(ctx, o, rsvp));
          return { rsvp, token: input.token };
        }
      }
      throttleVisitorForm(ctx, "rsvp");
      const token = newToken();
      const rsvp = await writeAsCaller(() =>
        ctx.pb
          .collection("rsvps")
          .create<RsvpRecord>(
            { ...key, user: "", name, email, response, guests, cancelToken: token },
            { query: { token } },
          ),
      );
      ctx.afterResponse(() => void mailRsvp(ctx, o, rsvp));
      return { rsvp, token };
    },
    async withdrawRsvp(_, { id, token }, ctx) {
      if (!token && !(await ctx.viewer())) throw unauthenticated();
      await writeAsCaller(() => ctx.pb.collection("rsvps").delete(id, token ? { query: { token } } : {}));
      return true;
    },
    async register(_, { input }, ctx) {
      const viewer = await ctx.viewer();
      const v = new Validator();
      const name = v.text("name", input.name, { required: true, max: LIMITS.nameMax });
      const email = v.email("email", input.email);
      const phone = input.phone == null ? "" : v.text("phone", input.phone, { max: LIMITS.phoneMax });
      const attendees = input.attendees;
      if (!Number.isInteger(attendees) || attendees < 1 || attendees > 10)
        v.add("attendees", "out_of_range", "A party is 1 to 10 people.");
      const attendeeNames = (input.attendeeNames ?? [])
        .map((n) => n.trim().slice(0, LIMITS.nameMax))
        .filter(Boolean)
        .slice(0, 10);
      v.done();
      if (input.website?.trim())
        throw badUserInput({ website: { code: "invalid", message: "Leave this field empty." } });
      const o = await requireOccurrence(ctx, input.eventId, input.originalStart);
      if (o.event.registrationMode !== "registration")
        throw badUserInput({
          originalStart: {
            code: "registration_not_open",
            message: "This event does not take registrations.",
          },
        });
      if (!registrationOpen(o))
        throw badUserInput({
          originalStart: { code: "registration_closed", message: "Registration is closed for this date." },
        });
      if (!viewer) throttleVisitorForm(ctx, "register");
      const token = newToken();
      const created = await hookWrite(() =>
        ctx.pb.collection("registrations").create<RegistrationRecord>(
          {
            event: o.event.id,
            occurrenceStart: pbDateOf(o.originalStart.toInstant()),
            user: viewer?.id ?? "",
            name,
            email,
            phone,
            attendees,
            attendeeNames,
            confirmationCode: newCode(),
            cancelToken: token,
          },
          { query: { token } },
        ),
      );
      // The party's parts (a split adds a waitlisted one with the same token).
      const parts = (
        await pbCall(() =>
          ctx.pb.collection("registrations").getList<RegistrationRecord>(1, 10, {
            ...tokenParty(ctx, token),
            sort: "created",
            skipTotal: true,
          }),
        )
      ).items;
      const all = parts.length ? parts : [created];
      ctx.afterResponse(() => void mailRegistration(ctx, o, all, token));
      return {
        parts: all,
        confirmationCode: created.confirmationCode,
        confirmed: all.filter((p) => p.status === "confirmed").reduce((n, p) => n + p.attendees, 0),
        waitlisted: all.filter((p) => p.status === "waitlisted").reduce((n, p) => n + p.attendees, 0),
      };
    },
    async cancelRegistration(_, { id, token }, ctx) {
      let target: RegistrationRecord | undefined;
      const query = token ? { token } : undefined;
      if (token) {
        const rows = await pbCall(() =>
          ctx.pb.collection("registrations").getList<RegistrationRecord>(1, 10, {
            ...tokenParty(ctx, token),
            sort: "created",
            skipTotal: true,
          }),
        );
        target =
          (id ? rows.items.find((r) => r.id === id) : undefined) ??
          rows.items.find((r) => !r.partOf) ??
          rows.items[0];
        if (!target) throw notFound();
      } else {
        if (!id)
          throw badUserInput({ id: { code: "required", message: "Say which registration to cancel." } });
        if (!(await ctx.viewer())) throw unauthenticated();
        target = await pbCall(() => ctx.pb.collection("registrations").getOne<RegistrationRecord>(id));
      }
      const updated =
        target.status === "cancelled"
          ? target
          : await writeAsCaller(() =>
              ctx.pb
                .collection("registrations")
                .update<RegistrationRecord>(target.id, { status: "cancelled" }, query ? { query } : {}),
            );
      const eventId = target.event;
      // Staff cancelling someone else's registration tell them (the owner, or a mail link's holder, knows).
      const viewer = token ? null : await ctx.viewer();
      const byStaff = target.status !== "cancelled" && viewer !== null && target.user !== viewer.id;
      const cancelledId = target.id;
      ctx.afterResponse(() => {
        void mailPromotions(ctx, eventId).catch((error: unknown) =>
          console.error("[events] promotion mail failed:", error),
        );
        if (byStaff)
          void mailCancelledByStaff(ctx, cancelledId).catch((error: unknown) =>
            console.error("[events] cancellation mail failed:", error),
          );
      });
      return updated;
    },
    async moveRegistration(_, { id, originalStart, eventId }, ctx) {
      await requireAbility(ctx, "manageEvents");
      const current = await pbCall(() => ctx.pb.collection("registrations").getOne<RegistrationRecord>(id));
      if (current.status === "cancelled")
        throw badUserInput({
          id: { code: "registration_cancelled", message: "A cancelled registration cannot be moved." },
        });
      const o = await requireOccurrence(ctx, eventId ?? current.event, originalStart);
      if (o.event.registrationMode !== "registration")
        throw badUserInput({
          eventId: { code: "registration_not_open", message: "This event does not take registrations." },
        });
      const updated = await hookWrite(() =>
        ctx.pb.collection("registrations").update<RegistrationRecord>(id, {
          event: o.event.id,
          occurrenceStart: pbDateOf(o.originalStart.toInstant()),
        }),
      );
      ctx.afterResponse(() => {
        void mailMoved(ctx, o, id).catch((error: unknown) =>
          console.error("[events] moved mail failed:", error),
        );
        void mailPromotions(ctx, current.event).catch((error: unknown) =>
          console.error("[events] promotion mail failed:", error),
        );
      });
      return updated;
    },
    async resetCalendarToken(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      const token = newToken();
      // System job: the token is a hidden field the owner cannot write through the API.
      const system = await ctx.system.get();
      await system.collection("users").update(viewer.id, { calendarToken: token });
      return `${ctx.config.publicUrl}/feeds/me/${token}.ics`;
    },
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
    summary: (e) => e.summary ?? "",
    description: (e) => e.description ?? "",
    descriptionHtml: (e, _, ctx) =>
      e.description ? renderBody(ctx, `event:${e.id}:${e.updated}`, e.description) : "",
    imageUrl: (e) => (e.image ? `/files/events/${e.id}/${encodeURIComponent(e.image)}?thumb=1200x630` : null),
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
    visibility: (e) => upper<"PUBLIC" | "MEMBERS">(e.visibility),
    status: (e) => upper<"DRAFT" | "PUBLISHED" | "CANCELLED">(e.status),
    registrationMode: (e) => upper<"NONE" | "RSVP" | "REGISTRATION">(e.registrationMode || "none"),
    capacity: (e) => e.capacity || null,
    waitlistEnabled: (e) => !!e.waitlistEnabled,
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
      return Math.max(0, o.event.capacity - (counts?.confirmed ?? 0));
    },
    confirmedCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.confirmed ?? 0,
    waitlistCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.waitlisted ?? 0,
    goingCount: async (o, _, ctx) =>
      (await loadersOf(ctx).counts.load(countKey(o.event.id, o.originalStart.toInstant())))?.going ?? 0,
    registrationOpen: (o) => registrationOpen(o),
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
    response: (r) => upper<"YES" | "NO" | "MAYBE">(r.response),
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
    status: (r) => upper<"CONFIRMED" | "WAITLISTED" | "CANCELLED">(r.status),
    attendeeNames: (r) => (Array.isArray(r.attendeeNames) ? r.attendeeNames : []),
    waitlistPosition: (r) => (r.status === "waitlisted" ? r.waitlistPosition : null),
    promotedAt: (r) => (r.promotedAt ? fromPocketBaseDate(r.promotedAt) : null),
    cancelledAt: (r) => (r.cancelledAt ? fromPocketBaseDate(r.cancelledAt) : null),
    created: (r) => fromPocketBaseDate(r.created),
  },
};

/** Live counts of one occurrence: PocketBase's changes of its occurrence_counts row, under the viewer's rules. */
async function subscribeToSeats(ctx: GatewayContext, eventId: string, originalStart: string) {
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
  const seats = (r: OccurrenceCountsRecord) => ({
    originalStart: isoOf(o.originalStart.toInstant()),
    seatsLeft: capacity === null ? null : Math.max(0, capacity - (r.confirmed ?? 0)),
    confirmedCount: r.confirmed ?? 0,
    waitlistCount: r.waitlisted ?? 0,
    goingCount: r.going ?? 0,
  });
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
          return {
            done: false,
            value: seats(
              rows.items[0] ?? ({ confirmed: 0, waitlisted: 0, going: 0 } as OccurrenceCountsRecord),
            ),
          };
        }
        if (event.action === "delete") continue;
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

export { occurrenceModelOf, shortDate, localeOf };
