import { ClientResponseError } from "pocketbase";
import type { GraphQLError } from "graphql";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, ErrorCode, forbidden, fromPocketBase, pbCall, rateLimited } from "../../errors.ts";
import type {
  HouseholdInvitationRecord,
  PersonRecord,
  SettingsRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { checkPassword } from "../../validation/passwords.ts";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { revokeSessions } from "../users/sessions.ts";
import { requireViewer } from "../../access/guards.ts";
import { abilitiesOf, permissionsOf } from "../../access/abilities.ts";
import { alertNewSignUp } from "../../system/staff-alerts.ts";
import { recipientLocale, translator } from "../../mail/i18n.ts";
import { findPendingInvitation } from "../people/invitations.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

const INVALID_CREDENTIALS = "The email or password is incorrect.";

/** Anonymous forms (sign-up, reset and verification mail): per client IP per hour (PRODUCT.md §9). */
async function throttleAnonymousForm(ctx: GatewayContext, form: string): Promise<void> {
  const key = `form:${form}:${ctx.clientIp}`;
  await takeOrRefuse(ctx.limiter, key, THROTTLE.anonymousFormsPerIp, THROTTLE.anonymousFormWindowMs);
}

interface SignUpRequest {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  locale: string;
  invitation: HouseholdInvitationRecord | null;
}

/** Sign-ups still being completed after their answer (for a clean shutdown and for tests). */
const signUpsInFlight = new Set<Promise<void>>();
export const signUpsSettled = () => Promise.allSettled([...signUpsInFlight]).then(() => undefined);

/**
 * After sign-up answered: a new address gets its account, a pending person and the verification
 * mail; an address that has an account gets a mail to its owner instead.
 */
async function completeSignUp(ctx: GatewayContext, request: SignUpRequest): Promise<void> {
  const { firstName, lastName, email, invitation } = request;
  let user: UserRecord;
  try {
    user = await ctx.pb.collection("users").create<UserRecord>({
      email,
      password: request.password,
      passwordConfirm: request.password,
      name: `${firstName} ${lastName}`,
      locale: request.locale,
      emailVisibility: false,
    });
  } catch (error) {
    const data =
      error instanceof ClientResponseError ? (error.response?.data as Record<string, { code?: string }>) : {};
    if (data?.email?.code !== "validation_not_unique") throw error;
    await tellOwnerOfSignUpAttempt(ctx, email);
    return;
  }

  // System job: every sign-up gets a pending person for staff to approve (PRODUCT.md §5), with the
  // sign-up email as its primary, private contact row. Users cannot create people or link one to
  // themselves, so this runs as the system account. An invitation puts the person into the
  // inviting household (still pending: staff approve before member areas open).
  const system = await ctx.system.get();
  const person = await system.collection("people").create<PersonRecord>({
    firstName,
    lastName,
    recordStatus: "pending",
    ...(invitation ? { household: invitation.household, householdRole: "spouse" } : {}),
  });
  await system.collection("users").update(user.id, { person: person.id });
  await system
    .collection("person_emails")
    .create({ person: person.id, email, isPrimary: true, visibility: "private" });
  if (invitation)
    await system.collection("household_invitations").update(invitation.id, { status: "accepted" });
  void alertNewSignUp(ctx, person); // staff who approve sign-ups (system/staff-alerts.ts); not awaited
  await ctx.pb.collection("users").requestVerification(email);
}

/** "Someone tried to sign up with your address": at most one such mail per address per hour. */
async function tellOwnerOfSignUpAttempt(ctx: GatewayContext, email: string): Promise<void> {
  const key = `signup-notice:${email}`;
  if ((await ctx.limiter.retryAfter(key, 1, THROTTLE.anonymousFormWindowMs)) > 0) return;
  await ctx.limiter.hit(key, THROTTLE.anonymousFormWindowMs);
  const settings = await ctx.publicSettings.get();
  const { churchName } = settings;
  const site = ctx.config.publicUrl;
  // Written in the account owner's language (read by the system account; nothing of it is answered).
  const system = await ctx.system.get();
  const owner = await system
    .collection("users")
    .getFirstListItem<Pick<UserRecord, "locale">>(system.filter("email = {:email}", { email }), {
      fields: "locale",
    })
    .catch(() => null);
  const locale = recipientLocale(owner, settings);
  const t = translator(locale);
  const message = composeMail({
    to: email,
    subject: t("signupAttempt.subject", { church: churchName }),
    paragraphs: [
      t("signupAttempt.body", { church: churchName }),
      t("signupAttempt.forgot", { url: `${site}/forgot-password` }),
      t("signupAttempt.ignore"),
    ],
    link: { url: `${site}/login`, label: t("signupAttempt.button") },
    churchName,
    locale,
  });
  await sendNotice(ctx.mailer, message, churchName);
}

function checkNewPassword(v: Validator, password: string, passwordConfirm: string, email?: string): void {
  const problem = checkPassword(password, { email });
  if (problem) v.add("password", problem.code, problem.message);
  if (password !== passwordConfirm) v.add("passwordConfirm", "mismatch", "The passwords don't match.");
}

/** Sign in with PocketBase and start the browser session. */
async function startSession(ctx: GatewayContext, email: string, password: string): Promise<UserRecord> {
  const auth = await ctx.pb
    .collection("users")
    .authWithPassword<UserRecord>(email, password, { expand: "roles,person" });
  ctx.session.signIn(auth.token);
  ctx.actAs(auth.token);
  return auth.record;
}

async function loadViewer(ctx: GatewayContext) {
  const user = await requireViewer(ctx);
  return { user };
}

export const authResolvers: Resolvers = {
  Query: {
    async viewer(_, __, ctx) {
      const user = await ctx.viewer();
      return user ? { user } : null;
    },
  },
  Viewer: {
    user: ({ user }) => user,
    person: ({ user }) => user.expand?.person ?? null,
    roles: ({ user }) => user.expand?.roles ?? [],
    permissions: ({ user }) => permissionsOf(user),
    isMember: ({ user }) => user.expand?.person?.recordStatus === "active",
    can: ({ user }) => abilitiesOf(user),
  },
  Mutation: {
    async signUp(_, { input }, ctx) {
      const v = new Validator();
      const firstName = v.text("firstName", input.firstName, { required: true, max: LIMITS.personNameMax });
      const lastName = v.text("lastName", input.lastName, { required: true, max: LIMITS.personNameMax });
      const email = v.email("email", input.email);
      checkNewPassword(v, input.password, input.passwordConfirm, email);
      v.done();
      await throttleAnonymousForm(ctx, "signup");

      const settings = await pbCall(() =>
        ctx.pb.collection("settings").getList<SettingsRecord>(1, 1, { skipTotal: true }),
      );
      if (!settings.items[0]?.allowSignup) {
        throw forbidden("Sign-up is closed. Please contact the church office.");
      }
      // System job: a household invitation's token is checked by its hash (visitors cannot read invitations).
      const system = await ctx.system.get();
      const inviteToken = input.inviteToken?.trim();
      const invitation = inviteToken ? await findPendingInvitation(system, inviteToken) : null;
      if (inviteToken && !invitation) {
        throw badUserInput({
          inviteToken: {
            code: "invalid_token",
            message:
              "This invitation link is invalid or has expired. Ask for a new one, or sign up without it.",
          },
        });
      }
      // The same answer at the same moment whether or not the address has an account: the work that
      // differs (create the account, or tell its owner) starts once the answer has gone out, so
      // neither its time nor its load shows in the answer (QUALITY S6).
      const request: SignUpRequest = {
        firstName,
        lastName,
        email,
        password: input.password,
        locale: input.locale ?? "",
        invitation,
      };
      const job = new Promise<void>((resolve) => {
        ctx.afterResponse(() => {
          completeSignUp(ctx, request)
            .catch((error: unknown) =>
              console.error(
                "[sign-up] could not complete a sign-up:",
                error instanceof Error ? error.message : error,
              ),
            )
            .finally(resolve);
        });
      });
      signUpsInFlight.add(job);
      void job.finally(() => signUpsInFlight.delete(job));
      return true;
    },

    async signIn(_, { input }, ctx) {
      const email = input.email.trim().toLowerCase();
      const cookies = ctx.request.headers.get("cookie");
      // A browser that signed in to this account before has its own allowance (OWASP device
      // cookies): wrong passwords typed elsewhere cannot lock the owner out. Every other client
      // shares the account's allowance and its IP's.
      const device = ctx.trustedDevices.deviceFor(cookies, email);
      const limits: Array<[string, number]> = device
        ? [[`signin:device:${device}`, THROTTLE.signInFailuresPerDevice]]
        : [
            [`signin:account:${email}`, THROTTLE.signInFailuresPerAccount],
            [`signin:ip:${ctx.clientIp}`, THROTTLE.signInFailuresPerIp],
          ];
      const wait = Math.max(
        ...(await Promise.all(
          limits.map(([key, limit]) => ctx.limiter.retryAfter(key, limit, THROTTLE.signInWindowMs)),
        )),
      );
      if (wait > 0) throw rateLimited(wait);
      if (!email || !input.password) throw badUserInput({}, INVALID_CREDENTIALS);
      try {
        const user = await startSession(ctx, email, input.password);
        // A trusted device's success leaves the shared allowance alone: the owner signing in must not
        // hand a guesser elsewhere a fresh set of tries.
        await ctx.limiter.reset(limits[0]![0], THROTTLE.signInWindowMs);
        ctx.session.outgoingCookies.push(ctx.trustedDevices.issue(cookies, email, ctx.config.production));
        return { user };
      } catch (error) {
        if (error instanceof ClientResponseError && error.status === 400) {
          // One answer for an unknown email and a wrong password (PRODUCT.md §8).
          await Promise.all(limits.map(([key]) => ctx.limiter.hit(key, THROTTLE.signInWindowMs)));
          throw badUserInput({}, INVALID_CREDENTIALS);
        }
        if (error instanceof ClientResponseError && error.status === 403) {
          throw forbidden("This account is suspended. Please contact the church office.", "suspended");
        }
        return fromPocketBase(error);
      }
    },

    async signOut(_, __, ctx) {
      const viewer = await ctx.viewer();
      if (viewer) await revokeSessions(ctx, viewer.id);
      ctx.session.signOut();
      return true;
    },

    async requestPasswordReset(_, { email }, ctx) {
      const v = new Validator();
      const address = v.email("email", email);
      v.done();
      await throttleAnonymousForm(ctx, "reset");
      // The same answer whether or not the address has an account.
      await pbCall(() => ctx.pb.collection("users").requestPasswordReset(address)).catch(
        (error: GraphQLError) => {
          if (error.extensions?.code !== ErrorCode.BAD_USER_INPUT) throw error;
        },
      );
      return true;
    },

    async confirmPasswordReset(_, { input }, ctx) {
      const v = new Validator();
      if (!input.token.trim()) v.add("token", "invalid_token", "This link is invalid or has expired.");
      checkNewPassword(v, input.password, input.passwordConfirm);
      v.done();
      await pbCall(() =>
        ctx.pb.collection("users").confirmPasswordReset(input.token, input.password, input.passwordConfirm),
      );
      return true;
    },

    async requestVerification(_, { email }, ctx) {
      const v = new Validator();
      const address = v.email("email", email);
      v.done();
      await throttleAnonymousForm(ctx, "verify");
      await pbCall(() => ctx.pb.collection("users").requestVerification(address)).catch(
        (error: GraphQLError) => {
          if (error.extensions?.code !== ErrorCode.BAD_USER_INPUT) throw error;
        },
      );
      return true;
    },

    async confirmVerification(_, { token }, ctx) {
      if (!token.trim())
        throw badUserInput({
          token: { code: "invalid_token", message: "This link is invalid or has expired." },
        });
      await pbCall(() => ctx.pb.collection("users").confirmVerification(token));
      // A signed-in viewer's remembered record is stale now.
      ctx.viewerCache.forgetToken(ctx.session.token);
      ctx.actAs(ctx.session.token);
      return true;
    },

    async changePassword(_, { input }, ctx) {
      const viewer = await requireViewer(ctx);
      const v = new Validator();
      if (!input.currentPassword) v.add("currentPassword", "required", "This field is required.");
      checkNewPassword(v, input.password, input.passwordConfirm, viewer.email);
      v.done();
      // PocketBase checks the old password and rotates the token key, which ends every session.
      await pbCall(
        () =>
          ctx.pb.collection("users").update(viewer.id, {
            oldPassword: input.currentPassword,
            password: input.password,
            passwordConfirm: input.passwordConfirm,
          }),
        { oldPassword: "currentPassword" },
      );
      // …then this session continues with a fresh token; streams opened with the old ones end.
      ctx.viewerCache.forgetUser(viewer.id);
      await ctx.realtime.endCredential("user", viewer.id);
      return { user: await startSession(ctx, viewer.email, input.password) };
    },

    async setMyLocale(_, { locale }, ctx) {
      const viewer = await requireViewer(ctx);
      await pbCall(() => ctx.pb.collection("users").update(viewer.id, { locale }));
      ctx.viewerCache.forgetUser(viewer.id);
      ctx.actAs(ctx.session.token);
      return loadViewer(ctx);
    },
  },
};
