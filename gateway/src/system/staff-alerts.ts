import type { GatewayServices } from "../context.ts";
import { recipientLocale, translator, type Locale, type Translate } from "../mail/i18n.ts";
import type { AlertDeliveryValue, StaffAlertPrefsRecord, UserRecord } from "../pocketbase/records.ts";
import { holdersOf } from "../access/abilities.ts";
import { staffAlertAbility, type StaffTopic } from "../access/staff.ts";
import { notify } from "./notifier.ts";
// (notify without `email`: the alert's one mail goes to all of them at once, below.)

/**
 * Staff alerts (issue 10): the staff who handle new activity hear about it — a visit request, a
 * sign-up waiting for approval, a prayer request waiting for moderation. Each person chooses per topic
 * (staff_alert_prefs, their own row): "immediate" (an in-app notification and a mail now, the default),
 * "digest" (one mail a day, system/staff-digest.ts) or "off".
 *
 * A system job (docs/ARCHITECTURE.md): the event happens in someone else's request (a visitor's form,
 * a sign-up), who may not read who the staff are, their preferences or their addresses; nothing read
 * here goes into that request's response. Never throws: the visit, sign-up or request is stored
 * whatever happens to the alert.
 */

export type { StaffTopic };
export type Delivery = AlertDeliveryValue;
export const STAFF_TOPICS: readonly StaffTopic[] = ["visits", "signups", "prayer"];

export type { StaffAlertPrefsRecord };

/** No row or no choice yet: at once (staff must not miss the first visitor because nobody chose). */
export const deliveryOf = (
  prefs: Pick<StaffAlertPrefsRecord, StaffTopic> | undefined,
  topic: StaffTopic,
): Delivery => prefs?.[topic] || "immediate";

/** Active accounts that handle `topic` (pastoral prayer requests: only those who may read them). */
export async function staffFor(
  services: GatewayServices,
  topic: StaffTopic,
  options: { pastoral?: boolean } = {},
): Promise<Array<Pick<UserRecord, "id" | "email" | "name" | "locale">>> {
  const system = await services.system.get();
  return system.collection("users").getFullList<UserRecord>({
    filter: `${holdersOf(staffAlertAbility(topic, options))} && status != "suspended"`,
    fields: "id,email,name,locale",
  });
}

export async function prefsOf(
  services: GatewayServices,
  userIds: string[],
): Promise<Map<string, StaffAlertPrefsRecord>> {
  if (!userIds.length) return new Map();
  const system = await services.system.get();
  const rows: StaffAlertPrefsRecord[] = [];
  for (let i = 0; i < userIds.length; i += 100) {
    const chunk = userIds.slice(i, i + 100);
    rows.push(
      ...(await system.collection("staff_alert_prefs").getFullList<StaffAlertPrefsRecord>({
        filter: chunk.map((id) => system.filter("user = {:id}", { id })).join(" || "),
      })),
    );
  }
  return new Map(rows.map((row) => [row.user, row]));
}

export interface StaffAlertText {
  title: string;
  body: string;
  /** The mail: subject, text and the button's label (the button opens `link`). */
  email: { subject: string; text: string; buttonLabel: string };
}

export interface StaffAlert {
  topic: StaffTopic;
  kind: "visit_request" | "signup_pending" | "prayer_pending";
  /** The alert's words, in each recipient's language. */
  text: (t: Translate) => StaffAlertText;
  /** The admin screen that handles it (an app path). */
  link: string;
  /** A pastoral prayer request: only staff who may read pastoral requests hear of it. */
  pastoral?: boolean;
}

/**
 * Tell every member of staff who handles the topic and wants it at once (but not `exceptUserId`, who
 * caused it): one in-app notification each and one mail in Bcc to all of them who read the same
 * language (each in their own: users.locale, else the church's). Resolves to whom it told.
 */
export async function alertStaff(
  services: GatewayServices,
  alert: StaffAlert,
  exceptUserId?: string,
): Promise<string[]> {
  try {
    const staff = (await staffFor(services, alert.topic, { pastoral: !!alert.pastoral })).filter(
      (s) => s.id !== exceptUserId,
    );
    const prefs = await prefsOf(
      services,
      staff.map((s) => s.id),
    );
    const now = staff.filter((s) => deliveryOf(prefs.get(s.id), alert.topic) === "immediate");
    if (!now.length) return [];
    const url = `${services.config.publicUrl.replace(/\/+$/, "")}${alert.link}`;
    await Promise.all(
      now.map((member) =>
        notify(services, {
          userId: member.id,
          kind: alert.kind,
          title: (t) => alert.text(t).title,
          body: (t) => alert.text(t).body,
          link: alert.link,
        }),
      ),
    );
    if (services.mailer.enabled && services.config.smtp) {
      const settings = await services.publicSettings.get();
      const byLocale = new Map<Locale, string[]>();
      for (const member of now) {
        if (!member.email) continue;
        const locale = recipientLocale(member, settings);
        byLocale.set(locale, [...(byLocale.get(locale) ?? []), member.email]);
      }
      for (const [locale, bcc] of byLocale) {
        const { email } = alert.text(translator(locale));
        await services.mailer.send(
          {
            to: services.config.smtp.senderAddress,
            bcc,
            subject: email.subject,
            text: email.text,
            button: { url, label: email.buttonLabel },
            locale,
          },
          settings.churchName,
        );
      }
    }
    return now.map((s) => s.id);
  } catch (error) {
    console.error(
      `[staff-alerts] could not alert staff (${alert.topic}):`,
      error instanceof Error ? error.message : error,
    );
    return [];
  }
}

const excerpt = (text: string, max = 140) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** A new visit request (schema/visits/resolvers.ts#submitVisitRequest). */
export function alertNewVisit(
  services: GatewayServices,
  visit: { name: string; plannedDate: string; partySize: number | null; message: string },
): Promise<string[]> {
  return alertStaff(services, {
    topic: "visits",
    kind: "visit_request",
    link: "/admin/visits",
    text: (t) => {
      const title = t("alert.visit.title", { name: visit.name });
      const summary = t("alert.visit.summary", {
        name: visit.name,
        hasDate: visit.plannedDate ? "yes" : "no",
        date: visit.plannedDate,
        party: visit.partySize ?? 0,
      });
      return {
        title,
        body: summary,
        email: {
          subject: title,
          text: [
            summary,
            ...(visit.message ? [`${t("alert.visit.message")}\n${excerpt(visit.message, 1000)}`] : []),
            t("alert.visit.next"),
          ].join("\n\n"),
          buttonLabel: t("alert.visit.button"),
        },
      };
    },
  });
}

/** A sign-up waiting for approval (schema/auth/resolvers.ts#signUp). */
export function alertNewSignUp(
  services: GatewayServices,
  person: { id: string; firstName: string; lastName: string },
): Promise<string[]> {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return alertStaff(services, {
    topic: "signups",
    kind: "signup_pending",
    link: `/admin/people/${person.id}`,
    text: (t) => ({
      title: t("alert.signup.title", { name }),
      body: t("alert.signup.body"),
      email: {
        subject: t("alert.signup.title", { name }),
        text: t("alert.signup.text", { name }),
        buttonLabel: t("alert.signup.button"),
      },
    }),
  });
}

/** A prayer request waiting for moderation (schema/prayer/resolvers.ts#submitPrayerRequest). */
export function alertPrayerPending(
  services: GatewayServices,
  request: { body: string; visibility: string },
  requesterId?: string,
): Promise<string[]> {
  const pastoral = request.visibility === "pastoral";
  const which = { pastoral: pastoral ? "yes" : "no" };
  return alertStaff(
    services,
    {
      topic: "prayer",
      kind: "prayer_pending",
      link: "/admin/prayer",
      pastoral,
      text: (t) => ({
        title: t("alert.prayer.title", which),
        body: excerpt(request.body),
        email: {
          subject: t("alert.prayer.title", which),
          text: `${t("alert.prayer.text", which)}\n\n“${excerpt(request.body, 500)}”`,
          buttonLabel: t("alert.prayer.button"),
        },
      }),
    },
    requesterId,
  );
}
