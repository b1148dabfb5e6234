/**
 * Account administration (needs roles.manage): list, search and page through accounts, give roles,
 * suspend and reactivate, resend the verification email.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  PASSWORD,
  system,
  testGateway,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  UsersAdminListDocument,
  UsersAdminViewerDocument,
  type UsersAdminListQuery,
  type UsersAdminListQueryVariables,
} from "./__generated__/operations.ts";

const USERS = UsersAdminListDocument; // ./operations/users-admin.graphql
const SET_ROLES = `mutation($id: ID!, $roles: [ID!]!) { setUserRoles(userId: $id, roleIds: $roles) { id roles { name } } }`;
const SET_STATUS = `mutation($id: ID!, $status: UserStatus!) { setUserStatus(userId: $id, status: $status) { id status } }`;
const RESEND = `mutation($id: ID!) { resendVerification(userId: $id) }`;
const SIGN_IN = `mutation($input: SignInInput!) { signIn(input: $input) { user { id } } }`;
const VIEWER = UsersAdminViewerDocument;

type UsersPage = UsersAdminListQuery;

let gateway: Gateway;
let admin: TestUser;
let roleIds: Record<string, string>;
const asAdmin = () => new GqlClient(gateway, { token: admin.token });
const listUsers = (variables: UsersAdminListQueryVariables) => asAdmin().execute(USERS, variables);

/** Accounts whose emails share a fresh tag, created one after another (oldest first). */
async function taggedUsers(count: number): Promise<{ tag: string; users: TestUser[] }> {
  const tag = `tag${randomUUID().slice(0, 8)}`;
  const users: TestUser[] = [];
  for (let i = 0; i < count; i++)
    users.push(await createUser({ email: `${tag}-${i}@test.example`, name: `Person ${i}` }));
  return { tag, users };
}

beforeAll(async () => {
  gateway = await testGateway();
  admin = await createUser({ roles: ["Administrator"] });
  const roles = await (await system()).collection("roles").getFullList();
  roleIds = Object.fromEntries(roles.map((r) => [r.name, r.id]));
});
afterAll(() => gateway.close());

describe("listing and searching accounts", () => {
  it("finds accounts by a fragment of their email, newest first, with emails, roles and person", async () => {
    const { tag, users } = await taggedUsers(3);
    const result = await listUsers({ search: tag.toUpperCase().slice(0, 9) }); // case-insensitive, a fragment
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.totalCount).toBe(3);
    expect(result.data?.users.edges.map((e) => e.node.email)).toEqual(users.map((u) => u.email).reverse());
    expect(result.data?.users.edges[0]?.node).toMatchObject({
      verified: true,
      status: "ACTIVE",
      roles: [],
      person: { id: users[2]!.personId, recordStatus: "ACTIVE" },
    });
  });

  it("finds accounts by name", async () => {
    const name = `Zebedee ${randomUUID().slice(0, 6)}`;
    const user = await createUser({ name });
    const result = await listUsers({ search: name.slice(2) });
    expect(result.data?.users.edges.map((e) => e.node.id)).toEqual([user.id]);
  });

  it("treats search text as text, not as filter syntax", async () => {
    const result = await listUsers({ search: `" || id != "` });
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.edges).toEqual([]);
  });

  it("counts all accounts when no search is given", async () => {
    const total = (await (await system()).collection("users").getList(1, 1)).totalItems;
    expect((await listUsers({ first: 1 })).data?.users.totalCount).toBe(total);
  });

  it("pages with keyset cursors: no overlap, no gaps, hasNextPage on every page but the last", async () => {
    const { tag, users } = await taggedUsers(5);
    const newestFirst = users.map((u) => u.id).reverse();
    const seen: string[] = [];
    const pages: boolean[] = [];
    let after: string | null = null;
    do {
      const page: UsersPage["users"] = (await listUsers({ search: tag, first: 2, after })).data!.users;
      expect(page.totalCount).toBe(5);
      seen.push(...page.edges.map((e) => e.node.id));
      pages.push(page.pageInfo.hasNextPage);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(newestFirst);
    expect(pages).toEqual([true, true, false]);
  });

  it("keeps the next page stable when accounts are added meanwhile", async () => {
    const { tag, users } = await taggedUsers(4);
    const first = (await listUsers({ search: tag, first: 2 })).data!.users;
    await createUser({ email: `${tag}-late@test.example` }); // newer than everything: lands on page one, not page two
    const second = (await listUsers({ search: tag, first: 2, after: first.pageInfo.endCursor })).data!.users;
    expect(second.edges.map((e) => e.node.id)).toEqual([users[1]!.id, users[0]!.id]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses a cursor it did not make", async () => {
    for (const after of ["not-a-cursor", Buffer.from(JSON.stringify({ a: 1 })).toString("base64url")]) {
      const result = await listUsers({ after });
      expect(errorCode(result)).toBe("BAD_USER_INPUT");
      expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ after: "invalid" });
    }
  });

  it("refuses a search over 100 characters", async () => {
    const result = await listUsers({ search: "x".repeat(101) });
    expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ search: "too_long" });
  });

  it("a member searching sees only themselves, and cannot learn whether an email has an account", async () => {
    const member = await createUser();
    const client = new GqlClient(gateway, { token: member.token });
    const all = await client.execute(USERS, {});
    expect(all.data?.users.edges.map((e) => e.node.id)).toEqual([member.id]);
    const probe = await client.execute(USERS, { search: admin.email });
    expect(probe.data?.users).toMatchObject({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false } });
  });
});

describe("roles", () => {
  it("gives and takes roles, and the user's permissions follow", async () => {
    const member = await createUser();
    const asMember = new GqlClient(gateway, { token: member.token });
    const given = await asAdmin().request(SET_ROLES, {
      id: member.id,
      roles: [roleIds.Editor, roleIds["Care Team"]],
    });
    expect(given.data).toEqual({
      setUserRoles: {
        id: member.id,
        roles: expect.arrayContaining([{ name: "Editor" }, { name: "Care Team" }]),
      },
    });
    const permissions = (await asMember.execute(VIEWER)).data?.viewer!.permissions;
    expect(permissions).toEqual(
      expect.arrayContaining(["CONTENT_EDIT", "MEDIA_MANAGE", "PRAYER_VIEW_PASTORAL"]),
    );
    expect(permissions).not.toContain("SETTINGS_MANAGE");

    expect((await asAdmin().request(SET_ROLES, { id: member.id, roles: [] })).data).toEqual({
      setUserRoles: { id: member.id, roles: [] },
    });
    expect((await asMember.request(VIEWER)).data).toEqual({
      viewer: { user: { id: member.id }, permissions: [] },
    });
  });

  it("refuses an unknown role and an unknown user", async () => {
    const member = await createUser();
    expect(errorCode(await asAdmin().request(SET_ROLES, { id: member.id, roles: ["nosuchrole00000"] }))).toBe(
      "BAD_USER_INPUT",
    );
    expect(errorCode(await asAdmin().request(SET_ROLES, { id: "nosuchuser00000", roles: [] }))).toBe(
      "NOT_FOUND",
    );
  });

  it("an administrator cannot remove their own roles.manage, but may change their other roles", async () => {
    const self = await createUser({ roles: ["Administrator"] });
    const client = new GqlClient(gateway, { token: self.token });
    for (const roles of [[], [roleIds.Editor], [roleIds.Pastor, roleIds["Care Team"]]]) {
      const result = await client.request(SET_ROLES, { id: self.id, roles });
      expect(errorCode(result)).toBe("CONFLICT");
    }
    expect((await (await system()).collection("users").getOne(self.id)).roles).toEqual([
      roleIds.Administrator,
    ]);
    const kept = await client.request(SET_ROLES, {
      id: self.id,
      roles: [roleIds.Administrator, roleIds.Editor],
    });
    expect(kept.errors).toBeUndefined();
  });
});

describe("suspending", () => {
  it("ends the user's sessions and blocks sign-in; reactivating lets them sign in again", async () => {
    const user = await createUser();
    const browser = new GqlClient(gateway);
    await browser.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    const integrator = new GqlClient(gateway, { token: user.token });
    expect((await browser.request(VIEWER)).data).toMatchObject({ viewer: { user: { id: user.id } } });
    expect((await integrator.request(VIEWER)).data).toMatchObject({ viewer: { user: { id: user.id } } });

    expect((await asAdmin().request(SET_STATUS, { id: user.id, status: "SUSPENDED" })).data).toEqual({
      setUserStatus: { id: user.id, status: "SUSPENDED" },
    });
    const afterSuspension = await browser.request(VIEWER);
    expect(afterSuspension.data).toEqual({ viewer: null });
    expect(browser.cookie).toBeNull(); // the dead session's cookie is cleared
    expect((await integrator.request(VIEWER)).data).toEqual({ viewer: null });
    const refused = await new GqlClient(gateway).request(SIGN_IN, {
      input: { email: user.email, password: PASSWORD },
    });
    expect(errorCode(refused)).toBe("FORBIDDEN");
    expect(refused.errors?.[0]?.extensions?.reason).toBe("suspended");

    expect((await asAdmin().request(SET_STATUS, { id: user.id, status: "ACTIVE" })).data).toEqual({
      setUserStatus: { id: user.id, status: "ACTIVE" },
    });
    const again = new GqlClient(gateway);
    expect(
      (await again.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } })).errors,
    ).toBeUndefined();
    expect((await again.request(VIEWER)).data).toMatchObject({ viewer: { user: { id: user.id } } });
  });

  it("an administrator cannot suspend themselves", async () => {
    const result = await asAdmin().request(SET_STATUS, { id: admin.id, status: "SUSPENDED" });
    expect(errorCode(result)).toBe("CONFLICT");
    expect((await (await system()).collection("users").getOne(admin.id)).status).toBe("active");
  });
});

describe("resending the verification email", () => {
  it("mails an unverified user a new link", async () => {
    const unverified = await createUser({ verified: false });
    expect((await asAdmin().request(RESEND, { id: unverified.id })).data).toEqual({
      resendVerification: true,
    });
    const mail = await waitForMail(catcherUrl(), unverified.email, /Confirm your email/);
    expect(mail.html).toContain("http://flock.test/verify-email?token=");
  });

  it("answers CONFLICT for a verified user, NOT_FOUND for an unknown one", async () => {
    const verified = await createUser();
    expect(errorCode(await asAdmin().request(RESEND, { id: verified.id }))).toBe("CONFLICT");
    expect(errorCode(await asAdmin().request(RESEND, { id: "nosuchuser00000" }))).toBe("NOT_FOUND");
  });
});

describe("only account managers", () => {
  const callers: Array<[string, TestUser]> = [];
  beforeAll(async () => {
    for (const role of [undefined, "Editor", "Pastor", "Care Team"] as const)
      callers.push([role ?? "member", await createUser(role ? { roles: [role] } : {})]);
  });

  it.each([
    ["setUserRoles", SET_ROLES, (id: string) => ({ id, roles: [roleIds.Administrator] })],
    ["setUserStatus", SET_STATUS, (id: string) => ({ id, status: "SUSPENDED" })],
    ["resendVerification", RESEND, (id: string) => ({ id })],
  ])(
    "%s: FORBIDDEN for staff without roles.manage, UNAUTHENTICATED for visitors",
    async (_, mutation, variables) => {
      const target = await createUser({ verified: false });
      for (const [who, caller] of callers) {
        const result = await new GqlClient(gateway, { token: caller.token }).request(
          mutation,
          variables(target.id),
        );
        expect(errorCode(result), who).toBe("FORBIDDEN");
      }
      expect(errorCode(await new GqlClient(gateway).request(mutation, variables(target.id)))).toBe(
        "UNAUTHENTICATED",
      );
      expect(await (await system()).collection("users").getOne(target.id)).toMatchObject({
        roles: [],
        status: "active",
      });
    },
  );
});
