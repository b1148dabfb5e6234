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
import { recipientLocale, type Translate } from "../../mail/i18n.ts";
import { planDay } from "../../system/serving-reminders.ts";

// What serving tells people (system jobs: the leader asking may not read the volunteer's address, nor
// the volunteer declining their leaders'). In the app and by mail, in each reader's language.

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
    const date = planDay(plan, recipientLocale(user, settings));
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

/** The active leaders of a position's team, as people ids. */
async function leadersOf(system: PocketBase, teamId: string): Promise<string[]> {
  const leaders = await system.collection("serving_members").getFullList<ServingMemberRecord>({
    filter: system.filter("team = {:team} && role = 'leader' && status = 'active'", { team: teamId }),
  });
  return leaders.map((leader) => leader.person);
}

/**
 * A decline reaches the position's team leaders, with the reason given, and who the place was offered
 * to next when the team offers it on (`offeredTo`).
 */
export async function noticeDeclined(services: GatewayServices, requestId: string, offeredTo?: string) {
  const system = await services.system.get();
  const { request, plan, position } = await contextOf(system, requestId);
  const settings = await services.publicSettings.get();
  for (const user of await usersOfPeople(system, await leadersOf(system, position.team))) {
    const date = planDay(plan, recipientLocale(user, settings));
    const title = (t: Translate) =>
      t("serving.declined.title", { name: request.name, position: position.name, date });
    await notify(services, {
      userId: user.id,
      kind: "serving_declined",
      title,
      email: (t) => ({
        subject: title(t),
        text: [
          t("serving.declined.text", {
            name: request.name,
            position: position.name,
            plan: plan.title,
            date,
            hasReason: request.declineReason ? "yes" : "no",
            reason: request.declineReason,
          }),
          ...(offeredTo ? [t("serving.declined.offered", { next: offeredTo })] : []),
        ].join(" "),
      }),
    });
  }
}

/** A swap asked for: those who could take the place (`personIds`) hear of it, with a way to take it. */
export async function noticeSwapOpen(services: GatewayServices, requestId: string, personIds: string[]) {
  const system = await services.system.get();
  const { request, plan, position, team } = await contextOf(system, requestId);
  const settings = await services.publicSettings.get();
  for (const user of await usersOfPeople(system, personIds)) {
    const date = planDay(plan, recipientLocale(user, settings));
    const title = (t: Translate) =>
      t("serving.swap.title", { name: request.name, position: position.name, date });
    await notify(services, {
      userId: user.id,
      kind: "serving_swap",
      title,
      link: "/me/serving",
      email: (t) => ({
        subject: title(t),
        text: t("serving.swap.text", {
          name: request.name,
          position: position.name,
          team: team.name,
          plan: plan.title,
          date,
        }),
        button: { url: `${services.config.publicUrl}/me/serving`, label: t("serving.swap.button") },
      }),
    });
  }
}

/** A swap taken (`takerRequestId`): the one replaced, the taker and the team's leaders are told. */
export async function noticeSwapped(services: GatewayServices, takerRequestId: string) {
  const system = await services.system.get();
  const { request: taken, plan, position, team } = await contextOf(system, takerRequestId);
  const original = await system.collection("serving_requests").getOne<ServingRequestRecord>(taken.replaces);
  const people = [...new Set([original.person, taken.person, ...(await leadersOf(system, position.team))])];
  const settings = await services.publicSettings.get();
  const names = { taker: taken.name, name: original.name, position: position.name };
  for (const user of await usersOfPeople(system, people)) {
    const date = planDay(plan, recipientLocale(user, settings));
    const title = (t: Translate) => t("serving.swapped.title", { ...names, date });
    await notify(services, {
      userId: user.id,
      kind: "serving_swapped",
      title,
      link: "/me/serving",
      email: (t) => ({
        subject: title(t),
        text: t("serving.swapped.text", { ...names, team: team.name, plan: plan.title, date }),
      }),
    });
  }
}
