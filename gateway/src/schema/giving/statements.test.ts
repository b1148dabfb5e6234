import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import {
  checkPeriod,
  groupByUnit,
  statementTotals,
  unitOf,
  yearPeriod,
  type StatementFund,
  type StatementGift,
} from "./statements.ts";

const funds = new Map<string, StatementFund>([
  ["general", { id: "general", name: "General", deductible: true }],
  ["building", { id: "building", name: "Building", deductible: true }],
  ["coffee", { id: "coffee", name: "Coffee bar", deductible: false }],
]);

let next = 0;
function gift(fields: Partial<StatementGift> & Pick<StatementGift, "date" | "amountCents">): StatementGift {
  return {
    id: `g${String(++next).padStart(3, "0")}`,
    person: "ann",
    givingUnit: "smiths",
    method: "cash",
    chequeNumber: "",
    splits: [{ fund: "general", amountCents: fields.amountCents }],
    ...fields,
  };
}

const year2026 = { from: "2026-01-01", to: "2026-12-31" };

/** The field errors of a refused call (badUserInput), or null when it was not refused. */
function fieldErrors(run: () => unknown): Record<string, string> | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return error.extensions.fieldErrorCodes as Record<string, string>;
  }
}

describe("statement totals", () => {
  it("totals a unit's gifts in the period, deductible and not, per fund, exactly in cents", () => {
    const totals = statementTotals(
      [
        gift({ date: "2026-03-01", amountCents: 10_010 }),
        gift({
          date: "2026-01-15",
          amountCents: 5_005,
          splits: [
            { fund: "building", amountCents: 3_003 },
            { fund: "coffee", amountCents: 2_002 },
          ],
        }),
        gift({ date: "2026-12-31", amountCents: 1 }),
        gift({ date: "2025-12-31", amountCents: 99_999 }), // before the period
        gift({ date: "2027-01-01", amountCents: 88_888 }), // after it
      ],
      funds,
      year2026,
    );
    expect(totals.gifts.map((g) => g.date)).toEqual(["2026-01-15", "2026-03-01", "2026-12-31"]);
    expect(totals.totalCents).toBe(15_016);
    expect(totals.deductibleCents).toBe(13_014);
    expect(totals.nonDeductibleCents).toBe(2_002);
    expect(totals.funds).toEqual([
      { fundId: "building", name: "Building", deductible: true, amountCents: 3_003 },
      { fundId: "coffee", name: "Coffee bar", deductible: false, amountCents: 2_002 },
      { fundId: "general", name: "General", deductible: true, amountCents: 10_011 },
    ]);
  });

  it("counts a fund it does not know as not deductible", () => {
    const totals = statementTotals(
      [gift({ date: "2026-05-05", amountCents: 700, splits: [{ fund: "gone", amountCents: 700 }] })],
      funds,
      year2026,
    );
    expect(totals).toMatchObject({ totalCents: 700, deductibleCents: 0, nonDeductibleCents: 700 });
  });

  it("is all zeros without gifts", () => {
    expect(statementTotals([], funds, year2026)).toEqual({
      gifts: [],
      totalCents: 0,
      deductibleCents: 0,
      nonDeductibleCents: 0,
      funds: [],
    });
  });
});

describe("giving units", () => {
  it("a person who moved household keeps their earlier gifts on the old household's statement", () => {
    const gifts = [
      gift({ date: "2026-02-01", amountCents: 1_000, person: "ann", givingUnit: "smiths" }),
      gift({ date: "2026-03-01", amountCents: 2_000, person: "bob", givingUnit: "smiths" }),
      // Ann moved to the Joneses' in June: her gifts from then on are theirs.
      gift({ date: "2026-07-01", amountCents: 4_000, person: "ann", givingUnit: "joneses" }),
      // She also gives individually, apart from any household.
      gift({ date: "2026-08-01", amountCents: 8_000, person: "ann", givingUnit: "" }),
      // Loose cash: no donor, no statement.
      gift({ date: "2026-09-01", amountCents: 16_000, person: "", givingUnit: "" }),
    ];
    const units = groupByUnit(gifts);
    expect([...units.keys()]).toEqual(["household:smiths", "household:joneses", "person:ann"]);
    const totalOf = (key: string) => statementTotals(units.get(key)!.gifts, funds, year2026).totalCents;
    expect(totalOf("household:smiths")).toBe(3_000);
    expect(totalOf("household:joneses")).toBe(4_000);
    expect(totalOf("person:ann")).toBe(8_000);
  });

  it("a gift's unit is the household it was given as, else its donor, else none", () => {
    expect(unitOf({ givingUnit: "smiths", person: "ann" })).toEqual({ kind: "household", id: "smiths" });
    expect(unitOf({ givingUnit: "", person: "ann" })).toEqual({ kind: "person", id: "ann" });
    expect(unitOf({ givingUnit: "", person: "" })).toBeNull();
  });
});

describe("statement periods", () => {
  it("takes a period of real days, the last not before the first", () => {
    expect(checkPeriod({ from: "2026-01-01", to: "2026-12-31" })).toEqual(year2026);
    expect(checkPeriod({ from: "2026-06-01", to: "2026-06-01" })).toEqual({
      from: "2026-06-01",
      to: "2026-06-01",
    });
  });

  it("refuses a period that ends before it starts, with a field error on `to`", () => {
    expect(fieldErrors(() => checkPeriod({ from: "2026-12-31", to: "2026-01-01" }))).toEqual({
      to: "before_from",
    });
  });

  it("refuses missing or impossible days and periods over five years", () => {
    expect(fieldErrors(() => checkPeriod({ from: "", to: "2026-02-30" }))).toEqual({
      from: "required",
      to: "invalid_date",
    });
    expect(fieldErrors(() => checkPeriod({ from: "2000-01-01", to: "2026-01-01" }))).toEqual({
      to: "too_long",
    });
  });

  it("makes a calendar year a period, and refuses a year that is none", () => {
    expect(yearPeriod(2026)).toEqual(year2026);
    expect(fieldErrors(() => yearPeriod(26.5))).toEqual({ year: "out_of_range" });
    expect(fieldErrors(() => yearPeriod(10_000))).toEqual({ year: "out_of_range" });
  });
});
