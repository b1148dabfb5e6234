import { describe, expect, it } from "vitest";
import { coverFee, formatCents, parseAmount, splitsBalance, sumCents } from "./money.ts";

describe("money in cents", () => {
  it("reads what people type as whole cents, and refuses what is not a positive amount", () => {
    expect(parseAmount("12")).toBe(1200);
    expect(parseAmount("12.5")).toBe(1250);
    expect(parseAmount(" 1,234.56 ")).toBe(123456);
    expect(parseAmount("0.01")).toBe(1);
    for (const bad of ["", "0", "0.00", "-5", "12.345", "1e3", "abc", "12.", ".5", "123456789012"])
      expect(parseAmount(bad), bad).toBeNull();
  });

  it("adds exactly where floating point would not", () => {
    expect(sumCents([10, 20])).toBe(30);
    // 0.1 + 0.2 in units is 0.30000000000000004; in cents it is 30.
    expect(sumCents(Array.from({ length: 1000 }, () => 1))).toBe(1000);
  });

  it("splits balance only when each is positive and they sum to the gift", () => {
    expect(splitsBalance(10000, [{ amountCents: 7500 }, { amountCents: 2500 }])).toBe(true);
    expect(splitsBalance(10000, [{ amountCents: 7500 }, { amountCents: 2499 }])).toBe(false);
    expect(splitsBalance(10000, [{ amountCents: 10001 }, { amountCents: -1 }])).toBe(false);
    expect(splitsBalance(10000, [{ amountCents: 9999.5 }, { amountCents: 0.5 }])).toBe(false);
    expect(splitsBalance(10000, [])).toBe(false);
  });

  it("covers a fee so the church receives the whole gift, and not a cent more than needed", () => {
    const fee = { percent: 2.9, fixedCents: 30 };
    for (const amount of [100, 1000, 2500, 5000, 12345, 100000]) {
      const charge = coverFee(amount, fee);
      const leaves = (gross: number) => gross - Math.round(gross * 0.029) - 30;
      expect(leaves(charge), `${amount}`).toBeGreaterThanOrEqual(amount);
      expect(leaves(charge - 1), `${amount} minus a cent`).toBeLessThan(amount);
    }
    expect(coverFee(5000, fee)).toBe(5180);
    expect(coverFee(1000, { percent: 0, fixedCents: 0 })).toBe(1000);
  });

  it("formats for people in their language", () => {
    expect(formatCents(123456, "USD", "en-US")).toBe("$1,234.56");
    // Spanish groups thousands from five digits on.
    expect(formatCents(1234567, "EUR", "es-ES")).toMatch(/^12\.345,67\s€$/);
  });
});
