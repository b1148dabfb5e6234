import { createHash, randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { churchLocale, translator } from "../../mail/i18n.ts";
import { escapeHtml } from "../../mail/mailer.ts";
import type { HouseholdInvitationRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { pocketBaseNow, toPocketBaseDate } from "../../pocketbase/dates.ts";

/**
 * Household invitations: an adult invites someone by email; the mail carries a random token and only
 * its SHA-256 is stored, so a leaked database does not hold usable links. Sign-up with the token puts
 * the new (still pending) person into the household.
 */

export const hashInviteToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A fresh 32-byte token (base64url, for the link) and its hash (for the record). */
export function newInviteToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInviteToken(token) };
}

/** PocketBase's date format, `days` from now. */
export const expiresInDays = (days: number, now = Date.now()) =>
  toPocketBaseDate(now + days * 24 * 60 * 60 * 1000);

export const inviteLink = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, "")}/signup?invite=${encodeURIComponent(token)}`;

/**
 * System job (sign-up): the pending, unexpired invitation a token belongs to, or null. The sign-up
 * visitor cannot read invitations (they are their household's), so the lookup by hash uses the
 * system client; nothing of the invitation is returned to the visitor.
 */
export async function findPendingInvitation(
  system: PocketBase,
  token: string,
): Promise<HouseholdInvitationRecord | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const now = pocketBaseNow();
  const page = await system.collection("household_invitations").getList<HouseholdInvitationRecord>(1, 1, {
    filter: system.filter('tokenHash = {:hash} && status = "pending" && expiresAt > {:now}', {
      hash: hashInviteToken(token),
      now,
    }),
    skipTotal: true,
  });
  return page.items[0] ?? null;
}

/** The invitation mail: who invites, to which household, and the sign-up link. */
export async function sendInvitationMail(
  ctx: GatewayContext,
  invitation: { email: string; name: string },
  details: { token: string; inviterName: string; householdName: string },
): Promise<void> {
  const settings = await ctx.publicSettings.get();
  const { churchName } = settings;
  // The invitee has no account yet: the church's language.
  const locale = churchLocale(settings);
  const t = translator(locale);
  const link = inviteLink(ctx.config.publicUrl, details.token);
  const names = { inviter: details.inviterName, household: details.householdName, church: churchName };
  const subject = t("invitation.subject", names);
  const text = [
    t("mail.hello", { name: invitation.name }),
    t("invitation.body", names),
    t("invitation.link", { days: LIMITS.invitationDays }),
    `${t("invitation.confirm")}\n${t("invitation.ignore")}`,
  ].join("\n\n");
  const html =
    `<p>${escapeHtml(t("mail.hello", { name: invitation.name }))}</p>` +
    `<p>${escapeHtml(t("invitation.body", names))}</p>` +
    `<p>${escapeHtml(t("invitation.button.hint", { days: LIMITS.invitationDays }))}</p>` +
    `<p>${escapeHtml(`${t("invitation.confirm")} ${t("invitation.ignore")}`)}</p>`;
  await ctx.mailer.send(
    {
      to: invitation.email,
      subject,
      text,
      html,
      button: { url: link, label: t("invitation.button") },
      locale,
    },
    churchName,
  );
}
