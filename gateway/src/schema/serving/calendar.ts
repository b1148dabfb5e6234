import type PocketBase from "pocketbase";
import type {
  ServingPlanRecord,
  ServingPositionRecord,
  ServingRequestRecord,
  ServingTeamRecord,
} from "../../pocketbase/records.ts";
import { pocketBaseDay } from "../../pocketbase/dates.ts";
import { translator, type Locale } from "../../mail/i18n.ts";
import { planSpan, planTimeLines } from "../../system/serving-reminders.ts";

// What a volunteer serves, in their personal calendar feed (/feeds/me/<token>.ics, written by
// schema/events/calendar-feeds.ts): one entry per place they accepted.

/** One place as the feed writes it (the shape of events/ics.ts's CalendarItem). */
export interface ServingCalendarItem {
  uid: string;
  when: { start: string; end: string; timeZone: string } | { day: string };
  summary: string;
  description: string;
  url: string;
  updated: string;
}

type Row = ServingRequestRecord & {
  expand?: {
    plan?: ServingPlanRecord;
    position?: ServingPositionRecord & { expand?: { team?: ServingTeamRecord } };
  };
};

/**
 * The places `personId` accepted on plans that are not drafts (published or done) from the day of
 * `since` on, read as the person (`asUser`, an impersonation token), so the rules decide as on
 * /me/serving. Each spans its plan's times, from the first start to the last end (a plan without times:
 * its whole day). Its UID is the request's, so a calendar app updates it when the plan changes.
 */
export async function servingCalendarItems(
  asUser: PocketBase,
  personId: string,
  since: string,
  options: { origin: string; uidHost: string; timeZone: string; locale: Locale },
): Promise<ServingCalendarItem[]> {
  const rows = await asUser.collection("serving_requests").getFullList<Row>({
    filter: asUser.filter(
      'person = {:person} && status = "accepted" && plan.status != "draft" && plan.date >= {:from}',
      {
        person: personId,
        from: pocketBaseDay(since.slice(0, 10)),
      },
    ),
    expand: "plan,position.team",
    sort: "id",
  });
  const t = translator(options.locale);
  const url = `${options.origin}/me/serving`;
  const items: ServingCalendarItem[] = [];
  for (const row of rows) {
    const plan = row.expand?.plan;
    const position = row.expand?.position;
    const team = position?.expand?.team;
    // A place whose plan or team the person may no longer read (an archived team they left) is not shown.
    if (!plan || plan.status === "draft" || !position || !team) continue;
    const span = planSpan(plan.times);
    const updated = [row.updated, plan.updated].sort().at(-1)!;
    items.push({
      uid: `serving-${row.id}@${options.uidHost}`,
      when: span ? { ...span, timeZone: options.timeZone } : { day: plan.date.slice(0, 10) },
      summary: t("serving.calendar.summary", { position: position.name, team: team.name, plan: plan.title }),
      description: [planTimeLines(plan.times, t, options.locale, options.timeZone).join("\n"), url]
        .filter(Boolean)
        .join("\n\n"),
      url,
      updated,
    });
  }
  return items;
}
