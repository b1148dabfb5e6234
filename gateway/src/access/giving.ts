import type {
  DonationBatchRecord,
  PledgeCampaignRecord,
  PledgeRecord,
  UserRecord,
} from "../pocketbase/records.ts";
import type { GatewayContext } from "../context.ts";
import { can } from "./abilities.ts";
import { requireAbility } from "./guards.ts";

/*
 * Giving's policy (pb_migrations/1732640000_giving.js). Feature-wide: viewGivingSummary (totals per fund
 * and day, never a donor), viewGiving (every gift and batch), manageGiving (keeps them) in abilities.ts —
 * finance only, never implied by another role. A member reads their own gifts and, as an active adult,
 * their household's. PocketBase's rules and hook decide; this only says what the screens may offer.
 */

/** What the caller may do with a fund (`Fund.can`). */
export const fundCan = (user: UserRecord | null) => ({ edit: can(user, "manageGiving") });

/** What the caller may do with a batch (`DonationBatch.can`). */
export function batchCan(user: UserRecord | null, batch: DonationBatchRecord) {
  const manager = can(user, "manageGiving");
  const open = batch.status !== "closed";
  return {
    edit: manager && open,
    close: manager && open && isBalanced(batch),
    reopen: manager && !open,
    delete: manager && open && batch.count === 0,
  };
}

/** What the caller may do with a gift (`Donation.can`): change it while its batch (if any) is open. */
export const donationCan = (user: UserRecord | null, batch: DonationBatchRecord | null) => ({
  edit: can(user, "manageGiving") && (!batch || batch.status !== "closed"),
});

/**
 * Giving's totals without donors: finance with viewGivingSummary, or an API token with the scope
 * giving.summary (PocketBase's rules on donation_splits and funds say the same).
 */
export async function requireGivingSummary(ctx: GatewayContext): Promise<void> {
  if (ctx.apiClient?.client.scopes.includes("giving.summary")) return;
  await requireAbility(ctx, "viewGivingSummary");
}

/** A batch's gifts match its counted figures. */
export const isBalanced = (
  batch: Pick<DonationBatchRecord, "totalCents" | "count" | "controlTotalCents" | "controlCount">,
) => batch.totalCents === batch.controlTotalCents && batch.count === batch.controlCount;

/** What the caller may do with a campaign (`PledgeCampaign.can`): pledge while it is active, for themself at least. */
export function campaignCan(user: UserRecord | null, campaign: PledgeCampaignRecord) {
  const manager = can(user, "manageGiving");
  const active = campaign.status === "active";
  return { edit: manager, pledge: active && (manager || !!user?.person) };
}

/** What the caller may do with a pledge (`Pledge.can`): finance always; its own member while the campaign is active. */
export function pledgeCan(
  user: UserRecord | null,
  pledge: PledgeRecord,
  campaign: PledgeCampaignRecord | null,
) {
  const own = !!user?.person && pledge.person === user.person && campaign?.status === "active";
  const allowed = can(user, "manageGiving") || own;
  return { edit: allowed, delete: allowed };
}
