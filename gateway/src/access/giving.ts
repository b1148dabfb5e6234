import type { DonationBatchRecord, UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

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

/** A batch's gifts match its counted figures. */
export const isBalanced = (
  batch: Pick<DonationBatchRecord, "totalCents" | "count" | "controlTotalCents" | "controlCount">,
) => batch.totalCents === batch.controlTotalCents && batch.count === batch.controlCount;
