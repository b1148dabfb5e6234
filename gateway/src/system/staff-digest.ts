import type { GatewayServices } from "../context.ts";
import type {
  PersonRecord,
  PrayerRequestRecord,
  UserRecord,
  VisitRequestRecord,
} from "../pocketbase/records.ts";
import { formatDateTime } from "../mail/brand.ts";
import { recipientLocale, translator, type Locale, type Translate } from "../mail/i18n.ts";
import { notify } from "./notifier.ts";
import { STAFF_TOPICS, type StaffAlertPrefsRecord, type StaffTopic } from "./staff-alerts.ts";
import { handlesStaffTopic, readsPastoralPrayer } from "../access/staff.ts";
import { fromPocketBaseDate, parsePocketBaseDate, toPocketBaseDate } from "../pocketbase/dates.ts";
import { startPeriodicJob, type JobOptions } from "./periodic-job.ts";

/**
 * System job: the staff alerts' daily digest (system/staff-alerts.ts). Once a day, from `hour`
 * o'clock in the church's time zone, everyone who chose "daily digest" for a topic gets one mail (and
 * one in-app notification) listing what arrived since their last digest. The state is each person's
 * `staff_alert_prefs.lastDigestAt`, written only by this job: a restart neither repeats a digest nor
 * skips one, and a gateway that was down sends the digest on its first run of the day.
 */

const MAX_LINES = 20;

function localDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(date);
}
function localHour(date: Date, timeZone: string): number {
  return Number(
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(date),
  );
}

const TOPIC_TITLES: Record<StaffTopic, { heading: (t: Translate) => string; link: string }> = {
  visits: { heading: (t) => t("digest.heading.visits"), link: "/admin/visits" },
  signups: { heading: (t) => t("digest.heading.signups"), link: "/admin/people?record=PENDING" },
  prayer: { heading: (t) => t("digest.heading.prayer"), link: "/admin/prayer" },
};

const excerpt = (text: string, max = 80) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** What arrived for one topic since `since`, as lines of the digest (read by the system account). */
async function itemsFor(
  services: GatewayServices,
  topic: StaffTopic,
  user: UserRecord,
  since: string,
  until: string,
  timeZone: string,
  locale: Locale,
): Promise<string[]> {
  const t = translator(locale);
  const pb = await services.system.get();
  const window = pb.filter("created > {:since} && created <= {:until}", { since, until });
  const when = (iso: string) => formatDateTime(fromPocketBaseDate(iso), { locale, timezone: timeZone });
  if (topic === "visits") {
    const rows = await pb
      .collection("visit_requests")
      .getFullList<VisitRequestRecord>({ filter: window, sort: "created" });
    return rows.map((r) =>
      t("digest.visitLine", {
        name: r.name,
        hasDate: r.plannedDate ? "yes" : "no",
        date: r.plannedDate.slice(0, 10),
        when: when(r.created),
      }),
    );
  }
  if (topic === "signups") {
    const rows = await pb
      .collection("people")
      .getFullList<PersonRecord>({ filter: `${window} && recordStatus = "pending"`, sort: "created" });
    return rows.map(
      (p) => `${[p.preferredName || p.firstName, p.lastName].filter(Boolean).join(" ")} (${when(p.created)})`,
    );
  }
  const pastoral = readsPastoralPrayer(user);
  const rows = await pb.collection("prayer_requests").getFullList<PrayerRequestRecord>({
    filter: `${window} && status = "pending"${pastoral ? "" : ' && visibility != "pastoral"'}`,
    sort: "created",
  });
  return rows.map((r) => `“${excerpt(r.body)}” (${when(r.created)})`);
}

/** Sends the digests that are due at `now`; resolves to the ids of the users who got one. */
export async function runStaffDigest(
  services: GatewayServices,
  now = new Date(),
  options: { hour?: number } = {},
): Promise<string[]> {
  const hour = options.hour ?? 7;
  const settings = await services.publicSettings.get();
  const timeZone = settings.timezone || "UTC";
  if (localHour(now, timeZone) < hour) return [];
  const today = localDay(now, timeZone);
  const pb = await services.system.get();
  const due = (
    await pb.collection("staff_alert_prefs").getFullList<StaffAlertPrefsRecord>({
      filter: 'visits = "digest" || signups = "digest" || prayer = "digest"',
    })
  ).filter((row) => !row.lastDigestAt || localDay(parsePocketBaseDate(row.lastDigestAt), timeZone) < today);
  const sent: string[] = [];
  for (const row of due) {
    try {
      if (!row.lastDigestAt) {
        // Digest just chosen: start counting now; the first digest comes on the next day's run
        // (not at once, with yesterday's news the person already had).
        await pb.collection("staff_alert_prefs").update(row.id, { lastDigestAt: toPocketBaseDate(now) });
        continue;
      }
      const user = await pb.collection("users").getOne<UserRecord>(row.user, { expand: "roles" });
      const topics = STAFF_TOPICS.filter((t) => row[t] === "digest" && handlesStaffTopic(user, t));
      const since = row.lastDigestAt;
      const until = toPocketBaseDate(now);
      const sections: Array<{ topic: StaffTopic; lines: string[] }> = [];
      // In the reader's language (their own choice, else the church's), as notify writes the title.
      const locale = recipientLocale(user, settings);
      if (user.status !== "suspended") {
        for (const topic of topics) {
          const lines = await itemsFor(services, topic, user, since, until, timeZone, locale);
          if (lines.length) sections.push({ topic, lines });
        }
      }
      if (sections.length) {
        const total = sections.reduce((n, s) => n + s.lines.length, 0);
        const text = (t: Translate) =>
          [
            t("digest.intro", { church: settings.churchName }),
            ...sections.map(({ topic, lines }) => {
              const shown = lines.slice(0, MAX_LINES).map((line) => `• ${line}`);
              if (lines.length > MAX_LINES)
                shown.push(`• ${t("digest.more", { count: lines.length - MAX_LINES })}`);
              return `${t("digest.section", { heading: TOPIC_TITLES[topic].heading(t), count: lines.length })}\n${shown.join("\n")}\n${services.config.publicUrl}${TOPIC_TITLES[topic].link}`;
            }),
            t("digest.footer"),
          ].join("\n\n");
        const first = sections[0]!.topic;
        await notify(services, {
          userId: user.id,
          kind: "staff_digest",
          title: (t) => t("digest.title", { count: total }),
          body: (t) =>
            sections
              .map(({ topic, lines }) =>
                t("digest.count", { heading: TOPIC_TITLES[topic].heading(t), count: lines.length }),
              )
              .join(" · "),
          link: TOPIC_TITLES[first].link,
          email: (t) => ({
            subject: t("digest.subject", { church: settings.churchName, count: total }),
            text: text(t),
            button: {
              url: `${services.config.publicUrl}${TOPIC_TITLES[first].link}`,
              label: t("digest.button"),
            },
          }),
        });
        sent.push(user.id);
      }
      // The state advances even when there was nothing to tell: tomorrow's digest starts here.
      await pb.collection("staff_alert_prefs").update(row.id, { lastDigestAt: until });
    } catch (error) {
      console.error(
        `[staff-digest] could not send the digest of ${row.user}:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return sent;
}

/** Run `runStaffDigest` now and then every `intervalMs`; returns a stop function. */
export function startStaffDigest(services: GatewayServices, options: JobOptions = {}): () => void {
  return startPeriodicJob({
    name: "staff-digest",
    intervalMs: options.intervalMs ?? 10 * 60_000,
    leases: options.leases,
    run: () => runStaffDigest(services),
    report: (ids) => (ids.length ? `sent ${ids.length} digest(s)` : null),
    failure: "could not run",
  });
}
