import { randomUUID } from "node:crypto";
import DataLoader from "dataloader";
import { ClientResponseError } from "pocketbase";
import { LIMITS } from "@flock/shared/limits";
import { slugify } from "@flock/shared/slug";
import type { GatewayContext, GatewayServices } from "../../context.ts";
import { badUserInput, conflict, forbidden, notFound, pbCall } from "../../errors.ts";
import { Validator } from "../../validation/validate.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import {
  asksForAddress,
  chatRefusal,
  groupCan,
  groupMessageCan,
  managesMembers,
  seesHiddenArea,
  seesRoster,
} from "../../access/groups.ts";
import {
  fromPocketBaseDate,
  fromPocketBaseDateOrNull,
  pocketBaseNow,
  toPocketBaseDate,
} from "../../pocketbase/dates.ts";
import type {
  EventRecord,
  GroupJoinRequestRecord,
  GroupMemberRecord,
  GroupMessageRecord,
  GroupRecord,
  GroupAddressRecord,
  PersonRecord,
  PrayerRequestRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { renderChat } from "../../markdown/chat.ts";
import { notify, usersOfPeople } from "../../system/notifier.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { displayName } from "../people/mappers.ts";
import { renderBody } from "../../markdown/body.ts";
import { connection, decodeCursor, encodeCursor, keysetFilter, pageArgs } from "../pagination.ts";
import type { GroupDetailsInput, GroupInput, Resolvers } from "../__generated__/types.ts";
import { subscribeToGroupChat } from "./chat-events.ts";
import { ownGroupRows } from "./own-rows.ts";

/**
 * Groups (issue 15). Every read and write runs with the caller's token: PocketBase's rules
 * (pb_migrations/1732500000_groups.js) decide who finds a group, who sees its roster and chat, and who
 * manages it. The system client only reaches whom the caller may not read: the leaders to notify of a
 * request, the requester to tell of a decision, the members to notify of chat or to mail.
 */

/** At most one chat notification per member and group in this window, while unread. */
export const CHAT_NOTIFY_WINDOW_MS = 30 * 60 * 1000;

const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

// ---------------------------------------------------------------------------------------------------
// Per-request loaders: the viewer's memberships and requests, each one PocketBase call per request.

interface GroupLoaders {
  mine: Promise<{ memberships: GroupMemberRecord[]; requests: GroupJoinRequestRecord[] }> | null;
  address: DataLoader<string, GroupAddressRecord | null>;
}
const loaders = new WeakMap<object, GroupLoaders>();
function loadersOf(ctx: GatewayContext): GroupLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    l = {
      mine: null,
      address: new DataLoader(
        async (ids) => {
          const filter = ids.map((id) => ctx.pb.filter("group = {:id}", { id })).join(" || ");
          const rows = await pbCall(() =>
            ctx.pb.collection("group_addresses").getFullList<GroupAddressRecord>({ filter }),
          );
          return ids.map((id) => rows.find((r) => r.group === id) ?? null);
        },
        { maxBatchSize: 50 },
      ),
    };
    loaders.set(ctx, l);
  }
  return l;
}

/** The viewer's own membership and request rows (ownGroupRows), once per request. */
function mine(ctx: GatewayContext) {
  const l = loadersOf(ctx);
  l.mine ??= (async () => {
    const viewer = await ctx.viewer();
    if (!viewer?.person) return { memberships: [], requests: [] };
    return pbCall(() => ownGroupRows(ctx.pb, viewer.person));
  })();
  return l.mine;
}

async function myMemberships(ctx: GatewayContext): Promise<GroupMemberRecord[]> {
  return (await mine(ctx)).memberships;
}

async function myPendingRequests(ctx: GatewayContext): Promise<GroupJoinRequestRecord[]> {
  return (await mine(ctx)).requests.filter((r) => r.status === "pending");
}

const forget = (ctx: GatewayContext) => loaders.delete(ctx);

async function membershipIn(ctx: GatewayContext, groupId: string): Promise<GroupMemberRecord | null> {
  return (await myMemberships(ctx)).find((m) => m.group === groupId && m.status === "active") ?? null;
}

/** What the caller may do with the group (access/groups.ts), from their own membership of it. */
async function groupCanOf(ctx: GatewayContext, group: GroupRecord) {
  return groupCan(await ctx.viewer(), group, await membershipIn(ctx, group.id));
}

/** What the caller may do with a chat message, from their membership of its group. */
async function messageCanOf(ctx: GatewayContext, message: GroupMessageRecord) {
  return groupMessageCan(await ctx.viewer(), message, await membershipIn(ctx, message.group));
}

/** Leaders' and staff's work on a group known only by id (access/groups.ts#managesMembers). */
async function managesMembersOf(ctx: GatewayContext, groupId: string): Promise<boolean> {
  return managesMembers(await ctx.viewer(), await membershipIn(ctx, groupId));
}

async function groupById(ctx: GatewayContext, id: string): Promise<GroupRecord> {
  return pbCall(() => ctx.pb.collection("groups").getOne<GroupRecord>(id));
}

/** A person is needed to belong to groups: a signed-in user whose person is active. */
async function requirePerson(ctx: GatewayContext): Promise<{ viewer: UserRecord; person: string }> {
  const viewer = await requireViewer(ctx);
  if (!viewer.person || viewer.expand?.person?.recordStatus !== "active")
    throw forbidden("Your membership has to be approved before you can join groups.", "person_not_active");
  return { viewer, person: viewer.person };
}

const isFullError = (error: unknown) =>
  error instanceof ClientResponseError &&
  error.status === 400 &&
  JSON.stringify(error.response?.data ?? {}).includes("group_full");
const groupFull = () => conflict("This group is full.", "group_full");

// ---------------------------------------------------------------------------------------------------
// Validation

function validateGroupInput(input: GroupInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: LIMITS.groupNameMax });
  const description = v.text("description", input.description, { max: LIMITS.markdownMax });
  const schedule = v.text("schedule", input.schedule, { max: LIMITS.groupScheduleMax });
  const area = v.text("area", input.area, { max: LIMITS.groupAreaMax });
  const address = v.text("address", input.address, { max: LIMITS.groupLocationMax });
  const capacity = input.capacity ?? 0;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > LIMITS.groupCapacityMax) {
    v.add("capacity", "out_of_range", `Use a whole number from 0 (no limit) to ${LIMITS.groupCapacityMax}.`);
  }
  if (input.locationDisplay === "approximate" && !area)
    v.add("area", "required", "Give the approximate area, or hide the location.");
  if (input.locationDisplay === "exact" && !address)
    v.add("address", "required", "Give the address, or show only the area.");
  v.done();
  return {
    name,
    description,
    schedule,
    area,
    address,
    capacity,
    type: input.type,
    meetingDay: input.meetingDay ?? "",
    locationDisplay: input.locationDisplay,
    visibility: input.visibility,
    joinPolicy: input.joinPolicy,
    rosterVisibility: input.rosterVisibility,
    chatEnabled: input.chatEnabled,
  };
}

function validateDetails(input: GroupDetailsInput) {
  const v = new Validator();
  const out = defined({
    description:
      input.description == null
        ? undefined
        : v.text("description", input.description, { max: LIMITS.markdownMax }),
    schedule:
      input.schedule == null
        ? undefined
        : v.text("schedule", input.schedule, { max: LIMITS.groupScheduleMax }),
    area: input.area == null ? undefined : v.text("area", input.area, { max: LIMITS.groupAreaMax }),
    meetingDay: input.meetingDay === undefined ? undefined : (input.meetingDay ?? ""),
    locationDisplay: input.locationDisplay ?? undefined,
  });
  const address =
    input.address == null ? undefined : v.text("address", input.address, { max: LIMITS.groupLocationMax });
  v.done();
  return { fields: out, address };
}

function validateMessage(body: string, field = "body") {
  const v = new Validator();
  const text = v.text(field, body, {
    required: true,
    min: LIMITS.chatMessageMin,
    max: LIMITS.chatMessageMax,
  });
  v.done();
  return text;
}

/** The group's exact address row: written with the caller's token (staff, or the group's leaders). */
async function saveAddress(ctx: GatewayContext, groupId: string, address: string) {
  const existing = await loadersOf(ctx).address.load(groupId);
  if (!address) {
    if (existing) await pbCall(() => ctx.pb.collection("group_addresses").delete(existing.id));
    return;
  }
  if (existing) await pbCall(() => ctx.pb.collection("group_addresses").update(existing.id, { address }));
  else await pbCall(() => ctx.pb.collection("group_addresses").create({ group: groupId, address }));
}

async function uniqueSlug(ctx: GatewayContext, name: string): Promise<string> {
  const base = slugify(name) || "group";
  for (let i = 0; i < 20; i++) {
    const candidate = i === 0 ? base : `${base}-${i + 1}`;
    // The system client: a hidden group's address is taken even when the caller cannot see it.
    const system = await ctx.system.get();
    const taken = await system.collection("groups").getList(1, 1, {
      filter: system.filter("slug = {:s}", { s: candidate }),
      fields: "id",
      skipTotal: true,
    });
    if (taken.items.length === 0) return candidate;
  }
  return `${base}-${randomUUID().slice(0, 6)}`;
}

// ---------------------------------------------------------------------------------------------------
// Fan-out (system jobs: the actor may not read whom they reach)

/** A join request: each active leader is notified in the app and by mail, with the requester's note. */
async function notifyLeadersOfRequest(
  services: GatewayServices,
  group: GroupRecord,
  requester: string,
  note: string,
) {
  const system = await services.system.get();
  const leaders = await system.collection("group_members").getFullList<GroupMemberRecord>({
    filter: system.filter("group = {:g} && role = 'leader' && status = 'active'", { g: group.id }),
  });
  for (const user of await usersOfPeople(
    system,
    leaders.map((l) => l.person),
  )) {
    await notify(services, {
      userId: user.id,
      kind: "group_join_request",
      title: (t) => t("groups.request.title", { name: requester, group: group.name }),
      link: `/groups/${group.slug}`,
      email: (t) => ({
        subject: t("groups.request.title", { name: requester, group: group.name }),
        text: [
          t("groups.request.text", { name: requester, group: group.name }),
          note ? t("groups.request.note", { note }) : "",
        ]
          .filter(Boolean)
          .join("\n\n"),
        button: {
          url: `${services.config.publicUrl}/groups/${group.slug}`,
          label: t("groups.request.button"),
        },
      }),
    });
  }
}

async function notifyRequester(
  services: GatewayServices,
  group: GroupRecord,
  person: string,
  approved: boolean,
) {
  const system = await services.system.get();
  for (const user of await usersOfPeople(system, [person])) {
    await notify(services, {
      userId: user.id,
      kind: "group_request_decided",
      title: (t) => t(approved ? "groups.approved.title" : "groups.declined.title", { group: group.name }),
      link: `/groups/${group.slug}`,
      email: (t) => ({
        subject: t(approved ? "groups.approved.title" : "groups.declined.title", { group: group.name }),
        text: t(approved ? "groups.approved.text" : "groups.declined.text", { group: group.name }),
        ...(approved && {
          button: {
            url: `${services.config.publicUrl}/groups/${group.slug}`,
            label: t("groups.approved.button"),
          },
        }),
      }),
    });
  }
}

/**
 * New chat message: notify the group's other members who have not read the chat since, at most once
 * per member and group per 30 minutes (`chatNotifiedAt`, written by the system only).
 */
export async function notifyChat(
  services: GatewayServices,
  group: GroupRecord,
  message: GroupMessageRecord,
  now = new Date(),
) {
  const system = await services.system.get();
  const since = toPocketBaseDate(now.getTime() - CHAT_NOTIFY_WINDOW_MS);
  const due = await system.collection("group_members").getFullList<GroupMemberRecord>({
    filter: system.filter(
      "group = {:g} && status = 'active' && person != {:a} && (chatNotifiedAt = '' || chatNotifiedAt < {:since})",
      {
        g: group.id,
        a: message.author,
        since,
      },
    ),
  });
  const unread = due.filter((m) => !m.lastReadAt || m.lastReadAt < message.created);
  const users = await usersOfPeople(
    system,
    unread.map((m) => m.person),
  );
  for (const member of unread) {
    await system.collection("group_members").update(member.id, { chatNotifiedAt: toPocketBaseDate(now) });
    const user = users.find((u) => u.person === member.person);
    if (!user) continue;
    await notify(services, {
      userId: user.id,
      kind: "group_chat",
      title: (t) => t("groups.chat.title", { group: group.name }),
      body: message.body.slice(0, 140),
      link: `/groups/${group.slug}#chat`,
      groupKey: `group-chat:${group.id}`,
      batchWindowMs: CHAT_NOTIFY_WINDOW_MS,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Chat

const messageKey = (m: GroupMessageRecord) => m.created;

async function requireChatMember(
  ctx: GatewayContext,
  groupId: string,
): Promise<{ group: GroupRecord; person: string }> {
  const { person } = await requirePerson(ctx);
  const group = await groupById(ctx, groupId);
  const refusal = chatRefusal(group, await membershipIn(ctx, groupId));
  if (refusal === "not_a_member")
    throw forbidden("Only the group's members can read and write its chat.", "not_a_member");
  if (refusal === "chat_disabled") throw forbidden("This group's chat is turned off.", "chat_disabled");
  return { group, person };
}

async function unreadCount(ctx: GatewayContext, group: GroupRecord): Promise<number> {
  const membership = await membershipIn(ctx, group.id);
  if (!membership || !group.chatEnabled) return 0;
  const filter = membership.lastReadAt
    ? ctx.pb.filter("group = {:g} && created > {:t} && author != {:me}", {
        g: group.id,
        t: membership.lastReadAt,
        me: membership.person,
      })
    : ctx.pb.filter("group = {:g} && author != {:me}", { g: group.id, me: membership.person });
  const page = await pbCall(() =>
    ctx.pb.collection("group_messages").getList(1, 1, { filter, fields: "id" }),
  );
  return page.totalItems;
}

// ---------------------------------------------------------------------------------------------------

export const groupsResolvers: Resolvers = {
  Query: {
    async groups(_, { filter, first, after }, ctx) {
      const { size } = pageArgs(first, null, 24);
      const cursor = after ? decodeCursor(after) : null;
      if (after && !cursor) throw badUserInput({ after: { code: "invalid", message: "Invalid cursor." } });
      const v = new Validator();
      const area = v.text("area", filter?.area, { max: LIMITS.groupAreaMax });
      const search = v.text("search", filter?.search, { max: LIMITS.searchMax });
      v.done();
      const parts = ["status = 'active'", "visibility != 'hidden'"];
      if (filter?.type) parts.push(ctx.pb.filter("type = {:t}", { t: filter.type }));
      if (filter?.meetingDay) parts.push(ctx.pb.filter("meetingDay = {:d}", { d: filter.meetingDay }));
      if (area) parts.push(ctx.pb.filter("area ~ {:a} && locationDisplay != 'hidden'", { a: area }));
      if (search) parts.push(ctx.pb.filter("(name ~ {:s} || description ~ {:s})", { s: search }));
      if (cursor)
        parts.push(
          ctx.pb.filter("(name > {:v} || (name = {:v} && id > {:id}))", { v: cursor.value, id: cursor.id }),
        );
      const page = await pbCall(() =>
        ctx.pb.collection("groups").getList<GroupRecord>(1, size + 1, {
          filter: parts.join(" && "),
          sort: "name,id",
          skipTotal: true,
        }),
      );
      const items = page.items.slice(0, size);
      const last = items[items.length - 1];
      return {
        edges: items.map((node) => ({ node, cursor: encodeCursor(node.name, node.id) })),
        pageInfo: {
          hasNextPage: page.items.length > size,
          endCursor: last ? encodeCursor(last.name, last.id) : null,
        },
      };
    },
    async group(_, { slug }, ctx) {
      const found = await pbCall(() =>
        ctx.pb
          .collection("groups")
          .getList<GroupRecord>(1, 1, { filter: ctx.pb.filter("slug = {:s}", { s: slug }), skipTotal: true }),
      );
      return found.items[0] ?? null;
    },
    async myGroups(_, __, ctx) {
      const mine = (await myMemberships(ctx)).filter((m) => m.status === "active");
      if (mine.length === 0) return [];
      const filter = mine.map((m) => ctx.pb.filter("id = {:id}", { id: m.group })).join(" || ");
      return pbCall(() =>
        ctx.pb
          .collection("groups")
          .getFullList<GroupRecord>({ filter: `(${filter}) && status = 'active'`, sort: "name" }),
      );
    },
    async adminGroups(_, { includeArchived }, ctx) {
      await requireAbility(ctx, "manageGroups");
      return pbCall(() =>
        ctx.pb
          .collection("groups")
          .getFullList<GroupRecord>({ filter: includeArchived ? "" : "status = 'active'", sort: "name" }),
      );
    },
    async groupMessages(_, { groupId, first, before }, ctx) {
      await requireChatMember(ctx, groupId);
      const { size, cursor } = pageArgs(first, before, 30);
      const parts = [ctx.pb.filter("group = {:g}", { g: groupId })];
      if (cursor) parts.push(keysetFilter(ctx.pb, "created", cursor));
      const page = await pbCall(() =>
        ctx.pb.collection("group_messages").getList<GroupMessageRecord>(1, size + 1, {
          filter: parts.join(" && "),
          sort: "-created,-id",
          skipTotal: true,
        }),
      );
      const items = page.items.slice(0, size);
      const last = items[items.length - 1];
      return {
        edges: items.map((node) => ({ node, cursor: encodeCursor(messageKey(node), node.id) })),
        pageInfo: {
          hasNextPage: page.items.length > size,
          endCursor: last ? encodeCursor(messageKey(last), last.id) : null,
        },
      };
    },
  },

  Mutation: {
    async joinGroup(_, { groupId, message }, ctx) {
      const { viewer, person } = await requirePerson(ctx);
      const group = await groupById(ctx, groupId);
      if (await membershipIn(ctx, groupId))
        throw conflict("You are already a member of this group.", "already_member");
      if (group.status !== "active" || group.joinPolicy === "closed")
        throw forbidden("This group does not take new members here. Ask its leaders.", "closed");
      if (group.joinPolicy === "open") {
        try {
          await ctx.pb
            .collection("group_members")
            .create({ group: group.id, person, role: "member", status: "active" });
        } catch (error) {
          if (isFullError(error)) throw groupFull();
          return pbCall(() => Promise.reject(error));
        }
        forget(ctx);
        return { outcome: "JOINED" as const, group: await groupById(ctx, groupId) };
      }
      const v = new Validator();
      const text = v.text("message", message, { max: LIMITS.groupJoinMessageMax });
      v.done();
      if (group.capacity > 0 && group.memberCount >= group.capacity) throw groupFull();
      if ((await myPendingRequests(ctx)).some((r) => r.group === groupId))
        throw conflict("You have already asked to join. The leaders will answer.", "already_requested");
      await pbCall(() =>
        ctx.pb
          .collection("group_join_requests")
          .create({ group: group.id, person, message: text, status: "pending" }),
      );
      forget(ctx);
      const name = viewer.expand?.person ? displayName(viewer.expand.person) : viewer.name;
      ctx.afterResponse(
        () =>
          void notifyLeadersOfRequest(ctx, group, name, text).catch((e: unknown) =>
            console.error("[groups] notify leaders:", e),
          ),
      );
      return { outcome: "REQUESTED" as const, group };
    },
    async leaveGroup(_, { groupId }, ctx) {
      await requirePerson(ctx);
      const membership = await membershipIn(ctx, groupId);
      if (!membership) throw notFound();
      const before = await groupById(ctx, groupId);
      await pbCall(() => ctx.pb.collection("group_members").delete(membership.id));
      forget(ctx);
      // A hidden group is gone from view once left: answer with what was read before leaving.
      return ctx.pb
        .collection("groups")
        .getOne<GroupRecord>(groupId)
        .catch(() => ({ ...before, memberCount: Math.max(0, before.memberCount - 1) }));
    },
    async cancelJoinRequest(_, { id }, ctx) {
      await requirePerson(ctx);
      await pbCall(() => ctx.pb.collection("group_join_requests").update(id, { status: "cancelled" }));
      return true;
    },
    async decideJoinRequest(_, { id, approve }, ctx) {
      const { person: me } = await requirePerson(ctx);
      const request = await pbCall(() =>
        ctx.pb.collection("group_join_requests").getOne<GroupJoinRequestRecord>(id, { expand: "group" }),
      );
      const group = request.expand?.group ?? (await groupById(ctx, request.group));
      if (!(await groupCanOf(ctx, group)).manageMembers) throw forbidden();
      if (request.status !== "pending")
        throw conflict("This request was already decided.", "already_decided");
      if (approve) {
        try {
          await ctx.pb
            .collection("group_members")
            .create({ group: group.id, person: request.person, role: "member", status: "active" });
        } catch (error) {
          if (isFullError(error)) throw groupFull();
          // Already a member (added by hand meanwhile): approving still settles the request.
          if (!(error instanceof ClientResponseError && error.status === 400))
            return pbCall(() => Promise.reject(error));
        }
      }
      const decided = await pbCall(() =>
        ctx.pb.collection("group_join_requests").update<GroupJoinRequestRecord>(id, {
          status: approve ? "approved" : "declined",
          decidedBy: me,
          decidedAt: pocketBaseNow(),
        }),
      );
      ctx.afterResponse(
        () =>
          void notifyRequester(ctx, group, request.person, approve).catch((e: unknown) =>
            console.error("[groups] notify requester:", e),
          ),
      );
      return decided;
    },
    async addGroupMember(_, { groupId, personId }, ctx) {
      await requireViewer(ctx);
      if (!(await managesMembersOf(ctx, groupId))) throw forbidden();
      try {
        return await ctx.pb
          .collection("group_members")
          .create<GroupMemberRecord>(
            { group: groupId, person: personId, role: "member", status: "active" },
            { expand: "person" },
          );
      } catch (error) {
        if (isFullError(error)) throw groupFull();
        return pbCall(() => Promise.reject(error), { person: "personId" });
      }
    },
    async removeGroupMember(_, { memberId }, ctx) {
      await requireViewer(ctx);
      const row = await pbCall(() => ctx.pb.collection("group_members").getOne<GroupMemberRecord>(memberId));
      if (!(await managesMembersOf(ctx, row.group))) throw forbidden();
      await pbCall(() => ctx.pb.collection("group_members").delete(memberId));
      return true;
    },
    async setGroupMemberRole(_, { memberId, role }, ctx) {
      await requireViewer(ctx);
      const row = await pbCall(() => ctx.pb.collection("group_members").getOne<GroupMemberRecord>(memberId));
      if (!(await managesMembersOf(ctx, row.group))) throw forbidden();
      return pbCall(() =>
        ctx.pb
          .collection("group_members")
          .update<GroupMemberRecord>(memberId, { role }, { expand: "person" }),
      );
    },
    async updateGroupDetails(_, { id, input }, ctx) {
      await requireViewer(ctx);
      const group = await groupById(ctx, id);
      if (!(await groupCanOf(ctx, group)).edit) throw forbidden();
      const { fields, address } = validateDetails(input);
      const display = (fields.locationDisplay as string | undefined) ?? group.locationDisplay;
      const area = (fields.area as string | undefined) ?? group.area;
      if (display === "approximate" && !area)
        throw badUserInput({
          area: { code: "required", message: "Give the approximate area, or hide the location." },
        });
      if (address !== undefined) await saveAddress(ctx, id, address);
      return pbCall(() => ctx.pb.collection("groups").update<GroupRecord>(id, fields));
    },
    async emailGroup(_, { groupId, subject, body }, ctx) {
      const { viewer } = await requirePerson(ctx);
      if (!(await managesMembersOf(ctx, groupId))) throw forbidden();
      const group = await groupById(ctx, groupId);
      const v = new Validator();
      const cleanSubject = v.text("subject", subject, { required: true, max: LIMITS.groupEmailSubjectMax });
      const cleanBody = v.text("body", body, { required: true, max: LIMITS.groupEmailBodyMax });
      v.done();
      // A mail fan-out: the system reads the members' login addresses, which the leader may not read.
      const system = await ctx.system.get();
      const members = await system.collection("group_members").getFullList<GroupMemberRecord>({
        filter: system.filter("group = {:g} && status = 'active'", { g: groupId }),
      });
      const recipients = (
        await usersOfPeople(
          system,
          members.map((m) => m.person),
        )
      ).filter((u) => u.status !== "suspended" && u.email);
      const settings = await ctx.publicSettings.get();
      const from = viewer.expand?.person ? displayName(viewer.expand.person) : viewer.name;
      let sent = 0;
      for (const user of recipients) {
        const ok = await sendNotice(
          ctx.mailer,
          composeMail({
            to: user.email,
            subject: `[${group.name}] ${cleanSubject}`,
            paragraphs: [...cleanBody.split(/\n{2,}/), `— ${from}`],
            link: { url: `${ctx.config.publicUrl}/groups/${group.slug}`, label: group.name },
            churchName: settings.churchName,
          }),
          settings.churchName,
        );
        if (ok) sent++;
      }
      return sent;
    },
    async createGroup(_, { input }, ctx) {
      await requireAbility(ctx, "manageGroups");
      const { address, ...fields } = validateGroupInput(input);
      const slug = await uniqueSlug(ctx, fields.name);
      const created = await pbCall(() =>
        ctx.pb.collection("groups").create<GroupRecord>({ ...fields, slug, status: "active" }),
      );
      if (address) await saveAddress(ctx, created.id, address);
      return created;
    },
    async updateGroup(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageGroups");
      const { address, ...fields } = validateGroupInput(input);
      const updated = await pbCall(() => ctx.pb.collection("groups").update<GroupRecord>(id, fields));
      await saveAddress(ctx, id, address);
      return updated;
    },
    async setGroupArchived(_, { id, archived }, ctx) {
      await requireAbility(ctx, "manageGroups");
      return pbCall(() =>
        ctx.pb.collection("groups").update<GroupRecord>(id, { status: archived ? "archived" : "active" }),
      );
    },
    async postGroupMessage(_, { groupId, body, clientKey }, ctx) {
      const { group, person } = await requireChatMember(ctx, groupId);
      const text = validateMessage(body);
      const v = new Validator();
      const key = v.text("clientKey", clientKey, { required: true, min: 8, max: LIMITS.chatClientKeyMax });
      v.done();
      const viewer = await ctx.viewer();
      const existing = async () => {
        const found = await pbCall(() =>
          ctx.pb.collection("group_messages").getList<GroupMessageRecord>(1, 1, {
            filter: ctx.pb.filter("author = {:a} && clientKey = {:k}", { a: person, k: key }),
            skipTotal: true,
          }),
        );
        return found.items[0] ?? null;
      };
      let message: GroupMessageRecord;
      try {
        message = await ctx.pb.collection("group_messages").create<GroupMessageRecord>({
          group: groupId,
          author: person,
          authorName: viewer?.expand?.person ? displayName(viewer.expand.person) : (viewer?.name ?? ""),
          body: text,
          clientKey: key,
        });
      } catch (error) {
        // The same key again (a double click, a resend after a dropped connection): the stored one.
        const again = error instanceof ClientResponseError && error.status === 400 ? await existing() : null;
        if (again) return again;
        return pbCall(() => Promise.reject(error));
      }
      ctx.afterResponse(
        () =>
          void notifyChat(ctx, group, message).catch((e: unknown) =>
            console.error("[groups] chat notifications:", e),
          ),
      );
      return message;
    },
    async editGroupMessage(_, { id, body }, ctx) {
      await requirePerson(ctx);
      const text = validateMessage(body);
      return pbCall(() =>
        ctx.pb
          .collection("group_messages")
          .update<GroupMessageRecord>(id, { body: text, editedAt: pocketBaseNow() }),
      );
    },
    async deleteGroupMessage(_, { id }, ctx) {
      await requirePerson(ctx);
      await pbCall(() => ctx.pb.collection("group_messages").delete(id));
      return true;
    },
    async markGroupRead(_, { groupId }, ctx) {
      await requirePerson(ctx);
      const membership = await membershipIn(ctx, groupId);
      if (!membership) throw notFound();
      await pbCall(() =>
        ctx.pb.collection("group_members").update(membership.id, { lastReadAt: pocketBaseNow() }),
      );
      forget(ctx);
      return groupById(ctx, groupId);
    },
  },

  Subscription: {
    groupMessages: {
      subscribe: async (_, { groupId }, ctx) => {
        await requireChatMember(ctx, groupId);
        return subscribeToGroupChat(ctx, groupId) as never;
      },
      resolve: (event: unknown) => event as never,
    },
  },

  Group: {
    path: (g) => `/groups/${g.slug}`,
    descriptionHtml: (g, _, ctx) =>
      g.description ? renderBody(ctx, `group:${g.id}:${g.updated}`, g.description) : "",
    photoUrl: (g) => (g.photo ? `/files/groups/${g.id}/${encodeURIComponent(g.photo)}?thumb=640x360` : null),
    meetingDay: (g) => (g.meetingDay || null) as never,
    async area(g, _, ctx) {
      if (!g.area) return null;
      if (g.locationDisplay !== "hidden") return g.area;
      return seesHiddenArea(await ctx.viewer(), await membershipIn(ctx, g.id)) ? g.area : null;
    },
    async address(g, _, ctx) {
      if (!asksForAddress(await ctx.viewer(), g)) return null;
      // The rules answer only for the group's members and staff.
      return (await loadersOf(ctx).address.load(g.id))?.address ?? null;
    },
    isFull: (g) => g.capacity > 0 && g.memberCount >= g.capacity,
    leaderNames: (g) => g.leaderNames ?? [],
    myMembership: (g, _, ctx) => membershipIn(ctx, g.id),
    myPendingRequest: async (g, _, ctx) =>
      (await myPendingRequests(ctx)).find((r) => r.group === g.id) ?? null,
    canManage: (g, _, ctx) => managesMembersOf(ctx, g.id),
    can: (g, _, ctx) => groupCanOf(ctx, g),
    async roster(g, _, ctx) {
      if (!seesRoster(await ctx.viewer(), g, await membershipIn(ctx, g.id))) return null;
      return pbCall(() =>
        ctx.pb.collection("group_members").getFullList<GroupMemberRecord>({
          filter: ctx.pb.filter("group = {:g} && status = 'active'", { g: g.id }),
          expand: "person",
          sort: "role,created",
        }),
      );
    },
    async pendingRequests(g, _, ctx) {
      if (!(await managesMembersOf(ctx, g.id))) return [];
      return pbCall(() =>
        ctx.pb.collection("group_join_requests").getFullList<GroupJoinRequestRecord>({
          filter: ctx.pb.filter("group = {:g} && status = 'pending'", { g: g.id }),
          expand: "person",
          sort: "created",
        }),
      );
    },
    async events(g, { first }, ctx) {
      const size = Math.min(Math.max(first ?? 5, 1), 20);
      const page = await pbCall(() =>
        ctx.pb.collection("events").getList<EventRecord>(1, size, {
          filter: ctx.pb.filter(
            "ownerGroup = {:g} && status = 'published' && (endsAt >= {:now} || rrule != '')",
            { g: g.id, now: pocketBaseNow() },
          ),
          sort: "startsAt",
          expand: "category",
          skipTotal: true,
        }),
      );
      return page.items;
    },
    unreadCount: (g, _, ctx) => unreadCount(ctx, g),
    // The rules decide: the group's active members, moderators (and the requester) read its requests.
    async prayerRequests(g, { first, after }, ctx) {
      const { size, cursor } = pageArgs(first, after, 20);
      const wall = ctx.pb.filter("group = {:g} && (status = 'approved' || status = 'answered')", { g: g.id });
      const page = [wall, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""].filter(Boolean).join(" && ");
      const rows = await pbCall(() =>
        ctx.pb
          .collection("prayer_requests")
          .getList<PrayerRequestRecord>(1, size + 1, { filter: page, sort: "-created,-id", skipTotal: true }),
      );
      return connection(
        rows.items,
        size,
        (r) => r.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("prayer_requests").getList(1, 1, { filter: wall, fields: "id" }),
            )
          ).totalItems,
      );
    },
  },

  GroupMember: {
    person: (m) => (m.expand?.person as PersonRecord | undefined) ?? null,
    isMe: async (m, _, ctx) => (await ctx.viewer())?.person === m.person,
    joinedAt: (m) => fromPocketBaseDate(m.created),
  },

  GroupJoinRequest: {
    person: (r) => (r.expand?.person as PersonRecord | undefined) ?? null,
    created: (r) => fromPocketBaseDate(r.created),
  },

  GroupMessage: {
    groupId: (m) => m.group,
    authorId: (m) => m.author,
    html: (m) => renderChat(m.body),
    mine: async (m, _, ctx) => (await ctx.viewer())?.person === m.author,
    canDelete: async (m, _, ctx) => (await messageCanOf(ctx, m)).delete,
    can: (m, _, ctx) => messageCanOf(ctx, m),
    editedAt: (m) => fromPocketBaseDateOrNull(m.editedAt),
    created: (m) => fromPocketBaseDate(m.created),
  },
};
