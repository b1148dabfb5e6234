import type PocketBase from "pocketbase";
import type { GatewayServices } from "../context.ts";
import { recipientLocale, translator, type Locale, type Translate } from "../mail/i18n.ts";
import type { NotificationRecord, UserRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";

/** A text written for its reader: as is, or from the gateway's messages in the recipient's language. */
export type Localized<T> = T | ((t: Translate) => T);

export interface NotificationInput {
  /** The recipient (a users id). */
  userId: string;
  kind: NotificationRecord["kind"];
  title: Localized<string>;
  body?: Localized<string>;
  /** An app path to open, for example /prayer/abc123. */
  link?: string;
  /**
   * Batching: with `batchWindowMs`, a notification of the same user and key created within the window
   * is updated (count + 1, unread again, the new title and body) instead of a new one being created.
   */
  groupKey?: string;
  batchWindowMs?: number;
  /** Also mail the recipient (important events only: approval, answered, staff alerts), with an optional button. */
  email?: Localized<{ subject: string; text: string; button?: { url: string; label: string } }>;
}

/** The accounts of these people (system job: whom to notify; their language and address come with them). */
export async function usersOfPeople(system: PocketBase, personIds: readonly string[]): Promise<UserRecord[]> {
  if (personIds.length === 0) return [];
  const filter = personIds.map((p) => system.filter("person = {:p}", { p })).join(" || ");
  return system
    .collection("users")
    .getFullList<UserRecord>({ filter, fields: "id,email,person,locale,status" });
}

const localized = <T>(value: Localized<T>, t: Translate): T =>
  typeof value === "function" ? (value as (t: Translate) => T)(t) : value;

/** What notify did; for tests and logs (callers of `notify` never see errors). */
export type NotifyOutcome = { action: "created" | "batched"; id: string; mailed: boolean };

/** The instant `windowMs` before `now`, as PocketBase stores dates ("YYYY-MM-DD HH:MM:SS.sssZ"). */
export function batchWindowStart(now: Date, windowMs: number): string {
  return toPocketBaseDate(now.getTime() - windowMs);
}

/**
 * Per user+groupKey, one notify at a time in this process: two prayers arriving together must both
 * find (or make) the same notification, not create two. Keys are dropped when their chain settles.
 */
const chains = new Map<string, Promise<unknown>>();
function serialized<T>(key: string | null, run: () => Promise<T>): Promise<T> {
  if (!key) return run();
  const previous = chains.get(key) ?? Promise.resolve();
  const next = previous.then(run, run);
  const settled = next.catch(() => undefined);
  chains.set(key, settled);
  void settled.then(() => {
    if (chains.get(key) === settled) chains.delete(key);
  });
  return next;
}

/**
 * System job: record an in-app notification for a user (and mail them when `email` is given).
 * Notifications are created by the system account only (the collection has no create rule), and the
 * recipient's address is read with it, because the event that notifies (a moderator approving, a
 * visitor praying) happens in someone else's request. Never throws: what caused the notification has
 * already happened and must not fail because of it; failures are logged.
 */
export async function notify(services: GatewayServices, n: NotificationInput): Promise<void> {
  await deliverNotification(services, n).catch((error: unknown) => {
    console.error(
      `[notify] could not notify ${n.userId} (${n.kind}):`,
      error instanceof Error ? error.message : error,
    );
  });
}

/** `notify` without the safety net: throws what went wrong (tests and callers that report it). */
export async function deliverNotification(
  services: GatewayServices,
  n: NotificationInput,
  now = new Date(),
): Promise<NotifyOutcome> {
  // Written in the recipient's language (their own choice, else the church's).
  const recipient = await recipientOf(services, n.userId);
  const t = translator(recipient.locale);
  const title = localized(n.title, t);
  const body = n.body === undefined ? "" : localized(n.body, t);
  const batched = !!n.groupKey && !!n.batchWindowMs && n.batchWindowMs > 0;
  const lockKey = batched ? `${n.userId}\u0000${n.groupKey}` : null;
  const { action, id } = await serialized(lockKey, async () => {
    const pb = await services.system.get();
    const notifications = pb.collection("notifications");
    if (batched) {
      const recent = await notifications.getList<NotificationRecord>(1, 1, {
        filter: pb.filter("user = {:user} && groupKey = {:groupKey} && created >= {:since}", {
          user: n.userId,
          groupKey: n.groupKey,
          since: batchWindowStart(now, n.batchWindowMs!),
        }),
        sort: "-created",
        fields: "id",
        skipTotal: true,
      });
      const existing = recent.items[0];
      if (existing) {
        // "count+" is PocketBase's atomic increment; readAt "" makes it unread (and bold) again.
        await notifications.update(existing.id, { "count+": 1, readAt: "", title, body, link: n.link ?? "" });
        return { action: "batched" as const, id: existing.id };
      }
    }
    const created = await notifications.create<NotificationRecord>({
      user: n.userId,
      kind: n.kind,
      title,
      body,
      link: n.link ?? "",
      groupKey: n.groupKey ?? "",
      count: 1,
      readAt: "",
    });
    return { action: "created" as const, id: created.id };
  });
  const mailed = n.email ? await mailRecipient(services, recipient, localized(n.email, t)) : false;
  return { action, id, mailed };
}

interface Recipient {
  email: string;
  locale: Locale;
  churchName: string;
}

/** The recipient's address and language (read by the system account: see notify). */
async function recipientOf(services: GatewayServices, userId: string): Promise<Recipient> {
  const pb = await services.system.get();
  const [user, settings] = await Promise.all([
    pb
      .collection("users")
      .getOne<Pick<UserRecord, "id" | "email" | "locale">>(userId, { fields: "id,email,locale" }),
    services.publicSettings.get(),
  ]);
  return { email: user.email, locale: recipientLocale(user, settings), churchName: settings.churchName };
}

async function mailRecipient(
  services: GatewayServices,
  recipient: Recipient,
  email: { subject: string; text: string; button?: { url: string; label: string } },
): Promise<boolean> {
  if (!services.mailer.enabled) {
    console.warn(`[notify] mail not sent (SMTP is not configured): ${email.subject}`);
    return false;
  }
  if (!recipient.email) return false;
  await services.mailer.send(
    {
      to: recipient.email,
      subject: email.subject,
      text: email.text,
      locale: recipient.locale,
      ...(email.button ? { button: email.button } : {}),
    },
    recipient.churchName,
  );
  return true;
}
