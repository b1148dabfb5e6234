import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { chatRefusal, groupCan, groupMessageCan, seesRoster } from "./groups.ts";

const personId = "person000000001";
const userWith = (options: { permissions?: PermissionName[]; personStatus?: string } = {}) =>
  ({
    person: personId,
    expand: {
      roles: [{ permissions: options.permissions ?? [] }],
      person: { id: personId, recordStatus: options.personStatus ?? "active" },
    },
  }) as unknown as UserRecord;
const active = { chatEnabled: true, status: "active" } as const;
const member = { role: "member", status: "active" } as const;
const leader = { role: "leader", status: "active" } as const;

describe("groups policy", () => {
  it("leaders edit their group and manage its members; only manageGroups manages the group itself", () => {
    expect(groupCan(userWith(), active, leader)).toMatchObject({
      edit: true,
      manageMembers: true,
      manage: false,
    });
    expect(groupCan(userWith(), active, member)).toMatchObject({ edit: false, manageMembers: false });
    expect(groupCan(userWith({ permissions: ["groups.manage"] }), active, null)).toMatchObject({
      edit: true,
      manageMembers: true,
      manage: true,
      // staff do not read chats
      readChat: false,
    });
  });

  it("the chat is its active members', while it is on; an archived group's chat is read-only", () => {
    expect(groupCan(userWith(), active, member)).toMatchObject({ readChat: true, postMessage: true });
    expect(groupCan(userWith(), { chatEnabled: false, status: "active" }, member)).toMatchObject({
      readChat: false,
      postMessage: false,
    });
    expect(groupCan(userWith(), { chatEnabled: true, status: "archived" }, member)).toMatchObject({
      readChat: true,
      postMessage: false,
      askForPrayer: false,
    });
    expect(groupCan(userWith({ personStatus: "pending" }), active, member).readChat).toBe(false);
    expect(chatRefusal(active, null)).toBe("not_a_member");
    expect(chatRefusal({ chatEnabled: false }, member)).toBe("chat_disabled");
    expect(chatRefusal(active, { role: "member", status: "inactive" })).toBe("not_a_member");
  });

  it("a message: its author edits and deletes it, the group's leaders delete it", () => {
    const mine = { author: personId };
    const theirs = { author: "person000000002" };
    expect(groupMessageCan(userWith(), mine, member)).toEqual({ edit: true, delete: true });
    expect(groupMessageCan(userWith(), theirs, member)).toEqual({ edit: false, delete: false });
    expect(groupMessageCan(userWith(), theirs, leader)).toEqual({ edit: false, delete: true });
    // no longer a member: no longer theirs to change (the rules say the same)
    expect(groupMessageCan(userWith(), mine, null)).toEqual({ edit: false, delete: false });
    expect(groupMessageCan(null, mine, null)).toEqual({ edit: false, delete: false });
  });

  it("the roster: staff, leaders, and members when it is open to them", () => {
    expect(seesRoster(userWith(), { rosterVisibility: "leaders" }, member)).toBe(false);
    expect(seesRoster(userWith(), { rosterVisibility: "members" }, member)).toBe(true);
    expect(seesRoster(userWith(), { rosterVisibility: "leaders" }, leader)).toBe(true);
    expect(seesRoster(userWith(), { rosterVisibility: "members" }, null)).toBe(false);
    expect(
      seesRoster(userWith({ permissions: ["groups.manage"] }), { rosterVisibility: "leaders" }, null),
    ).toBe(true);
  });
});
