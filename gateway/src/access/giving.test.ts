import { describe, expect, it } from "vitest";
import type { DonationBatchRecord, PermissionName, UserRecord } from "../pocketbase/records.ts";
import { batchCan, donationCan, fundCan, isBalanced } from "./giving.ts";

const userWith = (...permissions: PermissionName[]) =>
  ({ id: "user00000000001", expand: { roles: [{ permissions }] } }) as unknown as UserRecord;

const batch = (over: Partial<DonationBatchRecord> = {}) =>
  ({
    status: "open",
    controlTotalCents: 15_000,
    controlCount: 2,
    totalCents: 15_000,
    count: 2,
    ...over,
  }) as DonationBatchRecord;

describe("giving policy", () => {
  it("a batch balances only when both its total and its number of gifts match what was counted", () => {
    expect(isBalanced(batch())).toBe(true);
    expect(isBalanced(batch({ totalCents: 14_999 }))).toBe(false);
    // The right total from the wrong number of envelopes is not balanced (a gift keyed twice, one missed).
    expect(isBalanced(batch({ count: 3 }))).toBe(false);
    expect(isBalanced(batch({ controlTotalCents: 0, controlCount: 0, totalCents: 0, count: 0 }))).toBe(true);
  });

  it("a batch closes when open and balanced, reopens when closed, is removed only empty; finance that keeps gifts only", () => {
    const keeper = userWith("giving.manage");
    expect(batchCan(keeper, batch())).toEqual({ edit: true, close: true, reopen: false, delete: false });
    expect(batchCan(keeper, batch({ count: 1 })).close).toBe(false);
    expect(batchCan(keeper, batch({ status: "closed" }))).toEqual({
      edit: false,
      close: false,
      reopen: true,
      delete: false,
    });
    expect(batchCan(keeper, batch({ totalCents: 0, count: 0 })).delete).toBe(true);
    for (const reader of [userWith("giving.view"), userWith("people.manage", "settings.manage"), null])
      expect(batchCan(reader, batch())).toEqual({ edit: false, close: false, reopen: false, delete: false });
  });

  it("a gift changes while its batch is open (or it has none); funds change for finance that keeps them", () => {
    const keeper = userWith("giving.manage");
    expect(donationCan(keeper, batch()).edit).toBe(true);
    expect(donationCan(keeper, null).edit).toBe(true);
    expect(donationCan(keeper, batch({ status: "closed" })).edit).toBe(false);
    expect(donationCan(userWith("giving.view"), batch()).edit).toBe(false);
    expect(fundCan(keeper).edit).toBe(true);
    expect(fundCan(userWith("giving.view_summary")).edit).toBe(false);
  });
});
