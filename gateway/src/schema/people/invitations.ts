import { createHash, randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
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
export const expiresInDays = (days: number, now = Date.now()) => toPocketBaseDate(now + days * 24 * 60 * 60 * 1000);

export const inviteLink = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, "")}/signup?invite=${encodeURIComponent(token)}`;

/**
 * System job (sign-up): the pending, unexpired invitation a token belongs to, or null. The sign-up
 * visitor cannot read invitations (they are their household's), so the lookup by hash uses the
 * system client; nothing of the invitation is returned to the visitor.
 */
export async function findPendingInvitation(system: PocketBase, token: string): Promise<HouseholdInvitationRecord | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const now = pocketBaseNow();
  const page = await system.collection("household_invitations").getList<HouseholdInvitationRecord>(1, 1, {
    filter: system.filter('tokenHash = {:hash} && status = "pending" && expiresAt > {:now}', { hash: hashInviteToken(token), now }),
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
  const { churchName } = await ctx.publicSettings.get();
  const link = inviteLink(ctx.config.publicUrl, details.token);
  const subject = `${details.inviterName} invited you to join ${details.householdName} at ${churchName}`;
  const text = [
    `Hello ${invitation.name},`,
    `${details.inviterName} invited you to join the household "${details.householdName}" in ${churchName}'s app.`,
    `Create your account with the link below (it works for ${LIMITS.invitationDays} days).`,
    "The church office confirms new accounts before the member areas open.\nIf you don't know this person, you can ignore this message.",
  ].join("\n\n");
  const html =
    `<p>Hello ${escapeHtml(invitation.name)},</p>` +
    `<p>${escapeHtml(details.inviterName)} invited you to join the household “${escapeHtml(details.householdName)}” in ${escapeHtml(churchName)}'s app.</p>` +
    `<p>Create your account with the button below (it works for ${LIMITS.invitationDays} days).</p>` +
    "<p>The church office confirms new accounts before the member areas open. If you don't know this person, you can ignore this message.</p>";
  await ctx.mailer.send({ to: invitation.email, subject, text, html, button: { url: link, label: "Create your account" } }, churchName);
}
