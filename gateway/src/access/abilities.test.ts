import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { ABILITIES, abilitiesOf, can } from "./abilities.ts";

const userWith = (...permissions: PermissionName[]) => ({ expand: { roles: [{ permissions }] } }) as unknown as UserRecord;

describe("abilities", () => {
  it("a visitor and a member without roles may do nothing a staff screen needs", () => {
    for (const user of [null, userWith()]) {
      expect(Object.values(abilitiesOf(user)).every((allowed) => allowed === false)).toBe(true);
    }
  });

  it("each ability is granted by any one of its permissions, and by nothing else", () => {
    const all = [...new Set(Object.values(ABILITIES).flat())];
    for (const [ability, permissions] of Object.entries(ABILITIES)) {
      for (const permission of all) {
        expect(can(userWith(permission), ability as keyof typeof ABILITIES), `${ability} by ${permission}`).toBe((permissions as readonly string[]).includes(permission));
      }
    }
  });

  it("useAdmin: any staff ability; permissions from several roles add up", () => {
    expect(abilitiesOf(userWith("media.manage")).useAdmin).toBe(true);
    const twoRoles = { expand: { roles: [{ permissions: ["content.edit"] }, { permissions: ["content.publish"] }] } } as unknown as UserRecord;
    expect(abilitiesOf(twoRoles)).toMatchObject({ editContent: true, publishContent: true, manageMedia: false, useMediaLibrary: true, useAdmin: true });
  });
});
