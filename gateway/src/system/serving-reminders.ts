import { createHash } from "node:crypto";
import { TIME_OF_DAY } from "@flock/shared/i18n/time";
import { LIMITS } from "@flock/shared/limits";
import type { GatewayServices } from "../context.ts";
import type {
  PersonRecord,
  ServingPlanRecord,
  ServingPositionRecord,
  ServingRequestRecord,
  ServingTeamRecord,
  SettingsRecord,
  StoredPlanTime,
  UserRecord,
} from "../pocketbase/records.ts";
import { pocketBaseDay, todayIn, toPocketBaseDate } from "../pocketbase/dates.ts";
import { MAX_IDS_PER_CHAIN } from "../pocketbase/filters.ts";
import { composeMail } from "../mail/notice.ts";
import { recipientLocale, translator, type Locale, type Translate } from "../mail/i18n.ts";
import type { QueuedMail } from "./mail-outbox.ts";
import { usersOfPeople } from "./notifier.ts";
import { startPeriodicJob, type JobOptions } from "./periodic-job.ts";

/**
 * System job: serving reminders (issue 27). Whoever accepted a place on a published plan is mailed once,
 * from the team's `reminderDays` before the plan's day (in the church's time zone) until the day itself:
 * one mail per person and plan, naming every place they hold on it. The state is each request's
 * `remindedAt` (hidden, written by the system only), so a restart neither repeats a reminder nor skips
 * one. Mail goes through the outbox with a dedupeKey made of the account and the requests it names:
 * two runs at once, or two gateways, queue one mail (the second finds the key taken and only marks the
 * requests). Sent from 7:00 church time, as the staff digest, never in the night.
 */

type ReminderServices = Pick<GatewayServices, "system" | "publicSettings" | "mailOutbox" | "config">;

type Row = ServingRequestRecord & {
  expand?: {
    plan?: ServingPlanRecord;
    person?: Pick<PersonRecord, "firstName" | "preferredName">;
    position?: ServingPositionRecord & { expand?: { team?: ServingTeamRecord } };
  };
};

const DAY_MS = 86_400_000;

/** The hour (0–23) at `now` in the church's zone. */
const hourIn = (now: Date, timeZone: string) =>
  Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(now));

/** Whole days from one calendar day (YYYY-MM-DD) to another. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** A plan's day as its readers say it: "Sunday, March 3" (the plan's date is a wall-clock day). */
export const planDay = (plan: Pick<ServingPlanRecord, "date">, locale: Locale) =>
  new Intl.DateTimeFormat(locale === "es" ? "es" : "en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${plan.date.slice(0, 10)}T12:00:00.000Z`));

/**
 * A plan's times as lines, "Rehearsal: 8:00 AM – 8:45 AM" (its label, else its kind), in the church's
 * zone and the reader's clock: the reminder mail and the personal calendar feed write them alike.
 */
export function planTimeLines(
  times: StoredPlanTime[] | null,
  t: Translate,
  locale: Locale,
  timeZone: string,
): string[] {
  const clock = new Intl.DateTimeFormat(locale, { ...TIME_OF_DAY, timeZone });
  return (times ?? []).map((time) =>
    t("serving.time.line", {
      label: time.label || t(`serving.time.${time.kind}`),
      start: clock.format(new Date(time.startsAt)),
      end: clock.format(new Date(time.endsAt)),
    }),
  );
}

/** From a plan's first start to its last end (ISO instants); null when it has no times. */
export function planSpan(times: StoredPlanTime[] | null): { start: string; end: string } | null {
  if (!times?.length) return null;
  const starts = times.map((time) => Date.parse(time.startsAt));
  const ends = times.map((time) => Date.parse(time.endsAt));
  return {
    start: new Date(Math.min(...starts)).toISOString(),
    end: new Date(Math.max(...ends)).toISOString(),
  };
}

/** The reminder of one person's places on one plan, in the reader's language. */
function reminderMail(
  publicUrl: string,
  settings: SettingsRecord,
  user: Pick<UserRecord, "email" | "locale">,
  rows: Row[],
): QueuedMail {
  const locale = recipientLocale(user, settings);
  const t = translator(locale);
  const plan = rows[0]!.expand!.plan!;
  const person = rows[0]!.expand?.person;
  const name = person ? person.preferredName?.trim() || person.firstName : "";
  const date = planDay(plan, locale);
  const places = rows.map((row) =>
    t("serving.place", {
      position: row.expand!.position!.name,
      team: row.expand!.position!.expand!.team!.name,
    }),
  );
  const times = planTimeLines(plan.times, t, locale, settings.timezone || "UTC");
  const list = (heading: string, lines: string[]) =>
    [heading, ...lines.map((line) => `• ${line}`)].join("\n");
  return {
    message: composeMail({
      to: user.email,
      subject: t("serving.reminder.subject", { date }),
      paragraphs: [
        name ? t("mail.hello", { name }) : "",
        t("serving.reminder.text", { church: settings.churchName, plan: plan.title, date }),
        list(t("serving.reminder.places", { count: places.length }), places),
        times.length ? list(t("serving.reminder.times"), times) : "",
        t("serving.reminder.hint"),
      ].filter(Boolean),
      link: { url: `${publicUrl}/me/serving`, label: t("serving.reminder.button") },
      churchName: settings.churchName,
      locale,
    }),
    churchName: settings.churchName,
  };
}

/**
 * The outbox key of one reminder: the account and the requests it names. A place accepted after the
 * reminder went out makes a new set, so it gets a reminder of its own.
 */
function dedupeKeyOf(userId: string, rows: Row[]): string {
  const ids = rows.map((row) => row.id).sort();
  return `serving.reminder:${userId}:${createHash("sha256").update(ids.join(",")).digest("hex").slice(0, 32)}`;
}

export interface ServingRemindersRun {
  /** Mails this run queued (a mail another run queued first is not counted). */
  mailed: number;
  /** Requests this run marked reminded. */
  reminded: string[];
}

/** Queue the reminders due at `now` and mark their requests; resolves to what it did. */
export async function sendServingReminders(
  services: ReminderServices,
  now = new Date(),
  options: { hour?: number } = {},
): Promise<ServingRemindersRun> {
  const run: ServingRemindersRun = { mailed: 0, reminded: [] };
  const settings = await services.publicSettings.get();
  const timeZone = settings.timezone || "UTC";
  if (hourIn(now, timeZone) < (options.hour ?? 7)) return run;
  const today = todayIn(timeZone, now);
  const last = new Date(Date.parse(today) + LIMITS.servingReminderDaysMax * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const pb = await services.system.get();
  const rows = await pb.collection("serving_requests").getFullList<Row>({
    filter: pb.filter(
      'status = "accepted" && remindedAt = "" && plan.status = "published" && ' +
        "plan.date >= {:from} && plan.date <= {:to} && position.team.reminderDays > 0",
      { from: pocketBaseDay(today), to: pocketBaseDay(last) },
    ),
    expand: "plan,person,position.team",
    batch: 200,
  });
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const plan = row.expand?.plan;
    const team = row.expand?.position?.expand?.team;
    if (!plan || !team || daysBetween(today, plan.date.slice(0, 10)) > team.reminderDays) continue;
    // A plan of today whose last time has ended is over: nothing to remind of.
    const span = planSpan(plan.times);
    if (span && Date.parse(span.end) <= now.getTime()) continue;
    const key = `${row.plan}|${row.person}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  if (!groups.size) return run;

  const people = [...new Set([...groups.values()].map((group) => group[0]!.person))];
  const accounts = new Map<string, UserRecord[]>();
  for (let i = 0; i < people.length; i += MAX_IDS_PER_CHAIN)
    for (const user of await usersOfPeople(pb, people.slice(i, i + MAX_IDS_PER_CHAIN)))
      accounts.set(user.person, [...(accounts.get(user.person) ?? []), user]);

  for (const group of groups.values()) {
    group.sort(
      (a, b) =>
        (a.expand!.position!.sort ?? 0) - (b.expand!.position!.sort ?? 0) ||
        a.expand!.position!.name.localeCompare(b.expand!.position!.name) ||
        a.id.localeCompare(b.id),
    );
    const { person, plan } = group[0]!;
    try {
      // A suspended account hears nothing from the app; a person without an account is marked all the
      // same (checked again every run otherwise, up to the day).
      for (const user of accounts.get(person) ?? []) {
        if (user.status === "suspended" || !user.email) continue;
        const queued = await services.mailOutbox.enqueue(
          "serving.reminder",
          reminderMail(services.config.publicUrl, settings, user, group),
          { dedupeKey: dedupeKeyOf(user.id, group) },
        );
        if (queued) run.mailed++;
      }
      // Marked once queued: a run that dies in between queues nothing new next time (the key is taken).
      for (const row of group) {
        await pb.collection("serving_requests").update(row.id, { remindedAt: toPocketBaseDate(now) });
        run.reminded.push(row.id);
      }
    } catch (error) {
      // One failure (PocketBase busy, a request deleted meanwhile) must not hold back the others; the
      // next run tries again.
      console.error(
        `[serving-reminders] could not remind ${person} of plan ${plan}:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return run;
}

/** Run `sendServingReminders` now and then every `intervalMs`; returns a stop function. */
export function startServingReminders(services: ReminderServices, options: JobOptions = {}): () => void {
  return startPeriodicJob({
    name: "serving-reminders",
    intervalMs: options.intervalMs ?? 10 * 60_000,
    leases: options.leases,
    run: () => sendServingReminders(services),
    report: (run) => (run.mailed ? `queued ${run.mailed} reminder mail(s)` : null),
    failure: "could not send reminders",
  });
}
