import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { ABILITIES, abilitiesOf, can, holdersOf, roleGrants } from "./abilities.ts";
import { clientPostCan } from "./content.ts";

const userWith = (...permissions: PermissionName[]) =>
  ({ expand: { roles: [{ permissions }] } }) as unknown as UserRecord;

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
        expect(
          can(userWith(permission), ability as keyof typeof ABILITIES),
          `${ability} by ${permission}`,
        ).toBe((permissions as readonly string[]).includes(permission));
      }
    }
  });

  it("useAdmin: any staff ability; permissions from several roles add up", () => {
    expect(abilitiesOf(userWith("media.manage")).useAdmin).toBe(true);
    const twoRoles = {
      expand: { roles: [{ permissions: ["content.edit"] }, { permissions: ["content.publish"] }] },
    } as unknown as UserRecord;
    expect(abilitiesOf(twoRoles)).toMatchObject({
      editContent: true,
      publishContent: true,
      manageMedia: false,
      useMediaLibrary: true,
      useAdmin: true,
    });
  });

  it("a role grants an ability when it holds any one of its permissions", () => {
    expect(roleGrants({ permissions: ["prayer.view_pastoral"] }, "moderatePrayer")).toBe(true);
    expect(roleGrants({ permissions: ["prayer.moderate"] }, "viewPastoralPrayer")).toBe(false);
    expect(roleGrants({ permissions: [] }, "manageRoles")).toBe(false);
  });

  it("the holders' filter names every permission that grants the ability, as the rules test them", () => {
    expect(holdersOf("moderatePrayer")).toBe(
      '(roles.permissions:each ?= "prayer.moderate" || roles.permissions:each ?= "prayer.view_pastoral")',
    );
    expect(holdersOf("manageIntegrations")).toBe('(roles.permissions:each ?= "api.manage")');
  });

  it("an API client edits only the drafts it wrote, with content.write; it never publishes or deletes", () => {
    const writer = { id: "client000000001", scopes: ["content.write"] };
    expect(clientPostCan(writer, { status: "draft", authorClient: writer.id })).toEqual({
      edit: true,
      publish: false,
      delete: false,
    });
    for (const post of [
      { status: "published", authorClient: writer.id },
      { status: "draft", authorClient: "client000000002" },
      { status: "draft", authorClient: "" },
      { status: "draft" },
    ]) {
      expect(clientPostCan(writer, post), JSON.stringify(post)).toEqual({
        edit: false,
        publish: false,
        delete: false,
      });
    }
    expect(
      clientPostCan(
        { id: writer.id, scopes: ["content.members"] },
        { status: "draft", authorClient: writer.id },
      ).edit,
    ).toBe(false);
  });
});
