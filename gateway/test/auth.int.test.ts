import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { THROTTLE } from "@flock/shared/limits";
import { signUpsSettled } from "../src/schema/auth/resolvers.ts";
import { waitForMail, linkFrom } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  expectRateLimited,
  GqlClient,
  system,
  PASSWORD,
  testGateway,
  uniqueEmail,
  catcherUrl,
} from "./helpers.ts";

const SIGN_UP = `mutation($input: SignUpInput!) { signUp(input: $input) }`;
const SIGN_IN = `mutation($input: SignInInput!) { signIn(input: $input) { user { email } permissions } }`;
const VIEWER = `{ viewer { user { email verified } permissions isMember } }`;

let gateway: Gateway;
beforeAll(async () => {
  gateway = await testGateway();
});
afterAll(() => gateway.close());

describe("sign-up → verification mail → sign-in → sign-out", () => {
  it("creates a pending person, mails a verification link that works, and signs in and out", async () => {
    const client = new GqlClient(gateway);
    const email = uniqueEmail("signup");
    const signUp = await client.request(SIGN_UP, {
      input: {
        firstName: "Ruth",
        lastName: "Moab",
        email: email.toUpperCase(),
        password: "a long enough secret",
        passwordConfirm: "a long enough secret",
      },
    });
    expect(signUp.errors).toBeUndefined();
    expect(signUp.data).toEqual({ signUp: true });
    // Nobody is signed in by sign-up: the answer must not differ for a taken address.
    expect(client.cookie).toBeNull();

    const mail = await waitForMail(catcherUrl(), email, /Confirm your email/);
    const link = new URL(linkFrom(mail, "/verify-email"));
    expect(link.origin).toBe("http://flock.test");
    const confirm = await new GqlClient(gateway).request(
      `mutation($t: String!) { confirmVerification(token: $t) }`,
      { t: link.searchParams.get("token") },
    );
    expect(confirm.data).toEqual({ confirmVerification: true });

    const signedIn = new GqlClient(gateway);
    const signIn = await signedIn.request(SIGN_IN, { input: { email, password: "a long enough secret" } });
    expect(signIn.data).toEqual({ signIn: { user: { email }, permissions: [] } });
    expect(
      (await signedIn.request(`{ viewer { user { email verified } person { recordStatus } isMember } }`))
        .data,
    ).toEqual({
      viewer: { user: { email, verified: true }, person: { recordStatus: "PENDING" }, isMember: false },
    });

    const before = signedIn.cookie;
    await signedIn.request(`mutation { signOut }`);
    expect(signedIn.cookie).toBeNull();
    // The old token is revoked on every device, not just forgotten by this browser.
    const replay = new GqlClient(gateway);
    replay.cookie = before;
    expect((await replay.request(VIEWER)).data).toEqual({ viewer: null });
  });

  it("sets an httpOnly, SameSite=Lax session cookie", async () => {
    const user = await createUser();
    const result = await new GqlClient(gateway).request(SIGN_IN, {
      input: { email: user.email, password: PASSWORD },
    });
    const cookie = result.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=604800/);
  });
});

describe("sign-up never reveals who has an account (issue 10, QUALITY S6)", () => {
  it("answers a taken address exactly like a new one, and mails the owner instead of creating anything", async () => {
    const existing = await createUser();
    const fresh = uniqueEmail("fresh");
    const input = (email: string) => ({
      firstName: "Mara",
      lastName: "Bitter",
      email,
      password: "a long enough secret",
      passwordConfirm: "a long enough secret",
    });
    const answer = async (email: string) => {
      const response = await gateway.yoga.fetch(
        "http://flock.test/graphql",
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: SIGN_UP, variables: { input: input(email) } }),
        },
        { clientIp: "198.51.100.70" },
      );
      const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "date"));
      return { status: response.status, headers, body: await response.text() };
    };
    const taken = await answer(existing.email.toUpperCase());
    const unknown = await answer(fresh);
    expect(taken).toEqual(unknown);
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body)).toEqual({ data: { signUp: true } });
    expect(taken.headers).not.toHaveProperty("set-cookie");

    // The owner hears about it, with the way back in; the new address gets its verification mail.
    const notice = await waitForMail(catcherUrl(), existing.email, /Someone tried to sign up/);
    expect(notice.text).toContain("http://flock.test/forgot-password");
    expect(notice.text).toContain("http://flock.test/login");
    await waitForMail(catcherUrl(), fresh, /Confirm your email/);
    await signUpsSettled();
    const su = await system();
    // Nothing changed for the existing account: one user, same password, no verification mail.
    expect(
      (
        await su.collection("users").getFullList({ filter: su.filter("email = {:e}", { e: existing.email }) })
      ).map((u) => u.id),
    ).toEqual([existing.id]);
    const mails = (await (
      await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(existing.email)}`)
    ).json()) as Array<{ subject: string }>;
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Someone tried to sign up at .+ with your address$/),
    ]);
    expect(
      (
        await new GqlClient(gateway).request(SIGN_IN, {
          input: { email: existing.email, password: PASSWORD },
        })
      ).errors,
    ).toBeUndefined();
  });

  it("mails the owner at most once an hour, however often the address is tried", async () => {
    const existing = await createUser();
    for (let i = 0; i < 3; i++) {
      const result = await new GqlClient(gateway, { ip: `198.51.100.${71 + i}` }).request(SIGN_UP, {
        input: {
          firstName: "Try",
          lastName: `Again${i}`,
          email: existing.email,
          password: "a long enough secret",
          passwordConfirm: "a long enough secret",
        },
      });
      expect(result.data).toEqual({ signUp: true });
    }
    await signUpsSettled();
    await waitForMail(catcherUrl(), existing.email, /Someone tried to sign up/);
    const mails = (await (
      await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(existing.email)}`)
    ).json()) as unknown[];
    expect(mails).toHaveLength(1);
  });
});

describe("bad input gets the error of PRODUCT.md §8", () => {
  it("one answer for an unknown email and a wrong password", async () => {
    const user = await createUser();
    const wrong = await new GqlClient(gateway, { ip: "198.51.100.7" }).request(SIGN_IN, {
      input: { email: user.email, password: "not-the-password" },
    });
    const unknown = await new GqlClient(gateway, { ip: "198.51.100.7" }).request(SIGN_IN, {
      input: { email: uniqueEmail(), password: "not-the-password" },
    });
    expect(errorCode(wrong)).toBe("BAD_USER_INPUT");
    expect(wrong.errors?.[0]?.message).toBe(unknown.errors?.[0]?.message);
    expect(errorCode(unknown)).toBe("BAD_USER_INPUT");
  });

  it("refuses a weak password, a mismatch and an invalid email with field errors", async () => {
    const client = new GqlClient(gateway, { ip: "198.51.100.8" });
    const weak = await client.request(SIGN_UP, {
      input: {
        firstName: "A",
        lastName: "B",
        email: uniqueEmail(),
        password: "password123",
        passwordConfirm: "password124",
      },
    });
    expect(errorCode(weak)).toBe("BAD_USER_INPUT");
    expect(weak.errors?.[0]?.extensions?.fieldErrorCodes).toMatchObject({
      password: "password_common",
      passwordConfirm: "mismatch",
    });
    const short = await client.request(SIGN_UP, {
      input: {
        firstName: "A",
        lastName: "B",
        email: "not-an-email",
        password: "short",
        passwordConfirm: "short",
      },
    });
    expect(short.errors?.[0]?.extensions?.fieldErrorCodes).toMatchObject({
      password: "password_too_short",
      email: "invalid_email",
    });
  });

  it("refuses an unknown verification or reset token without a stack trace", async () => {
    const client = new GqlClient(gateway);
    const verify = await client.request(`mutation { confirmVerification(token: "bogus") }`);
    expect(errorCode(verify)).toBe("BAD_USER_INPUT");
    const reset = await client.request(
      `mutation($i: ConfirmPasswordResetInput!) { confirmPasswordReset(input: $i) }`,
      {
        i: { token: "bogus", password: "a long enough secret", passwordConfirm: "a long enough secret" },
      },
    );
    expect(errorCode(reset)).toBe("BAD_USER_INPUT");
    expect(JSON.stringify([verify, reset])).not.toMatch(/at \w+ \(|\.ts:\d+/);
  });
});

describe("password reset and change", () => {
  it("resets through the mailed link, answering the same for unknown emails", async () => {
    const user = await createUser();
    const client = new GqlClient(gateway, { ip: "198.51.100.20" });
    const known = await client.request(`mutation($e: String!) { requestPasswordReset(email: $e) }`, {
      e: user.email,
    });
    const unknown = await client.request(`mutation($e: String!) { requestPasswordReset(email: $e) }`, {
      e: uniqueEmail(),
    });
    expect(known.data).toEqual({ requestPasswordReset: true });
    expect(unknown.data).toEqual({ requestPasswordReset: true });
    const mail = await waitForMail(catcherUrl(), user.email, /Reset your/);
    const token = new URL(linkFrom(mail, "/reset-password")).searchParams.get("token");
    const reset = await client.request(
      `mutation($i: ConfirmPasswordResetInput!) { confirmPasswordReset(input: $i) }`,
      {
        i: { token, password: "brand new passphrase", passwordConfirm: "brand new passphrase" },
      },
    );
    expect(reset.data).toEqual({ confirmPasswordReset: true });
    const signIn = await new GqlClient(gateway).request(SIGN_IN, {
      input: { email: user.email, password: "brand new passphrase" },
    });
    expect(signIn.errors).toBeUndefined();
  });

  it("change password ends other sessions and keeps this one", async () => {
    const user = await createUser();
    const here = new GqlClient(gateway);
    const elsewhere = new GqlClient(gateway);
    await here.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    await elsewhere.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    const wrongCurrent = await here.request(
      `mutation($i: ChangePasswordInput!) { changePassword(input: $i) { user { email } } }`,
      {
        i: {
          currentPassword: "nope-nope-nope",
          password: "another good phrase",
          passwordConfirm: "another good phrase",
        },
      },
    );
    expect(wrongCurrent.errors?.[0]?.extensions?.fieldErrorCodes).toMatchObject({
      currentPassword: "wrong_password",
    });
    const changed = await here.request(
      `mutation($i: ChangePasswordInput!) { changePassword(input: $i) { user { email } } }`,
      {
        i: {
          currentPassword: PASSWORD,
          password: "another good phrase",
          passwordConfirm: "another good phrase",
        },
      },
    );
    expect(changed.errors).toBeUndefined();
    expect((await here.request(VIEWER)).data).toMatchObject({ viewer: { user: { email: user.email } } });
    expect((await elsewhere.request(VIEWER)).data).toEqual({ viewer: null });
  });
});

describe("sign-in throttling (PRODUCT.md §9)", () => {
  it("locks an account after 5 failures in 15 minutes, even with the right password", async () => {
    const user = await createUser();
    const client = new GqlClient(gateway, { ip: "198.51.100.30" });
    for (let i = 0; i < 5; i++) {
      expect(
        errorCode(
          await client.request(SIGN_IN, { input: { email: user.email, password: "wrong-password-x" } }),
        ),
      ).toBe("BAD_USER_INPUT");
    }
    const locked = await client.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    expectRateLimited(locked);
    // The media type the web app asks for keeps GraphQL over HTTP's 200 (the request was executed),
    // with the same Retry-After.
    const modern = await client.request(
      SIGN_IN,
      { input: { email: user.email, password: PASSWORD } },
      { headers: { accept: "application/graphql-response+json" } },
    );
    expect(errorCode(modern)).toBe("RATE_LIMITED");
    expect(modern.status).toBe(200);
    expect(modern.headers.get("retry-after")).toBe(String(modern.errors?.[0]?.extensions?.retryAfterSeconds));
  });

  it("wrong passwords from elsewhere do not lock the owner out of a browser that signed in before (issue 10, OWASP device cookies)", async () => {
    const user = await createUser();
    const owner = new GqlClient(gateway, { ip: "198.51.100.60" });
    expect(
      (await owner.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } })).errors,
    ).toBeUndefined();
    const trusted = owner.trustedDevice;
    expect(trusted).toBeTruthy();
    await owner.request(`mutation { signOut }`);
    expect(owner.trustedDevice).toBe(trusted);

    // Someone guesses the pastor's password from another network…
    const attacker = new GqlClient(gateway, { ip: "198.51.100.61" });
    for (let i = 0; i < THROTTLE.signInFailuresPerAccount; i++) {
      expect(
        errorCode(
          await attacker.request(SIGN_IN, { input: { email: user.email, password: `guess number ${i}` } }),
        ),
      ).toBe("BAD_USER_INPUT");
    }
    // …which still stops every client without the device cookie, even with the right password…
    expectRateLimited(await attacker.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } }));
    expectRateLimited(
      await new GqlClient(gateway, { ip: "198.51.100.62" }).request(SIGN_IN, {
        input: { email: user.email, password: PASSWORD },
      }),
    );
    // …but not the owner's own browser.
    const back = await owner.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    expect(back.errors).toBeUndefined();
    expect(back.data).toEqual({ signIn: { user: { email: user.email }, permissions: [] } });
    const cookie = back.headers.getSetCookie().find((c) => c.startsWith("flock_trusted=")) ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it("a trusted browser has an allowance of its own, and its cookie trusts only its account", async () => {
    const user = await createUser();
    const other = await createUser();
    const owner = new GqlClient(gateway, { ip: "198.51.100.63" });
    await owner.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
    const trusted = owner.trustedDevice!;

    // The device cookie for one account gives no allowance for another: lock `other` from elsewhere…
    for (let i = 0; i < THROTTLE.signInFailuresPerAccount; i++) {
      await new GqlClient(gateway, { ip: "198.51.100.64" }).request(SIGN_IN, {
        input: { email: other.email, password: `guess number ${i}` },
      });
    }
    const borrowed = new GqlClient(gateway, { ip: "198.51.100.63" });
    borrowed.trustedDevice = trusted;
    expectRateLimited(await borrowed.request(SIGN_IN, { input: { email: other.email, password: PASSWORD } }));
    // …and a tampered cookie is no cookie.
    const forged = new GqlClient(gateway, { ip: "198.51.100.63" });
    forged.trustedDevice = `${trusted.slice(0, -2)}${trusted.endsWith("A") ? "B" : "A"}A`;
    expectRateLimited(await forged.request(SIGN_IN, { input: { email: other.email, password: PASSWORD } }));

    // The trusted browser itself is limited after its own failures (a stolen cookie gives a guesser no more tries).
    for (let i = 0; i < THROTTLE.signInFailuresPerDevice; i++) {
      expect(
        errorCode(
          await owner.request(SIGN_IN, { input: { email: user.email, password: `typo number ${i}` } }),
        ),
      ).toBe("BAD_USER_INPUT");
    }
    expectRateLimited(await owner.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } }));
    // Its failures were its own: a fresh browser still has the account's allowance.
    expect(
      (
        await new GqlClient(gateway, { ip: "198.51.100.65" }).request(SIGN_IN, {
          input: { email: user.email, password: PASSWORD },
        })
      ).errors,
    ).toBeUndefined();
  });

  it("limits one IP to 30 failures, but successful sign-ins from one IP are not limited", async () => {
    const ip = "198.51.100.31";
    for (let i = 0; i < 30; i++) {
      await new GqlClient(gateway, { ip }).request(SIGN_IN, {
        input: { email: uniqueEmail(), password: "wrong-password-x" },
      });
    }
    const user = await createUser();
    expectRateLimited(
      await new GqlClient(gateway, { ip }).request(SIGN_IN, {
        input: { email: user.email, password: PASSWORD },
      }),
    );
    const other = await createUser();
    const churchWifi = "198.51.100.32";
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await new GqlClient(gateway, { ip: churchWifi }).request(SIGN_IN, {
            input: { email: other.email, password: PASSWORD },
          })
        ).errors,
      ).toBeUndefined();
    }
  });

  it.each([
    [
      "sign-up",
      (email: string) => ({
        query: SIGN_UP,
        variables: {
          input: {
            firstName: "A",
            lastName: "B",
            email,
            password: "a long enough secret",
            passwordConfirm: "a long enough secret",
            inviteToken: "not-a-real-invitation-token-at-all",
          },
        },
      }),
    ],
    [
      "password reset",
      (email: string) => ({
        query: `mutation($e: String!) { requestPasswordReset(email: $e) }`,
        variables: { e: email },
      }),
    ],
    [
      "verification mail",
      (email: string) => ({
        query: `mutation($e: String!) { requestVerification(email: $e) }`,
        variables: { e: email },
      }),
    ],
  ])(`limits the %s form to ${THROTTLE.anonymousFormsPerIp} per IP per hour`, async (form, operation) => {
    const ip = `198.51.100.${form.length + 40}`;
    for (let i = 0; i < THROTTLE.anonymousFormsPerIp; i++) {
      const { query, variables } = operation(uniqueEmail("form"));
      expect(errorCode(await new GqlClient(gateway, { ip }).request(query, variables))).not.toBe(
        "RATE_LIMITED",
      );
    }
    const { query, variables } = operation(uniqueEmail("form"));
    expectRateLimited(await new GqlClient(gateway, { ip }).request(query, variables));
  });

  it("refuses a suspended account", async () => {
    const user = await createUser({ status: "suspended" });
    const result = await new GqlClient(gateway).request(SIGN_IN, {
      input: { email: user.email, password: PASSWORD },
    });
    expect(errorCode(result)).toBe("FORBIDDEN");
  });
});
