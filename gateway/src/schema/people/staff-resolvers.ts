import type { GatewayContext } from "../../context.ts";
import { badUserInput, conflict, forbidden, notFound, pbCall } from "../../errors.ts";
import { churchLocale, recipientLocale, translator } from "../../mail/i18n.ts";
import { notify } from "../../system/notifier.ts";
import type {
  HouseholdRecord,
  PersonEmailRecord,
  PersonPhoneRecord,
  PersonRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import type { ApproveSignUpInput, MatchReason, MembershipStatus, Resolvers } from "../__generated__/types.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { can, holdersOf } from "../../access/abilities.ts";
import { mayRemoveStaffAccounts } from "../../access/staff.ts";
import { anonymize } from "./anonymize.ts";
import { mergeInto } from "./merge.ts";
import { displayName } from "./mappers.ts";
import { findById, rowsPointingAt } from "../../pocketbase/records-io.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { pocketBaseNow } from "../../pocketbase/dates.ts";

/**
 * Staff processes of the people module: sign-up approval, duplicate suggestions and merge, archive,
 * anonymisation, and the member's own deletion request. Everything runs with the caller's token;
 * the one system job is the mail fan-out to administrators (see notifyDeletionRequest).
 */

const MATCHES_MAX = 10;
/** Contact values of one person used to look for duplicates (people rarely have more). */
const MATCH_VALUES_MAX = 20;
/** Email beats phone beats name; several reasons add up. */
const REASON_WEIGHT: Record<MatchReason, number> = { EMAIL: 100, PHONE: 10, NAME: 1 };

const readPerson = (ctx: GatewayContext, id: string) =>
  pbCall(() => ctx.pb.collection("people").getOne<PersonRecord>(id));

/** Logins linked to a person (people staff may list users; emails stay hidden from them). */
const loginsOf = (ctx: GatewayContext, personId: string) =>
  rowsPointingAt<UserRecord>(ctx.pb, "users", "person", personId, "id,locale");

const forgetLogins = (ctx: GatewayContext, logins: Array<{ id: string }>) => {
  // The viewer cache would keep the old person (status, household) for a few seconds.
  for (const login of logins) ctx.viewerCache.forgetUser(login.id);
};

const sameText = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Existing people who may be the same as `person`: same email, phone, or last name and first/preferred name. */
async function matchSuggestions(
  ctx: GatewayContext,
  person: PersonRecord,
): Promise<Array<{ person: PersonRecord; reasons: MatchReason[] }>> {
  const viewer = await ctx.viewer();
  if (!can(viewer, "viewPeople")) return [];
  const pb = ctx.pb;
  const [emails, phones] = await Promise.all([
    rowsPointingAt<PersonEmailRecord>(pb, "person_emails", "person", person.id, "email"),
    rowsPointingAt<PersonPhoneRecord>(pb, "person_phones", "person", person.id, "number"),
  ]);
  const ownEmails = emails.slice(0, MATCH_VALUES_MAX).map((e) => e.email.toLowerCase());
  const ownPhones = phones.slice(0, MATCH_VALUES_MAX).map((p) => p.number);
  const givenNames = [person.firstName, person.preferredName].filter((n) => n?.trim());
  // Approved or archived people, never duplicates already merged, anonymised records or itself.
  const candidate = (prefix: string) =>
    pb.filter(
      `${prefix}id != {:self} && ${prefix}recordStatus != "pending" && ${prefix}mergedInto = "" && ${prefix}anonymizedAt = ""`,
      { self: person.id },
    );
  const anyOf = (clauses: string[]) => `(${clauses.join(" || ")})`;

  const [emailRows, phoneRows, namesakes] = await Promise.all([
    // `~` is case-insensitive (and a substring match): exact equality is checked below.
    ownEmails.length
      ? pbCall(() =>
          pb
            .collection("person_emails")
            .getList<PersonEmailRecord & { expand?: { person?: PersonRecord } }>(1, 200, {
              filter: `${anyOf(ownEmails.map((email) => pb.filter("email ~ {:email}", { email })))} && ${candidate("person.")}`,
              expand: "person",
              skipTotal: true,
            }),
        ).then((page) => page.items)
      : [],
    ownPhones.length
      ? pbCall(() =>
          pb
            .collection("person_phones")
            .getList<PersonPhoneRecord & { expand?: { person?: PersonRecord } }>(1, 200, {
              filter: `${anyOf(ownPhones.map((number) => pb.filter("number = {:number}", { number })))} && ${candidate("person.")}`,
              expand: "person",
              skipTotal: true,
            }),
        ).then((page) => page.items)
      : [],
    person.lastName?.trim() && givenNames.length
      ? pbCall(() =>
          pb.collection("people").getList<PersonRecord>(1, 200, {
            filter:
              `${pb.filter("lastName ~ {:last}", { last: person.lastName.trim() })} && ` +
              `${anyOf(givenNames.map((name) => pb.filter("(firstName ~ {:name} || preferredName ~ {:name})", { name: name.trim() })))} && ${candidate("")}`,
            skipTotal: true,
          }),
        ).then((page) => page.items)
      : [],
  ]);

  const found = new Map<string, { person: PersonRecord; reasons: Set<MatchReason> }>();
  const note = (match: PersonRecord | undefined, reason: MatchReason) => {
    if (!match) return;
    const entry = found.get(match.id) ?? { person: match, reasons: new Set<MatchReason>() };
    entry.reasons.add(reason);
    found.set(match.id, entry);
  };
  for (const row of emailRows)
    if (ownEmails.includes(row.email.toLowerCase())) note(row.expand?.person, "EMAIL");
  for (const row of phoneRows) note(row.expand?.person, "PHONE");
  for (const other of namesakes) {
    const sameGivenName = givenNames.some(
      (name) => sameText(name, other.firstName) || sameText(name, other.preferredName),
    );
    if (sameText(other.lastName, person.lastName) && sameGivenName) note(other, "NAME");
  }
  const score = (reasons: Set<MatchReason>) => [...reasons].reduce((sum, r) => sum + REASON_WEIGHT[r], 0);
  return [...found.values()]
    .sort(
      (a, b) =>
        score(b.reasons) - score(a.reasons) ||
        a.person.lastName.localeCompare(b.person.lastName) ||
        a.person.firstName.localeCompare(b.person.firstName),
    )
    .slice(0, MATCHES_MAX)
    .map(({ person: match, reasons }) => ({
      person: match,
      reasons: (["EMAIL", "PHONE", "NAME"] as const).filter((r) => reasons.has(r)),
    }));
}

const membershipValue = (status: MembershipStatus | null | undefined) => status ?? "visitor";

/**
 * Where an approved person lives: the household staff chose, else the one they already have (a
 * household invitation put them there), else a new household named after them where they are the head.
 */
async function placeInHousehold(
  ctx: GatewayContext,
  person: PersonRecord,
  householdId: string | null | undefined,
): Promise<Partial<PersonRecord>> {
  if (householdId) {
    if (!(await findById<HouseholdRecord>(ctx.pb, "households", householdId))) {
      throw badUserInput({ householdId: { code: "not_found", message: "This household was not found." } });
    }
    return { household: householdId, householdRole: await roleInHousehold(ctx, householdId, person) };
  }
  if (person.household)
    return person.householdRole
      ? {}
      : { householdRole: await roleInHousehold(ctx, person.household, person) };
  const settings = await ctx.publicSettings.get();
  const name = translator(churchLocale(settings))("household.defaultName", { lastName: person.lastName });
  const household = await pbCall(() => ctx.pb.collection("households").create<HouseholdRecord>({ name }));
  return { household: household.id, householdRole: "head" };
}

/** The role of someone joining a household: head of an empty one, else spouse of a head without one, else other. */
async function roleInHousehold(
  ctx: GatewayContext,
  householdId: string,
  person: PersonRecord,
): Promise<PersonRecord["householdRole"]> {
  if (person.household === householdId && person.householdRole) return person.householdRole;
  const others = (
    await rowsPointingAt<PersonRecord>(
      ctx.pb,
      "people",
      "household",
      householdId,
      "id,householdRole,recordStatus",
    )
  ).filter((p) => p.id !== person.id && p.recordStatus !== "archived");
  if (person.ageGroup === "child") return "child";
  if (!others.some((p) => p.householdRole === "head")) return "head";
  if (!others.some((p) => p.householdRole === "spouse")) return "spouse";
  return "other";
}

/** Link the sign-up to an existing person: the pending record (and its login) merge into it. */
async function linkSignUp(
  ctx: GatewayContext,
  pending: PersonRecord,
  input: ApproveSignUpInput,
): Promise<void> {
  const targetId = input.linkToPersonId!;
  if (targetId === pending.id)
    throw badUserInput({
      linkToPersonId: { code: "same_person", message: "Choose an existing person to link to." },
    });
  const target = await findById<PersonRecord>(ctx.pb, "people", targetId);
  if (!target)
    throw badUserInput({ linkToPersonId: { code: "not_found", message: "This person was not found." } });
  if (target.recordStatus === "pending" || target.mergedInto || target.anonymizedAt) {
    throw badUserInput({
      linkToPersonId: { code: "invalid", message: "Link the sign-up to an approved person." },
    });
  }
  await mergeInto(ctx.pb, target, pending, ctx.system);
  const merged = await readPerson(ctx, target.id);
  const data: Partial<PersonRecord> = {
    ...(merged.recordStatus !== "active" ? { recordStatus: "active" as const } : {}),
    // The existing person's status was set by staff before; the approval only fills a blank one.
    ...(merged.membershipStatus
      ? {}
      : { membershipStatus: membershipValue(input.membershipStatus) as PersonRecord["membershipStatus"] }),
    ...(input.householdId || !merged.household ? await placeInHousehold(ctx, merged, input.householdId) : {}),
  };
  if (Object.keys(data).length) await pbCall(() => ctx.pb.collection("people").update(target.id, data));
}

/** Approve the pending person as a new member of the church. */
async function activateSignUp(
  ctx: GatewayContext,
  pending: PersonRecord,
  input: ApproveSignUpInput,
): Promise<void> {
  const household = await placeInHousehold(ctx, pending, input.householdId);
  await pbCall(() =>
    ctx.pb.collection("people").update(pending.id, {
      recordStatus: "active",
      membershipStatus: membershipValue(input.membershipStatus),
      ...household,
    }),
  );
}

/** The address the person gave at sign-up (their primary email row), read as the caller. */
async function contactEmailOf(ctx: GatewayContext, personId: string): Promise<string | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("person_emails").getList<PersonEmailRecord>(1, 1, {
      filter: ctx.pb.filter("person = {:id}", { id: personId }),
      sort: "-isPrimary,created",
      skipTotal: true,
    }),
  );
  return rows.items[0]?.email ?? null;
}

/**
 * System job (mail fan-out): tell every account whose roles grant managePeople that someone asked
 * for their data to be deleted. The requester cannot read who the administrators are (nor their
 * emails), so the list comes from the system client; nothing read here is shown to the requester.
 * Documented in docs/ARCHITECTURE.md.
 */
async function notifyDeletionRequest(ctx: GatewayContext, person: PersonRecord): Promise<void> {
  const system = await ctx.system.get();
  const admins = await system.collection("users").getFullList<UserRecord>({
    filter: `${holdersOf("managePeople")} && status != "suspended"`,
    fields: "id,email,locale",
  });
  const settings = await ctx.publicSettings.get();
  const name = displayName(person);
  await Promise.all(
    admins.map((admin) => {
      const locale = recipientLocale(admin, settings);
      const t = translator(locale);
      return sendNotice(
        ctx.mailer,
        composeMail({
          to: admin.email,
          subject: t("deletion.subject", { name }),
          paragraphs: [t("deletion.body", { name, church: settings.churchName }), t("deletion.next")],
          link: { url: `${ctx.config.publicUrl}/admin/people/${person.id}`, label: t("deletion.button") },
          churchName: settings.churchName,
          locale,
        }),
        settings.churchName,
      );
    }),
  );
}

export const peopleStaffResolvers: Resolvers = {
  Person: {
    matchSuggestions: (person, _, ctx) => matchSuggestions(ctx, person),
  },
  Mutation: {
    async approveSignUp(_, { personId, input }, ctx) {
      await requireAbility(ctx, "managePeople");
      const pending = await readPerson(ctx, personId);
      if (pending.recordStatus !== "pending")
        throw conflict("This sign-up has already been handled.", "signup_handled");
      // Read before linking: the pending person's rows move to the existing person.
      const [email, logins] = await Promise.all([contactEmailOf(ctx, pending.id), loginsOf(ctx, pending.id)]);
      if (input.linkToPersonId) await linkSignUp(ctx, pending, input);
      else await activateSignUp(ctx, pending, input);
      forgetLogins(ctx, logins);

      const approvedId = input.linkToPersonId ?? pending.id;
      // In the app too (no email here: the approval mail below is the email).
      for (const login of logins) {
        await notify(ctx, {
          userId: login.id,
          kind: "signup_approved",
          title: (t) => t("signupApproved.title"),
          body: (t) => t("signupApproved.body"),
          link: "/me",
        });
      }
      if (email) {
        const settings = await ctx.publicSettings.get();
        // Their login's language when they chose one at sign-up, else the church's.
        const locale = recipientLocale(logins.find((login) => login.locale) ?? null, settings);
        const t = translator(locale);
        await sendNotice(
          ctx.mailer,
          composeMail({
            to: email,
            subject: t("signupApproved.title"),
            paragraphs: [
              t("mail.hello", { name: pending.preferredName || pending.firstName }),
              t("signupApproved.welcome", { church: settings.churchName }),
            ],
            link: { url: `${ctx.config.publicUrl}/me`, label: t("signupApproved.button") },
            churchName: settings.churchName,
            locale,
          }),
          settings.churchName,
        );
      } else {
        console.warn(`[people] approved ${approvedId} without an email address to notify`);
      }
      return readPerson(ctx, approvedId);
    },

    async mergePeople(_, { keepId, mergeId }, ctx) {
      await requireAbility(ctx, "managePeople");
      if (keepId === mergeId)
        throw badUserInput({ mergeId: { code: "same_person", message: "Choose two different people." } });
      const [keep, merge] = await Promise.all([readPerson(ctx, keepId), readPerson(ctx, mergeId)]);
      if (merge.mergedInto)
        throw conflict("This person was already merged into another record.", "already_merged");
      if (keep.mergedInto)
        throw conflict(
          "The person to keep was merged into another record; keep that one instead.",
          "keep_merged",
        );
      if (keep.anonymizedAt || merge.anonymizedAt)
        throw conflict("Anonymised records can't be merged.", "anonymised");
      const logins = await loginsOf(ctx, merge.id);
      await mergeInto(ctx.pb, keep, merge, ctx.system);
      forgetLogins(ctx, logins);
      return readPerson(ctx, keepId);
    },

    async archivePerson(_, { id }, ctx) {
      await requireAbility(ctx, "managePeople");
      const archived = await pbCall(() =>
        ctx.pb.collection("people").update<PersonRecord>(id, { recordStatus: "archived" }),
      );
      forgetLogins(ctx, await loginsOf(ctx, id));
      return archived;
    },

    async anonymizePerson(_, { id }, ctx) {
      const viewer = await requireAbility(ctx, "managePeople");
      if (viewer.person === id)
        throw conflict("You can't anonymise your own record. Ask another administrator.", "own_record");
      const person = await readPerson(ctx, id);
      // A login with roles is a staff account: only account managers may delete it (users.deleteRule).
      // Refuse before anything is anonymised, rather than half-way through.
      if (!mayRemoveStaffAccounts(viewer)) {
        const logins = await rowsPointingAt<UserRecord>(ctx.pb, "users", "person", id, "id,roles");
        if (logins.some((login) => login.roles?.length)) throw forbidden();
      }
      forgetLogins(
        ctx,
        (await anonymize(ctx.pb, person, ctx.system)).map((userId) => ({ id: userId })),
      );
      return readPerson(ctx, id);
    },

    async requestDataDeletion(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) throw notFound();
      const person = await readPerson(ctx, viewer.person);
      // Asking again changes nothing and does not mail the administrators twice.
      if (person.deletionRequestedAt) return person;
      const updated = await pbCall(() =>
        ctx.pb.collection("people").update<PersonRecord>(person.id, { deletionRequestedAt: pocketBaseNow() }),
      );
      ctx.viewerCache.forgetUser(viewer.id);
      await notifyDeletionRequest(ctx, updated);
      return updated;
    },

    async cancelDataDeletion(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) throw notFound();
      const updated = await pbCall(() =>
        ctx.pb.collection("people").update<PersonRecord>(viewer.person, { deletionRequestedAt: "" }),
      );
      ctx.viewerCache.forgetUser(viewer.id);
      return updated;
    },
  },
};
