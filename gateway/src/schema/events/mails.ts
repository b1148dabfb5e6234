import { Temporal } from "temporal-polyfill";
import type { GatewayContext, GatewayServices } from "../../context.ts";
import { composeMail } from "../../mail/notice.ts";
import { churchLocale, recipientLocale, translator, type Locale } from "../../mail/i18n.ts";
import type { MailOutboxKind } from "../../pocketbase/records.ts";
import type { QueuedMail } from "../../system/mail-outbox.ts";
import type {
  EventExceptionRecord,
  EventRecord,
  RegistrationRecord,
  RsvpRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { dateKeyOf, instantOf, pbDateOf, type OccurrenceModel } from "./occurrences.ts";
import { TIME_OF_DAY } from "@flock/shared/i18n/time";

// The mails events send: in the reader's language, after the response (ctx.afterResponse), through the
// mail outbox (system/mail-outbox.ts): each is queued in the database first, then sent once, retried
// when the SMTP server fails. A waitlist promotion is queued by PocketBase's events hook itself.

/** What writing an event mail needs: the caller's context or, in the outbox job, the gateway's services. */
type MailServices = Pick<GatewayServices, "publicSettings" | "system" | "config" | "mailOutbox">;

const eventWhen = (o: { start: Temporal.ZonedDateTime }, locale: string) =>
  new Intl.DateTimeFormat(locale === "es" ? "es" : "en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    ...TIME_OF_DAY,
    timeZone: o.start.timeZoneId,
  }).format(new Date(o.start.epochMilliseconds));

/**
 * Event mails go to visitors as much as to members: a sign-up with an account (`userId`) is written in
 * its owner's language, others in the church's (system job: the superuser reads the account's choice).
 */
async function mailContext(
  ctx: MailServices,
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

/** Write one event mail in its reader's language (`userId`: the sign-up's account, if any). */
async function writeEventMail(
  ctx: MailServices,
  userId: string | null | undefined,
  write: (text: MailText) => {
    to: string;
    subject: string;
    paragraphs: string[];
    link: { url: string; label: string };
  },
): Promise<QueuedMail> {
  const text = await mailContext(ctx, userId);
  return {
    message: composeMail({ ...write(text), churchName: text.churchName, locale: text.locale }),
    churchName: text.churchName,
  };
}

/** Write one event mail and queue it in the outbox (sent at once, retried if the SMTP server fails). */
async function sendEventMail(
  ctx: MailServices,
  kind: MailOutboxKind,
  userId: string | null | undefined,
  write: Parameters<typeof writeEventMail>[2],
): Promise<void> {
  await ctx.mailOutbox.enqueue(kind, await writeEventMail(ctx, userId, write));
}

export async function mailRegistration(
  ctx: GatewayContext,
  o: OccurrenceModel,
  parts: RegistrationRecord[],
  token: string,
) {
  const first = parts[0]!;
  const confirmed = parts.filter((p) => p.status === "confirmed").reduce((n, p) => n + p.attendees, 0);
  const waitlisted = parts.filter((p) => p.status === "waitlisted").reduce((n, p) => n + p.attendees, 0);
  await sendEventMail(ctx, "event.registered", first.user, ({ t, locale }) => ({
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
      // The answers to the event's own questions, as given (YES / NO in the reader's words).
      ...(first.answers ?? []).map((a) =>
        t("event.registered.answer", {
          question: a.question,
          answer:
            a.value === "YES" ? t("event.answer.yes") : a.value === "NO" ? t("event.answer.no") : a.value,
        }),
      ),
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
 * visitor's (name and email, no account) and a signed-in member's alike. A visitor's mail carries the
 * RSVP's secret token: the link opens the event with their answer, to change or withdraw, in any browser.
 */
export async function mailRsvp(ctx: GatewayContext, o: OccurrenceModel, rsvp: RsvpRecord, token?: string) {
  const response = rsvp.response;
  await sendEventMail(ctx, "event.rsvp", rsvp.user, ({ t, locale }) => ({
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
      url:
        `${ctx.config.publicUrl}/events/${o.event.slug}?date=${dateKeyOf(o)}` +
        (token ? `&rsvp=${encodeURIComponent(token)}` : ""),
      label: t(token ? "event.rsvp.manageButton" : "event.rsvp.button"),
    },
  }));
}

/**
 * System job: tell someone staff moved their registration (the new date, whether they have a seat
 * there, the same link to view or cancel). The system client reads the row only to address the mail
 * and to put its secret link in it, which staff may not read.
 */
export async function mailMoved(ctx: GatewayContext, o: OccurrenceModel, id: string): Promise<void> {
  const system = await ctx.system.get();
  const r = await system.collection("registrations").getOne<RegistrationRecord>(id);
  await sendEventMail(ctx, "event.moved", r.user, ({ t, locale }) => ({
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
export async function mailCancelled(
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
    await sendEventMail(ctx, "event.cancelled", row.user, ({ t, locale }) => ({
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
export async function mailCancelledByStaff(ctx: GatewayContext, id: string): Promise<void> {
  const system = await ctx.system.get();
  const r = await system.collection("registrations").getOne<RegistrationRecord>(id, { expand: "event" });
  const event = r.expand?.event;
  if (!event) return;
  const start = instantOf(r.occurrenceStart).toZonedDateTimeISO(event.timezone);
  await sendEventMail(ctx, "event.cancelled_by_staff", r.user, ({ t, locale, churchName }) => ({
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
 * The outbox job: write the mail of a promotion that PocketBase's events hook queued (in the same save
 * that confirmed the registration), or null when the registration is gone or no longer confirmed. The
 * superuser only reads the row to address the mail and to put its secret link in it.
 */
export async function composePromotion(
  ctx: MailServices,
  registrationId: string,
): Promise<QueuedMail | null> {
  if (!registrationId) return null;
  const system = await ctx.system.get();
  const r = await system
    .collection("registrations")
    .getOne<RegistrationRecord>(registrationId, { expand: "event" })
    .catch(() => null);
  const event = r?.expand?.event;
  if (!r || !event || r.status !== "confirmed") return null;
  const start = instantOf(r.occurrenceStart).toZonedDateTimeISO(event.timezone);
  return writeEventMail(ctx, r.user, ({ t, locale }) => ({
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
