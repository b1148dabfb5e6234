import type { GatewayServices } from "../context.ts";
import type { AlertDeliveryValue, PermissionName, StaffAlertPrefsRecord, UserRecord } from "../pocketbase/records.ts";
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

export type StaffTopic = "visits" | "signups" | "prayer";
export type Delivery = AlertDeliveryValue;
export const STAFF_TOPICS: readonly StaffTopic[] = ["visits", "signups", "prayer"];

/** Who handles each topic: the permissions that open its admin screen and its actions. */
export const TOPIC_PERMISSIONS: Record<StaffTopic, PermissionName[]> = {
  visits: ["people.manage"],
  signups: ["people.manage"],
  prayer: ["prayer.moderate", "prayer.view_pastoral"],
};

export type { StaffAlertPrefsRecord };

/** No row or no choice yet: at once (staff must not miss the first visitor because nobody chose). */
export const deliveryOf = (prefs: Pick<StaffAlertPrefsRecord, StaffTopic> | undefined, topic: StaffTopic): Delivery => prefs?.[topic] || "immediate";

/** `:each ?=` as in the API rules: a plain `?=` over relation → multi-select never matches on 0.40.4. */
const holdsAny = (permissions: PermissionName[]) => `(${permissions.map((p) => `roles.permissions:each ?= "${p}"`).join(" || ")})`;

/** Active accounts that handle `topic` (pastoral prayer requests: only those who may read them). */
export async function staffFor(services: GatewayServices, topic: StaffTopic, options: { pastoral?: boolean } = {}): Promise<Array<Pick<UserRecord, "id" | "email" | "name">>> {
  const system = await services.system.get();
  const permissions: PermissionName[] = topic === "prayer" && options.pastoral ? ["prayer.view_pastoral"] : TOPIC_PERMISSIONS[topic];
  return system.collection("users").getFullList<UserRecord>({ filter: `${holdsAny(permissions)} && status != "suspended"`, fields: "id,email,name" });
}

export async function prefsOf(services: GatewayServices, userIds: string[]): Promise<Map<string, StaffAlertPrefsRecord>> {
  if (!userIds.length) return new Map();
  const system = await services.system.get();
  const rows: StaffAlertPrefsRecord[] = [];
  for (let i = 0; i < userIds.length; i += 100) {
    const chunk = userIds.slice(i, i + 100);
    rows.push(...(await system.collection("staff_alert_prefs").getFullList<StaffAlertPrefsRecord>({ filter: chunk.map((id) => system.filter("user = {:id}", { id })).join(" || ") })));
  }
  return new Map(rows.map((row) => [row.user, row]));
}

export interface StaffAlert {
  topic: StaffTopic;
  kind: "visit_request" | "signup_pending" | "prayer_pending";
  title: string;
  body: string;
  /** The admin screen that handles it (an app path). */
  link: string;
  /** A pastoral prayer request: only staff with prayer.view_pastoral hear of it. */
  pastoral?: boolean;
  /** The mail: subject, text and the button's label (the button opens `link`). */
  email: { subject: string; text: string; buttonLabel: string };
}

/**
 * Tell every member of staff who handles the topic and wants it at once (but not `exceptUserId`, who
 * caused it): one in-app notification each and one mail to all of them in Bcc. Resolves to whom it told.
 */
export async function alertStaff(services: GatewayServices, alert: StaffAlert, exceptUserId?: string): Promise<string[]> {
  try {
    const staff = (await staffFor(services, alert.topic, { pastoral: !!alert.pastoral })).filter((s) => s.id !== exceptUserId);
    const prefs = await prefsOf(services, staff.map((s) => s.id));
    const now = staff.filter((s) => deliveryOf(prefs.get(s.id), alert.topic) === "immediate");
    if (!now.length) return [];
    const url = `${services.config.publicUrl.replace(/\/+$/, "")}${alert.link}`;
    await Promise.all(now.map((member) => notify(services, { userId: member.id, kind: alert.kind, title: alert.title, body: alert.body, link: alert.link })));
    const addresses = now.map((s) => s.email).filter(Boolean);
    if (addresses.length && services.mailer.enabled && services.config.smtp) {
      const settings = await services.publicSettings.get();
      await services.mailer.send(
        { to: services.config.smtp.senderAddress, bcc: addresses, subject: alert.email.subject, text: alert.email.text, button: { url, label: alert.email.buttonLabel } },
        settings.churchName,
      );
    }
    return now.map((s) => s.id);
  } catch (error) {
    console.error(`[staff-alerts] could not alert staff (${alert.topic}):`, error instanceof Error ? error.message : error);
    return [];
  }
}

const excerpt = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** A new visit request (schema/visits/resolvers.ts#submitVisitRequest). */
export function alertNewVisit(services: GatewayServices, visit: { name: string; plannedDate: string; partySize: number | null; message: string }): Promise<string[]> {
  const when = visit.plannedDate ? ` for ${visit.plannedDate}` : "";
  const party = visit.partySize && visit.partySize > 1 ? ` (a party of ${visit.partySize})` : "";
  const summary = `${visit.name} plans a visit${when}${party}.`;
  return alertStaff(services, {
    topic: "visits",
    kind: "visit_request",
    title: `New visit request from ${visit.name}`,
    body: summary,
    link: "/admin/visits",
    email: {
      subject: `New visit request from ${visit.name}`,
      text: [summary, ...(visit.message ? [`Their message:\n${excerpt(visit.message, 1000)}`] : []), "Welcome them: contact them, and add them to the people list from the visit."].join("\n\n"),
      buttonLabel: "Open visit requests",
    },
  });
}

/** A sign-up waiting for approval (schema/auth/resolvers.ts#signUp). */
export function alertNewSignUp(services: GatewayServices, person: { id: string; firstName: string; lastName: string }): Promise<string[]> {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return alertStaff(services, {
    topic: "signups",
    kind: "signup_pending",
    title: `${name} signed up and waits for approval`,
    body: "Approve the sign-up, or match it to a person already on the list.",
    link: `/admin/people/${person.id}`,
    email: {
      subject: `${name} signed up and waits for approval`,
      text: `${name} created an account. The member areas open for them once someone approves the sign-up (or matches it to a person already on the list).`,
      buttonLabel: "Review the sign-up",
    },
  });
}

/** A prayer request waiting for moderation (schema/prayer/resolvers.ts#submitPrayerRequest). */
export function alertPrayerPending(services: GatewayServices, request: { body: string; visibility: string }, requesterId?: string): Promise<string[]> {
  const pastoral = request.visibility === "pastoral";
  return alertStaff(services, {
    topic: "prayer",
    kind: "prayer_pending",
    title: pastoral ? "A pastoral prayer request arrived" : "A prayer request waits for moderation",
    body: excerpt(request.body),
    link: "/admin/prayer",
    pastoral,
    email: {
      subject: pastoral ? "A pastoral prayer request arrived" : "A prayer request waits for moderation",
      text: `${pastoral ? "A request for the pastors only" : "A new request for the prayer wall"}:\n\n“${excerpt(request.body, 500)}”`,
      buttonLabel: "Open prayer requests",
    },
  }, requesterId);
}
