import { randomBytes } from "node:crypto";
import { ClientResponseError } from "pocketbase";
import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall, unauthenticated } from "../../errors.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { MutationResolvers, QueryResolvers } from "../__generated__/types.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { readsEveryAttendee } from "../../access/events.ts";
import type { RegistrationRecord, RsvpRecord } from "../../pocketbase/records.ts";
import { instantOf, occurrenceAt, pbDateOf, type OccurrenceModel } from "./occurrences.ts";
import { loadersOf, windowKey, type SignUpWindow } from "./loaders.ts";
import { requireOccurrence } from "./reads.ts";
import { parseInstant } from "./validation.ts";
import { mailCancelledByStaff, mailMoved, mailRegistration, mailRsvp } from "./mails.ts";
import { attendeesCsv } from "./csv.ts";
import { validateAnswers } from "./questions.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

// RSVPs and registrations: a visitor's or member's sign-up, its mail link, staff's attendee lists.

/** An RSVP as the API answers it; one read or written with its mail link's token shows its holder the email. */
export type RsvpModel = RsvpRecord & { readWithToken?: boolean };

export const newToken = () => randomBytes(24).toString("base64url");
const newCode = () => {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length])
    .join("")
    .replace(/^(.{4})/, "$1-");
};

function throttleVisitorForm(ctx: GatewayContext, kind: string): Promise<void> {
  const key = `form:${kind}:${ctx.clientIp}`;
  return takeOrRefuse(ctx.limiter, key, THROTTLE.visitorFormsPerIp, THROTTLE.anonymousFormWindowMs);
}

/** The events hook's refusals (pb_hooks/lib/events.js), by code, in the words of our catalogue. */
const REFUSED: Record<string, string> = {
  duplicate_registration: "You are already registered for this date with this email.",
  not_enough_seats: "There are not enough seats left.",
  registration_closed: "Registration is closed for this date.",
  registration_not_open: "This event does not take registrations.",
  rsvp_not_open: "This event does not take RSVPs.",
};
/** An RSVP's refusals say "RSVPs" where it matters. */
const RSVP_REFUSED: Record<string, string> = {
  ...REFUSED,
  registration_closed: "RSVPs are closed for this date.",
};

/**
 * The window as the events hook decides it (lib/events.js#signUpWindow, read through the caller's token
 * and batched by the loader): the page shows the form from it, and a sign-up is answered from it before
 * the write (the hook decides the write itself too, so a window closing in between is refused alike).
 */
export async function signUpWindow(
  ctx: GatewayContext,
  o: OccurrenceModel,
  kind: "rsvp" | "registration" | "" = "",
): Promise<SignUpWindow> {
  const window = await loadersOf(ctx).windows.load(windowKey(o.event.id, o.originalStart.toInstant(), kind));
  if (!window) throw notFound(); // the event went out of the caller's sight since it was read
  return window;
}

/**
 * PocketBase's hook refusals ("validation_not_enough_seats") as field errors of our catalogue: on
 * originalStart (the hook names event or occurrenceStart), unless `fields` says otherwise.
 */
async function hookWrite<T>(
  run: () => Promise<T>,
  {
    messages = REFUSED,
    fields: rename = {},
  }: { messages?: Record<string, string>; fields?: Record<string, string> } = {},
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 400) {
      const data = (error.response?.data ?? {}) as Record<string, { code?: string; message?: string }>;
      const codeOf = (d: { code?: string }) => d.code?.replace(/^validation_/, "") ?? "";
      const fields = Object.entries(data).filter(
        ([, d]) => d.code?.startsWith("validation_") && messages[codeOf(d)],
      );
      if (fields.length) {
        throw badUserInput(
          Object.fromEntries(
            fields.map(([field, d]) => [
              rename[field] ?? (field === "occurrenceStart" || field === "event" ? "originalStart" : field),
              { code: codeOf(d), message: messages[codeOf(d)]! },
            ]),
          ),
        );
      }
    }
    return writeAsCaller(() => Promise.reject(error));
  }
}

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

/** Reading sign-ups: a mail link's registration, an occurrence's attendees, the caller's own. */
export const signUpQueries: Pick<
  QueryResolvers,
  "registrationByToken" | "rsvpByToken" | "attendees" | "myUpcomingEvents"
> = {
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
  async rsvpByToken(_, { token }, ctx) {
    if (!token || token.length > 64) return null;
    const rows = await pbCall(() =>
      ctx.pb.collection("rsvps").getList<RsvpRecord>(1, 1, { ...tokenParty(ctx, token), skipTotal: true }),
    );
    const rsvp = rows.items[0];
    return rsvp ? { ...rsvp, readWithToken: true } : null;
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
    const event = await loadersOf(ctx).event.load(eventId);
    return { registrations, rsvps, csv: attendeesCsv(registrations, rsvps, event?.questions ?? []) };
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
};

/** Answering, registering, cancelling, and staff moving a registration. */
export const signUpMutations: Pick<
  MutationResolvers,
  "rsvp" | "withdrawRsvp" | "register" | "cancelRegistration" | "moveRegistration"
> = {
  async rsvp(_, { input }, ctx) {
    const viewer = await ctx.viewer();
    const o = await requireOccurrence(ctx, input.eventId, input.originalStart);
    const v = new Validator();
    const guests = input.guests ?? 0;
    if (!Number.isInteger(guests) || guests < 0 || guests > LIMITS.rsvpGuestsMax)
      v.add("guests", "out_of_range", `Enter a number of guests from 0 to ${LIMITS.rsvpGuestsMax}.`);
    const name = viewer
      ? viewer.name || viewer.email
      : v.text("name", input.name, { required: true, max: LIMITS.nameMax });
    const email = viewer ? viewer.email : v.email("email", input.email);
    const window = await signUpWindow(ctx, o, "rsvp");
    if (!window.open && window.code) v.add("originalStart", window.code, RSVP_REFUSED[window.code]!);
    v.done();
    const response = input.response;
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
        ? await hookWrite(
            () => ctx.pb.collection("rsvps").update<RsvpRecord>(existing.id, { response, guests }),
            { messages: RSVP_REFUSED },
          )
        : await hookWrite(
            () =>
              ctx.pb.collection("rsvps").create<RsvpRecord>({
                ...key,
                user: viewer.id,
                person: viewer.person || "",
                name,
                email,
                response,
                guests,
              }),
            { messages: RSVP_REFUSED },
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
        const rsvp = await hookWrite(
          () =>
            ctx.pb
              .collection("rsvps")
              .update<RsvpRecord>(
                existing.id,
                { response, guests, name, email },
                { query: { token: input.token! } },
              ),
          { messages: RSVP_REFUSED },
        );
        if (answerChanged(existing, rsvp)) ctx.afterResponse(() => void mailRsvp(ctx, o, rsvp, input.token!));
        return { rsvp: { ...rsvp, readWithToken: true }, token: input.token };
      }
    }
    await throttleVisitorForm(ctx, "rsvp");
    const token = newToken();
    const rsvp = await hookWrite(
      () =>
        ctx.pb
          .collection("rsvps")
          .create<RsvpRecord>(
            { ...key, user: "", name, email, response, guests, cancelToken: token },
            { query: { token } },
          ),
      { messages: RSVP_REFUSED },
    );
    ctx.afterResponse(() => void mailRsvp(ctx, o, rsvp, token));
    return { rsvp: { ...rsvp, readWithToken: true }, token };
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
    if (!Number.isInteger(attendees) || attendees < 1 || attendees > LIMITS.partySizeMax)
      v.add("attendees", "out_of_range", `A party is 1 to ${LIMITS.partySizeMax} people.`);
    const attendeeNames = (input.attendeeNames ?? [])
      .map((n) => n.trim().slice(0, LIMITS.nameMax))
      .filter(Boolean)
      .slice(0, LIMITS.partySizeMax);
    if (input.website?.trim())
      throw badUserInput({ website: { code: "invalid", message: "Leave this field empty." } });
    const o = await requireOccurrence(ctx, input.eventId, input.originalStart);
    const answers = validateAnswers(v, o.event.questions ?? [], input.answers);
    v.done();
    const window = await signUpWindow(ctx, o, "registration");
    if (!window.open && window.code)
      throw badUserInput({ originalStart: { code: window.code, message: REFUSED[window.code]! } });
    if (!viewer) await throttleVisitorForm(ctx, "register");
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
          answers,
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
      if (!id) throw badUserInput({ id: { code: "required", message: "Say which registration to cancel." } });
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
    // Staff cancelling someone else's registration tell them (the owner, or a mail link's holder, knows).
    const viewer = token ? null : await ctx.viewer();
    const byStaff = target.status !== "cancelled" && viewer !== null && target.user !== viewer.id;
    const cancelledId = target.id;
    ctx.afterResponse(() => {
      // Seats freed: the hook queued a mail for everyone it promoted, in the same save.
      ctx.mailOutbox.kick();
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
    // The hook admits the party where it goes (an event taking registrations, with seats or a waitlist).
    const updated = await hookWrite(
      () =>
        ctx.pb.collection("registrations").update<RegistrationRecord>(id, {
          event: o.event.id,
          occurrenceStart: pbDateOf(o.originalStart.toInstant()),
        }),
      { fields: { event: "eventId" } },
    );
    ctx.afterResponse(() => {
      void mailMoved(ctx, o, id).catch((error: unknown) =>
        console.error("[events] moved mail failed:", error),
      );
      ctx.mailOutbox.kick();
    });
    return updated;
  },
};
