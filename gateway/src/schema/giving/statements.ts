import { Temporal } from "temporal-polyfill";
import { sumCents } from "@flock/shared/money";
import { Validator } from "../../validation/validate.ts";

/*
 * Giving statements (issue 29): what one giving unit gave in a period, and the totals a donor files
 * with their taxes. Pure: the gifts and funds come in, the figures go out, so the PDF, the bulk run and
 * the tests all add up the same way.
 *
 * A giving unit is a household (every gift carries the household it was given as, `givingUnit`, fixed
 * when it was recorded) or a person who gave individually. A gift is grouped by the unit it carries, not
 * by the donor's household today: someone who moved keeps their earlier gifts on the old household's
 * statement and gives as the new one from then on. Anonymous gifts belong to no statement.
 */

/** A unit a statement is for: a household, or a person giving individually. */
export type GivingUnit = { kind: "household"; id: string } | { kind: "person"; id: string };

/** A gift as a statement reads it (donations, dates as YYYY-MM-DD). */
export interface StatementGift {
  id: string;
  person: string;
  givingUnit: string;
  date: string;
  amountCents: number;
  method: string;
  chequeNumber: string;
  splits: readonly { fund: string; amountCents: number }[];
}

/** What a statement needs of a fund: its name, and whether gifts to it are tax-deductible. */
export interface StatementFund {
  id: string;
  name: string;
  deductible: boolean;
}

/** A period, first and last day included (YYYY-MM-DD). */
export interface StatementPeriod {
  from: string;
  to: string;
}

/** One fund's part of a statement. */
export interface FundTotal {
  fundId: string;
  name: string;
  deductible: boolean;
  amountCents: number;
}

/** A unit's statement for a period: its gifts (oldest first) and totals. */
export interface StatementTotals {
  gifts: StatementGift[];
  totalCents: number;
  deductibleCents: number;
  nonDeductibleCents: number;
  /** Per fund, in the funds' order of first gift. */
  funds: FundTotal[];
}

/** The longest period one statement covers (a year-end statement is one; a few are allowed for corrections). */
const PERIOD_MAX_DAYS = 366 * 5;

/** The period asked for, checked: two real days, the last not before the first; else field errors. */
export function checkPeriod(input: { from?: string | null; to?: string | null }): StatementPeriod {
  const v = new Validator();
  const from = v.day("from", input.from, { required: true });
  const to = v.day("to", input.to, { required: true });
  if (from && to && to < from) v.add("to", "before_from", "The last day must not be before the first.");
  else if (from && to && Temporal.PlainDate.from(from).until(to).days > PERIOD_MAX_DAYS)
    v.add("to", "too_long", "Choose at most five years.");
  v.done();
  return { from, to };
}

/** A calendar year as a period (1900–9999), else a field error on `year`. */
export function yearPeriod(year: number): StatementPeriod {
  if (!Number.isInteger(year) || year < 1900 || year > 9999) {
    const v = new Validator();
    v.add("year", "out_of_range", "Choose a year.");
    v.done();
  }
  const y = String(year).padStart(4, "0");
  return { from: `${y}-01-01`, to: `${y}-12-31` };
}

/** The unit a gift counts for: the household it was given as, else its donor; null for an anonymous gift. */
export function unitOf(gift: Pick<StatementGift, "givingUnit" | "person">): GivingUnit | null {
  if (gift.givingUnit) return { kind: "household", id: gift.givingUnit };
  if (gift.person) return { kind: "person", id: gift.person };
  return null;
}

/** A unit as one string (a map key, a file name's part): "household:<id>" or "person:<id>". */
export const unitKey = (unit: GivingUnit) => `${unit.kind}:${unit.id}`;

/** Whether a gift counts for a unit. */
export function belongsTo(gift: Pick<StatementGift, "givingUnit" | "person">, unit: GivingUnit): boolean {
  const own = unitOf(gift);
  return !!own && own.kind === unit.kind && own.id === unit.id;
}

/** Gifts grouped by the unit each counts for (anonymous gifts left out), in the order units first appear. */
export function groupByUnit<G extends Pick<StatementGift, "givingUnit" | "person">>(
  gifts: Iterable<G>,
): Map<string, { unit: GivingUnit; gifts: G[] }> {
  const units = new Map<string, { unit: GivingUnit; gifts: G[] }>();
  for (const gift of gifts) {
    const unit = unitOf(gift);
    if (!unit) continue;
    const key = unitKey(unit);
    const group = units.get(key) ?? { unit, gifts: [] };
    group.gifts.push(gift);
    units.set(key, group);
  }
  return units;
}

/**
 * A statement's figures: the gifts inside the period, oldest first, their total, and the total split by
 * each fund's deductibility (a gift split between a deductible and another fund counts in both, by its
 * splits). A fund the statement does not know counts as not deductible: a donor is never told a gift is
 * deductible unless it is.
 */
export function statementTotals(
  gifts: Iterable<StatementGift>,
  funds: ReadonlyMap<string, StatementFund>,
  period: StatementPeriod,
): StatementTotals {
  const within = [...gifts]
    .filter((gift) => gift.date >= period.from && gift.date <= period.to)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  const perFund = new Map<string, FundTotal>();
  for (const gift of within)
    for (const split of gift.splits) {
      const fund = funds.get(split.fund);
      const total = perFund.get(split.fund) ?? {
        fundId: split.fund,
        name: fund?.name ?? "",
        deductible: fund?.deductible ?? false,
        amountCents: 0,
      };
      total.amountCents += split.amountCents;
      perFund.set(split.fund, total);
    }
  const fundTotals = [...perFund.values()];
  const deductibleCents = sumCents(fundTotals.filter((f) => f.deductible).map((f) => f.amountCents));
  const totalCents = sumCents(within.map((gift) => gift.amountCents));
  return {
    gifts: within,
    totalCents,
    deductibleCents,
    nonDeductibleCents: totalCents - deductibleCents,
    funds: fundTotals,
  };
}
