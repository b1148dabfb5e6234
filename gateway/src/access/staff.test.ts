import { describe, expect, it } from "vitest";
import type { PermissionName, RoleRecord, UserRecord } from "../pocketbase/records.ts";
import { handlesStaffTopic, keepsAccountManagement, mediaCan, staffAlertAbility } from "./staff.ts";

const userWith = (...permissions: PermissionName[]) =>
  ({ id: "user00000000001", expand: { roles: [{ permissions }] } }) as unknown as UserRecord;
const role = (id: string, ...permissions: PermissionName[]) => ({ id, permissions }) as unknown as RoleRecord;

describe("small staff features' policy", () => {
  it("media: writers edit any item and delete their own; manageMedia deletes anyone's", () => {
    const own = { uploadedBy: "user00000000001" };
    const theirs = { uploadedBy: "user00000000002" };
    expect(mediaCan(userWith("content.edit"), own)).toEqual({ edit: true, delete: true });
    expect(mediaCan(userWith("content.edit"), theirs)).toEqual({ edit: true, delete: false });
    expect(mediaCan(userWith("media.manage"), theirs)).toEqual({ edit: true, delete: true });
    // Publishing alone does not open the library (the rules name content.edit).
    expect(mediaCan(userWith("content.publish"), own)).toEqual({ edit: false, delete: false });
    expect(mediaCan(null, { uploadedBy: "" })).toEqual({ edit: false, delete: false });
  });

  it("an account manager keeps a role that lets them manage accounts", () => {
    const roles = [role("admin", "roles.manage"), role("editor", "content.edit")];
    expect(keepsAccountManagement(roles, ["admin", "editor"])).toBe(true);
    expect(keepsAccountManagement(roles, ["editor"])).toBe(false);
  });

  it("staff alerts: who handles a topic; pastoral prayer requests only reach pastoral staff", () => {
    expect(handlesStaffTopic(userWith("people.manage"), "signups")).toBe(true);
    expect(handlesStaffTopic(userWith("people.view"), "visits")).toBe(false);
    expect(handlesStaffTopic(userWith("prayer.view_pastoral"), "prayer")).toBe(true);
    expect(staffAlertAbility("prayer")).toBe("moderatePrayer");
    expect(staffAlertAbility("prayer", { pastoral: true })).toBe("viewPastoralPrayer");
    expect(staffAlertAbility("visits", { pastoral: true })).toBe("managePeople");
  });
});
