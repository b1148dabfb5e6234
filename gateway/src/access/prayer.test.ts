import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { prayerRequestCan, seesRequester } from "./prayer.ts";

const userWith = (options: { permissions?: PermissionName[]; personStatus?: string } = {}) =>
  ({
    id: "user00000000001",
    expand: {
      roles: [{ permissions: options.permissions ?? [] }],
      person: { recordStatus: options.personStatus ?? "active" },
    },
  }) as unknown as UserRecord;
const approved = { visibility: "public", status: "approved" };

describe("prayer policy", () => {
  it("pastoral requests are moderated by pastoral staff only", () => {
    const moderator = userWith({ permissions: ["prayer.moderate"] });
    expect(prayerRequestCan.moderate(moderator, { visibility: "public" })).toBe(true);
    expect(prayerRequestCan.moderate(moderator, { visibility: "pastoral" })).toBe(false);
    expect(
      prayerRequestCan.moderate(userWith({ permissions: ["prayer.view_pastoral"] }), {
        visibility: "pastoral",
      }),
    ).toBe(true);
  });

  it("active members flag what is on a wall", () => {
    expect(prayerRequestCan.flag(userWith(), true)).toBe(true);
    expect(prayerRequestCan.flag(userWith(), false)).toBe(false);
    expect(prayerRequestCan.flag(userWith({ personStatus: "pending" }), true)).toBe(false);
    expect(prayerRequestCan.flag(null, true)).toBe(false);
  });

  it("the requester or a moderator marks an approved request answered", () => {
    expect(prayerRequestCan.markAnswered(userWith(), approved, true)).toBe(true);
    expect(prayerRequestCan.markAnswered(userWith(), approved, false)).toBe(false);
    expect(
      prayerRequestCan.markAnswered(userWith({ permissions: ["prayer.moderate"] }), approved, false),
    ).toBe(true);
    expect(prayerRequestCan.markAnswered(userWith(), { ...approved, status: "pending" }, true)).toBe(false);
  });

  it("who asked: pastoral staff, and the requester", () => {
    expect(seesRequester(userWith(), { user: "user00000000001" })).toBe(true);
    expect(seesRequester(userWith(), { user: "user00000000002" })).toBe(false);
    expect(
      seesRequester(userWith({ permissions: ["prayer.view_pastoral"] }), { user: "user00000000002" }),
    ).toBe(true);
  });
});
