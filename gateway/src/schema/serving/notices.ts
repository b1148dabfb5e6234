import type PocketBase from "pocketbase";
import type { GatewayServices } from "../../context.ts";
import type {
  ServingMemberRecord,
  ServingPlanRecord,
  ServingPositionRecord,
  ServingRequestRecord,
  ServingTeamRecord,
} from "../../pocketbase/records.ts";
import { notify, usersOfPeople } from "../../system/notifier.ts";
import { recipientLocale } from "../../mail/i18n.ts";

// What serving tells people (system jobs: the leader asking may not read the volunteer's address, nor
// the volunteer declining their leaders'). In the app and by mail, in each reader's language.

/** A plan's day as its readers say it: "Sunday, March 3" (the plan's date is a wall-clock day). */
const dayOf = (plan: ServingPlanRecord, locale: string) =>
  new Intl.DateTimeFormat(locale === "es" ? "es" : "en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${plan.date.slice(0, 10)}T12:00:00.000Z`));

interface RequestContext {
  request: ServingRequestRecord;
  plan: ServingPlanRecord;
  position: ServingPositionRecord;
  team: ServingTeamRecord;
}

async function contextOf(system: PocketBase, requestId: string): Promise<RequestContext & { token: string }> {
  const request = await system.collection("serving_requests").getOne<ServingRequestRecord>(requestId);
  const [plan, position] = await Promise.all([
    system.collection("serving_plans").getOne<ServingPlanRecord>(request.plan),
    system.collection("serving_positions").getOne<ServingPositionRecord>(request.position),
  ]);
  const team = await system.collection("serving_teams").getOne<ServingTeamRecord>(position.team);
  return { request, plan, position, team, token: request.token ?? "" };
}

/**
 * The person asked hears of it in the app and by mail; the mail's button answers without signing in
 * (the request's secret, spent by the first answer).
 */
export async function noticeAsked(services: GatewayServices, requestId: string, askedBy: string) {
  const system = await services.system.get();
  const { request, plan, position, team, token } = await contextOf(system, requestId);
  const answerUrl = `${services.config.publicUrl}/serving/answer/${request.id}?token=${encodeURIComponent(token)}`;
  const settings = await services.publicSettings.get();
  for (const user of await usersOfPeople(system, [request.person])) {
    const date = dayOf(plan, recipientLocale(user, settings));
    await notify(services, {
      userId: user.id,
      kind: "serving_request",
      title: (t) => t("serving.asked.title", { position: position.name, date }),
      link: "/me/serving",
      email: (t) => ({
        subject: t("serving.asked.title", { position: position.name, date }),
        text: [
          t("serving.asked.text", {
            leader: askedBy,
            position: position.name,
            team: team.name,
            plan: plan.title,
            date,
          }),
          t("serving.asked.hint"),
        ].join("\n\n"),
        button: { url: answerUrl, label: t("serving.asked.button") },
      }),
    });
  }
}

/** A decline reaches the position's team leaders, with the reason given. */
export async function noticeDeclined(services: GatewayServices, requestId: string) {
  const system = await services.system.get();
  const { request, plan, position } = await contextOf(system, requestId);
  const leaders = await system.collection("serving_members").getFullList<ServingMemberRecord>({
    filter: system.filter("team = {:team} && role = 'leader' && status = 'active'", { team: position.team }),
  });
  const settings = await services.publicSettings.get();
  for (const user of await usersOfPeople(
    system,
    leaders.map((leader) => leader.person),
  )) {
    const date = dayOf(plan, recipientLocale(user, settings));
    await notify(services, {
      userId: user.id,
      kind: "serving_declined",
      title: (t) => t("serving.declined.title", { name: request.name, position: position.name, date }),
      email: (t) => ({
        subject: t("serving.declined.title", {
          name: request.name,
          position: position.name,
          date,
        }),
        text: t("serving.declined.text", {
          name: request.name,
          position: position.name,
          plan: plan.title,
          date,
          hasReason: request.declineReason ? "yes" : "no",
          reason: request.declineReason,
        }),
      }),
    });
  }
}
