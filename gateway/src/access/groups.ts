import type {
  GroupMemberRecord,
  GroupMessageRecord,
  GroupRecord,
  UserRecord,
} from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Groups' policy (pb_migrations/1732500000_groups.js, 1732520000_group_prayer.js). Feature-wide:
 * manageGroups in abilities.ts (create, hide, archive any group). Everything else depends on the
 * caller's own membership of the group: `membership` below is their active group_members row
 * (groups/resolvers.ts reads the caller's rows once per request), null when they have none. A leader
 * of group A has no rights in group B.
 */

type Membership = Pick<GroupMemberRecord, "role" | "status"> | null;

/** What the caller may do with one group (`Group.can`). */
export interface GroupCan {
  edit: boolean;
  manage: boolean;
  manageMembers: boolean;
  readChat: boolean;
  postMessage: boolean;
  askForPrayer: boolean;
}

/** What the caller may do with one chat message (`GroupMessage.can`). */
export interface GroupMessageCan {
  edit: boolean;
  delete: boolean;
}

const isMember = (membership: Membership) => membership?.status === "active";
const leads = (membership: Membership) => isMember(membership) && membership?.role === "leader";
/** Groups are for people the church has approved (an active person). */
const isActivePerson = (user: UserRecord | null) => user?.expand?.person?.recordStatus === "active";

/** Why the caller may not read or write the group's chat, or null when they may (after isActivePerson). */
export function chatRefusal(
  group: Pick<GroupRecord, "chatEnabled">,
  membership: Membership,
): "not_a_member" | "chat_disabled" | null {
  if (!isMember(membership)) return "not_a_member";
  if (!group.chatEnabled) return "chat_disabled";
  return null;
}

/**
 * Manage the group's members and join requests and mail its members: its leaders and manageGroups.
 * Decided without reading the group itself (the mutations that take only its id answer FORBIDDEN,
 * not NOT_FOUND, to everyone else).
 */
export const managesMembers = (user: UserRecord | null, membership: Membership) =>
  can(user, "manageGroups") || leads(membership);

/**
 * edit: what the group says about itself (description, schedule, location, address): its leaders and
 * manageGroups. manage: who may find and join it, its capacity, archiving (manageGroups only).
 * manageMembers: add and remove members, make leaders, decide join requests, mail the members (its
 * leaders and manageGroups). readChat: its active members (staff do not read chats) while the chat is
 * on; postMessage: also while the group is active. askForPrayer: its active members while it is active.
 */
export function groupCan(
  user: UserRecord | null,
  group: Pick<GroupRecord, "chatEnabled" | "status">,
  membership: Membership,
): GroupCan {
  const staff = can(user, "manageGroups");
  const readChat = isActivePerson(user) && chatRefusal(group, membership) === null;
  const activeMember = isActivePerson(user) && isMember(membership) && group.status === "active";
  return {
    edit: managesMembers(user, membership),
    manage: staff,
    manageMembers: managesMembers(user, membership),
    readChat,
    postMessage: readChat && group.status === "active",
    askForPrayer: activeMember,
  };
}

/** The author edits their own message while still a member; they and the group's leaders delete it. */
export function groupMessageCan(
  user: UserRecord | null,
  message: Pick<GroupMessageRecord, "author">,
  membership: Membership,
): GroupMessageCan {
  const author = !!user?.person && user.person === message.author && isMember(membership);
  return { edit: author, delete: author || leads(membership) };
}

/** A hidden location's area: the group's members and manageGroups. */
export const seesHiddenArea = (user: UserRecord | null, membership: Membership) =>
  isMember(membership) || can(user, "manageGroups");

/**
 * Whether to read the exact address at all: shown when the group shows it, always to manageGroups;
 * the group_addresses rules then answer only for its members and staff.
 */
export const asksForAddress = (user: UserRecord | null, group: Pick<GroupRecord, "locationDisplay">) =>
  !!user && (group.locationDisplay === "exact" || can(user, "manageGroups"));

/** The roster: manageGroups, the group's leaders, and its members when the roster is open to them. */
export function seesRoster(
  user: UserRecord | null,
  group: Pick<GroupRecord, "rosterVisibility">,
  membership: Membership,
): boolean {
  if (can(user, "manageGroups")) return true;
  if (!isMember(membership)) return false;
  return leads(membership) || group.rosterVisibility === "members";
}
