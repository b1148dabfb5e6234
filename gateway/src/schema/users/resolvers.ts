import { badUserInput, conflict, pbCall } from "../../errors.ts";
import type { RoleRecord, UserRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import type { Resolvers } from "../__generated__/types.ts";
import { revokeSessions } from "./sessions.ts";
import { connection, keysetFilter, pageArgs } from "../pagination.ts";
import { selectsField } from "../selection.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";

import { requireAbility, requireViewer } from "../../access/guards.ts";
import { keepsAccountManagement, seesEveryAccount } from "../../access/staff.ts";

const userExpand = { expand: "roles,person" };

export const usersResolvers: Resolvers = {
  Query: {
    async users(_, { first, after, search }, ctx, info) {
      const { size, cursor } = pageArgs(first, after, 20);
      if (search && search.length > LIMITS.searchMax) {
        throw badUserInput({
          search: { code: "too_long", message: `Use at most ${LIMITS.searchMax} characters.` },
        });
      }
      const viewer = await requireViewer(ctx);
      const q = search?.trim() ?? "";
      // Account management: people staff may read accounts (to see who has a login) but the
      // accounts list itself is for account managers; everyone else sees only their own account.
      const scope = seesEveryAccount(viewer) ? "" : ctx.pb.filter("id = {:id}", { id: viewer.id });
      const searchFilter = [scope, q ? ctx.pb.filter("(email ~ {:q} || name ~ {:q})", { q }) : ""]
        .filter(Boolean)
        .join(" && ");
      const filter = [searchFilter, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      const list = {
        sort: "-created,-id",
        skipTotal: true,
        expand: selectsField(info, "person") ? "roles,person" : "roles",
      };

      // PocketBase matches `email` in a filter only for superusers or for accounts whose email is
      // public, and every account keeps its email private: an account manager's search by email
      // would find nobody. So for them the system account picks this page's ids (ids only), and the
      // caller's own request below reads exactly those under the caller's rules. Managers may list
      // every account, so the system's count and next-page answer are theirs to see.
      const lookup = q && seesEveryAccount(viewer) ? await ctx.system.get() : null;
      let rows: UserRecord[];
      if (lookup) {
        const ids = await pbCall(() =>
          lookup
            .collection("users")
            .getList(1, size + 1, { filter, sort: list.sort, skipTotal: true, fields: "id" }),
        );
        const byId = ids.items.map((u) => ctx.pb.filter("id = {:id}", { id: u.id })).join(" || ");
        rows = byId
          ? (
              await pbCall(() =>
                ctx.pb.collection("users").getList<UserRecord>(1, size + 1, { ...list, filter: byId }),
              )
            ).items
          : [];
      } else {
        rows = (
          await pbCall(() => ctx.pb.collection("users").getList<UserRecord>(1, size + 1, { ...list, filter }))
        ).items;
      }
      return connection(
        rows,
        size,
        (u) => u.created,
        async () =>
          (
            await pbCall(() =>
              (lookup ?? ctx.pb).collection("users").getList(1, 1, { filter: searchFilter, fields: "id" }),
            )
          ).totalItems,
      );
    },
    async roles(_, __, ctx) {
      await requireViewer(ctx);
      return pbCall(() => ctx.pb.collection("roles").getFullList<RoleRecord>({ sort: "name" }));
    },
  },
  Mutation: {
    async setUserRoles(_, { userId, roleIds }, ctx) {
      const viewer = await requireAbility(ctx, "manageRoles");
      if (userId === viewer.id) {
        const allRoles = await pbCall(() => ctx.pb.collection("roles").getFullList<RoleRecord>());
        if (!keepsAccountManagement(allRoles, roleIds))
          throw conflict(
            "You can't remove your own access to users and roles. Ask another administrator.",
            "own_access",
          );
      }
      const user = await pbCall(() =>
        ctx.pb.collection("users").update<UserRecord>(userId, { roles: roleIds }, userExpand),
      );
      ctx.viewerCache.forgetUser(userId);
      return user;
    },
    async setUserStatus(_, { userId, status }, ctx) {
      const viewer = await requireAbility(ctx, "manageRoles");
      if (userId === viewer.id && status === "suspended")
        throw conflict("You can't suspend your own account.", "own_account");
      const user = await pbCall(() =>
        ctx.pb.collection("users").update<UserRecord>(userId, { status }, userExpand),
      );
      ctx.viewerCache.forgetUser(userId);
      if (status === "suspended") await revokeSessions(ctx, userId);
      return user;
    },
    async resendVerification(_, { userId }, ctx) {
      await requireAbility(ctx, "manageRoles");
      const user = await pbCall(() => ctx.pb.collection("users").getOne<UserRecord>(userId));
      if (user.verified) throw conflict("This email address is already verified.", "already_verified");
      await pbCall(() => ctx.pb.collection("users").requestVerification(user.email));
      return true;
    },
  },
  User: {
    // PocketBase leaves out the email of accounts the caller does not own or manage.
    email: (u) => u.email ?? "",
    name: (u) => u.name ?? "",
    status: (u) => (u.status === "suspended" ? "suspended" : "active"),
    locale: (u) => u.locale || null,
    roles: (u) => u.expand?.roles ?? [],
    person: (u) => u.expand?.person ?? null,
    created: (u) => fromPocketBaseDate(u.created),
  },
  Role: {
    description: (r) => r.description ?? "",
    permissions: (r) => r.permissions ?? [],
  },
};
