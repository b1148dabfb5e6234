import type { GatewayContext } from "../../context.ts";
import { conflict, notFound, pbCall } from "../../errors.ts";
import { createPerson } from "../people/person-mutations.ts";
import { loadersOf } from "../people/loaders.ts";
import type { SettingsRecord, VisitRequestRecord } from "../../pocketbase/records.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { toE164 } from "../../validation/phone.ts";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers, VisitRequestInput } from "../__generated__/types.ts";
import { connection, keysetFilter, pageArgs } from "../pagination.ts";
import { requireAbility } from "../../access/guards.ts";
import { findById } from "../../pocketbase/records-io.ts";
import { fromPocketBaseDate, todayIn } from "../../pocketbase/dates.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { formatWallTime } from "../../mail/brand.ts";
import { churchLocale, translator, type Locale } from "../../mail/i18n.ts";
import { alertNewVisit } from "../../system/staff-alerts.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

/**
 * Plan-a-visit requests (PRODUCT.md §3): anyone may send one (throttled per IP, with a honeypot);
 * staff with people rights read and follow up. Written and read with the caller's token: the
 * collection's rules let anyone create a "new" request and only staff read or change them.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written as YYYY-MM-DD. */
function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

function validateVisit(input: VisitRequestInput, settings: SettingsRecord) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: LIMITS.nameMax });
  const email = v.email("email", input.email);
  let phone = "";
  if (input.phone?.trim()) {
    phone = toE164(input.phone) ?? "";
    if (!phone)
      v.add(
        "phone",
        "invalid_phone",
        "Enter a valid phone number, with the country code if it is not local.",
      );
  }
  const plannedDate = input.plannedDate?.trim() ?? "";
  if (plannedDate) {
    if (!isCalendarDate(plannedDate)) v.add("plannedDate", "invalid_date", "Use a date like 2026-05-03.");
    // ISO dates compare as strings.
    else if (plannedDate < todayIn(settings.timezone))
      v.add("plannedDate", "date_in_past", "Choose today or a later date.");
  }
  const partySize = input.partySize ?? null;
  if (
    partySize !== null &&
    (!Number.isInteger(partySize) || partySize < 1 || partySize > LIMITS.visitPartySizeMax)
  ) {
    v.add("partySize", "out_of_range", `Enter a number from 1 to ${LIMITS.visitPartySizeMax}.`);
  }
  const message = v.text("message", input.message, { max: LIMITS.visitMessageMax });
  v.done();
  return { name, email, phone, plannedDate, partySize, message };
}

/** Visitor forms: THROTTLE.visitorFormsPerIp per client IP per window (PRODUCT.md §9). */
function throttleVisitorForm(ctx: GatewayContext): Promise<void> {
  const key = `form:visit:${ctx.clientIp}`;
  return takeOrRefuse(ctx.limiter, key, THROTTLE.visitorFormsPerIp, THROTTLE.anonymousFormWindowMs);
}

/** "Mary Ann Smith" → Mary Ann / Smith; a single word stays the first name (staff add the last). */
function splitName(name: string): { firstName: string; lastName: string } {
  const trimmed = name.trim().replace(/\s+/g, " ");
  const at = trimmed.lastIndexOf(" ");
  return at > 0
    ? { firstName: trimmed.slice(0, at), lastName: trimmed.slice(at + 1) }
    : { firstName: trimmed, lastName: "" };
}

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Sunday, May 3, 2026" for a YYYY-MM-DD date (a calendar date: no time zone shift). */
const longDate = (ymd: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === "en" ? "en-US" : locale, {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${ymd}T00:00:00Z`));

/** "Sunday" / "Domingo" for a stored day ("sunday"); 2024-01-07 was a Sunday. */
const dayName = (day: string, locale: Locale) =>
  capitalise(
    new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(
      Date.UTC(2024, 0, 7 + Math.max(0, DAYS.indexOf(day))),
    ),
  );

/** The visitor has no account: the mail is in the church's language. */
function confirmationMail(
  settings: SettingsRecord,
  visit: { name: string; email: string; plannedDate: string; partySize: number | null },
) {
  const locale = churchLocale(settings);
  const t = translator(locale);
  const times = [...(settings.serviceTimes ?? [])]
    .sort((a, b) => DAYS.indexOf(a.day) - DAYS.indexOf(b.day) || a.time.localeCompare(b.time))
    // The site's time format ("9:00 AM" in English), not the stored 24-hour "09:00".
    .map(
      (st) =>
        `${dayName(st.day, locale)} ${formatWallTime(st.time, locale)}${st.label ? ` — ${st.label}` : ""}`,
    );
  const thanks = t("visit.thanks", {
    church: settings.churchName,
    hasDate: visit.plannedDate ? "yes" : "no",
    date: visit.plannedDate ? longDate(visit.plannedDate, locale) : "",
    party: visit.partySize ?? 0,
  });
  return composeMail({
    to: visit.email,
    subject: t("visit.subject", { church: settings.churchName }),
    paragraphs: [
      t("mail.hello", { name: visit.name }),
      thanks,
      ...(times.length ? [`${t("visit.times")}\n${times.join("\n")}`] : []),
      ...(settings.address ? [t("visit.where", { address: settings.address })] : []),
      t("visit.ignore"),
    ],
    churchName: settings.churchName,
    locale,
  });
}

export const visitsResolvers: Resolvers = {
  Query: {
    async visitRequests(_, { first, after, status }, ctx) {
      const { size, cursor } = pageArgs(first, after, 20);
      await requireAbility(ctx, "viewPeople");
      const statusFilter = status ? ctx.pb.filter("status = {:s}", { s: status }) : "";
      const filter = [statusFilter, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      const rows = await pbCall(() =>
        ctx.pb
          .collection("visit_requests")
          .getList<VisitRequestRecord>(1, size + 1, { filter, sort: "-created,-id", skipTotal: true }),
      );
      return connection(
        rows.items,
        size,
        (r) => r.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("visit_requests").getList(1, 1, { filter: statusFilter, fields: "id" }),
            )
          ).totalItems,
      );
    },
  },
  Mutation: {
    async submitVisitRequest(_, { input }, ctx) {
      // Spam traps fill the field people never see: answer as if it worked, keep nothing.
      if (input.website?.trim()) return true;
      const settings = await ctx.publicSettings.get();
      const visit = validateVisit(input, settings);
      await throttleVisitorForm(ctx);
      await pbCall(() =>
        ctx.pb.collection("visit_requests").create({
          name: visit.name,
          email: visit.email,
          phone: visit.phone,
          plannedDate: visit.plannedDate ? `${visit.plannedDate} 00:00:00.000Z` : "",
          partySize: visit.partySize ?? 0,
          message: visit.message,
          status: "new",
        }),
      );
      // The request is stored either way; a mail failure is logged, not shown to the visitor.
      await sendNotice(ctx.mailer, confirmationMail(settings, visit), settings.churchName);
      void alertNewVisit(ctx, visit); // not awaited: the visitor does not wait for the staff's mail
      return true;
    },

    async createPersonFromVisit(_, { id, firstName, lastName }, ctx) {
      await requireAbility(ctx, "managePeople");
      const visit = await findById<VisitRequestRecord>(ctx.pb, "visit_requests", id);
      if (!visit) throw notFound();
      if (visit.person) throw conflict("This visit already has a person.", "has_person");
      const split = splitName(visit.name);
      const person = await createPerson(ctx, {
        firstName: firstName ?? split.firstName,
        lastName: lastName ?? split.lastName,
        membershipStatus: "visitor",
        email: visit.email || null,
        phone: visit.phone || null,
      });
      // A visitor did not choose who sees their details: their contact rows start private.
      for (const collection of ["person_emails", "person_phones"] as const) {
        const rows = await pbCall(() =>
          ctx.pb
            .collection(collection)
            .getFullList({ filter: ctx.pb.filter("person = {:p}", { p: person.id }), fields: "id" }),
        );
        for (const row of rows)
          await pbCall(() => ctx.pb.collection(collection).update(row.id, { visibility: "private" }));
      }
      return pbCall(() =>
        ctx.pb.collection("visit_requests").update<VisitRequestRecord>(id, {
          person: person.id,
          ...(visit.status === "new" ? { status: "contacted" } : {}),
        }),
      );
    },

    async updateVisitRequest(_, { id, status, staffNote }, ctx) {
      await requireAbility(ctx, "managePeople");
      const v = new Validator();
      const note =
        staffNote == null ? undefined : v.text("staffNote", staffNote, { max: LIMITS.staffNoteMax });
      v.done();
      return pbCall(() =>
        ctx.pb
          .collection("visit_requests")
          .update<VisitRequestRecord>(id, { status, ...(note !== undefined ? { staffNote: note } : {}) }),
      );
    },
  },
  VisitRequest: {
    // Under the caller's people rules (null when they may not see the person).
    person: (r, _, ctx) => (r.person ? loadersOf(ctx).person.load(r.person) : null),
    phone: (r) => r.phone || null,
    plannedDate: (r) => (r.plannedDate ? r.plannedDate.slice(0, 10) : null),
    partySize: (r) => r.partySize || null,
    message: (r) => r.message ?? "",
    status: (r) => r.status || "new",
    staffNote: (r) => r.staffNote ?? "",
    created: (r) => fromPocketBaseDate(r.created),
  },
};
