import { Temporal } from "temporal-polyfill";
import { toCsv } from "@flock/shared/csv";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, pbCall } from "../../errors.ts";
import { requireAbility } from "../../access/guards.ts";
import { requireGivingSummary } from "../../access/giving.ts";
import { orChains } from "../../pocketbase/filters.ts";
import { pocketBaseDay, todayIn } from "../../pocketbase/dates.ts";
import type {
  DonationBatchRecord,
  DonationRecord,
  DonationSplitRecord,
  FundRecord,
  HouseholdRecord,
  PersonRecord,
} from "../../pocketbase/records.ts";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { displayName } from "../people/mappers.ts";

/*
 * Giving's reports (issue 29): a batch's deposit slip, first-time and lapsed donors by giving unit, and
 * the CSV exports. Every gift is read with the caller's token, so PocketBase's rules decide what a report
 * can hold: finance that sees only totals (viewGivingSummary) reads donation_splits, which carry no donor,
 * and is refused the donor reports before any read. Names come from the system, and only names (a
 * treasurer need not read people records), as the giving resolvers give them.
 */

type Method = DonationRecord["method"];
/** The order a deposit slip lists methods in. */
const METHODS: readonly Method[] = ["cash", "cheque", "card", "bank_transfer", "online"];

const day = (value: string) => value.slice(0, 10);

/** Whole cents as the currency's decimal amount ("1234.50"), exactly (no floating point). */
export const decimalAmount = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** The period of a report: two days, in order, at most GIVING_LIMITS.reportDaysMax apart (field errors otherwise). */
export function reportPeriod(args: { from: string; to: string }): { from: string; to: string } {
  const v = new Validator();
  const from = v.day("from", args.from, { required: true });
  const to = v.day("to", args.to, { required: true });
  if (from && to && to < from) v.add("to", "before_from", "The last day must not be before the first.");
  else if (from && to && Temporal.PlainDate.from(from).until(to).days > GIVING_LIMITS.reportDaysMax)
    v.add("to", "too_long", "Choose at most five years.");
  v.done();
  return { from, to };
}

/**
 * The giving unit a gift counts for: its household, or its donor when they give individually or have
 * no household; null for an anonymous gift (no unit to report).
 */
export function unitKeyOf(gift: Pick<DonationRecord, "givingUnit" | "person">): string | null {
  if (gift.givingUnit) return `household:${gift.givingUnit}`;
  if (gift.person) return `person:${gift.person}`;
  return null;
}

type GiftFacts = Pick<DonationRecord, "person" | "givingUnit" | "date" | "amountCents">;

/** One unit's gifts in a report, added up. */
export interface UnitTally {
  key: string;
  donors: Set<string>;
  firstGiftDate: string;
  lastGiftDate: string;
  gifts: number;
  amountCents: number;
}

/** Gifts added up per giving unit (anonymous gifts belong to none). */
export function tallyByUnit(gifts: readonly GiftFacts[]): Map<string, UnitTally> {
  const units = new Map<string, UnitTally>();
  for (const gift of gifts) {
    const key = unitKeyOf(gift);
    if (!key) continue;
    const date = day(gift.date);
    const unit = units.get(key) ?? {
      key,
      donors: new Set<string>(),
      firstGiftDate: date,
      lastGiftDate: date,
      gifts: 0,
      amountCents: 0,
    };
    if (gift.person) unit.donors.add(gift.person);
    if (date < unit.firstGiftDate) unit.firstGiftDate = date;
    if (date > unit.lastGiftDate) unit.lastGiftDate = date;
    unit.gifts += 1;
    unit.amountCents += gift.amountCents;
    units.set(key, unit);
  }
  return units;
}

/**
 * The windows of the lapsed-donor report: a unit lapsed when it gave after `since` and on or before
 * `quietSince`, and not after `quietSince` up to `asOf` ("gave in the last 12 months but not the last 3").
 */
export function lapsedWindows(asOf: string, months: number, quietMonths: number) {
  const end = Temporal.PlainDate.from(asOf);
  return {
    since: end.subtract({ months }).toString(),
    quietSince: end.subtract({ months: quietMonths }).toString(),
    asOf,
  };
}

/** Units that gave between `since` (exclusive) and `quietSince` (inclusive) and not after, the longest quiet first. */
export function lapsedUnits(tallies: Iterable<UnitTally>, quietSince: string): UnitTally[] {
  return [...tallies]
    .filter((unit) => unit.lastGiftDate <= quietSince)
    .sort((a, b) => a.lastGiftDate.localeCompare(b.lastGiftDate) || a.key.localeCompare(b.key));
}

/** Every gift between two days (inclusive) the caller may read, with `fields`. */
async function giftsBetween(
  ctx: GatewayContext,
  range: { after?: string; from?: string; to: string },
  fields: string,
): Promise<DonationRecord[]> {
  const filter = range.after
    ? ctx.pb.filter("date > {:after} && date <= {:to}", {
        after: pocketBaseDay(range.after),
        to: pocketBaseDay(range.to),
      })
    : ctx.pb.filter("date >= {:from} && date <= {:to}", {
        from: pocketBaseDay(range.from ?? ""),
        to: pocketBaseDay(range.to),
      });
  return pbCall(() =>
    ctx.pb
      .collection("donations")
      .getFullList<DonationRecord>({ filter, fields, sort: "date,id", batch: 1000 }),
  );
}

/** Records of `collection` by id, read by `client` in OR-chains PocketBase accepts. */
async function byIds<T extends { id: string }>(
  client: GatewayContext["pb"],
  collection: string,
  ids: Iterable<string>,
  fields: string,
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const clauses = [...new Set(ids)].filter(Boolean).map((id) => client.filter("id = {:id}", { id }));
  for (const filter of orChains(clauses)) {
    const rows = await pbCall(() => client.collection(collection).getFullList<T>({ filter, fields }));
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** Donors' and households' names (system reads of names only: finance need not read people records). */
async function namesOf(ctx: GatewayContext, personIds: Iterable<string>, householdIds: Iterable<string>) {
  const system = await ctx.system.get();
  const people = await byIds<PersonRecord>(
    system,
    "people",
    personIds,
    "id,firstName,lastName,preferredName,household",
  );
  const households = await byIds<HouseholdRecord>(
    system,
    "households",
    [...householdIds, ...[...people.values()].map((p) => p.household)],
    "id,name",
  );
  const household = (id: string) => households.get(id)?.name ?? "";
  return {
    person: (id: string) => {
      const p = people.get(id);
      return p ? displayName(p) : "";
    },
    /** As the Donor type: name and household. */
    donor: (id: string) => {
      const p = people.get(id);
      return p ? { personId: id, name: displayName(p), householdName: household(p.household) } : null;
    },
    household,
  };
}

/** Tallies as GivingUnitActivity rows, named (a household by its name, an individual by theirs). */
async function unitActivities(ctx: GatewayContext, tallies: readonly UnitTally[]) {
  const donorIds = tallies.flatMap((t) => [...t.donors]);
  const personUnits = tallies.filter((t) => t.key.startsWith("person:")).map((t) => t.key.slice(7));
  const householdUnits = tallies.filter((t) => t.key.startsWith("household:")).map((t) => t.key.slice(10));
  const names = await namesOf(ctx, [...donorIds, ...personUnits], householdUnits);
  return tallies.map((t) => {
    const [kind, id] = t.key.split(":") as ["household" | "person", string];
    return {
      key: t.key,
      householdId: kind === "household" ? id : null,
      personId: kind === "person" ? id : null,
      name: kind === "household" ? names.household(id) : names.person(id),
      donors: [...t.donors].flatMap((personId) => {
        const donor = names.donor(personId);
        return donor ? [donor] : [];
      }),
      firstGiftDate: t.firstGiftDate,
      lastGiftDate: t.lastGiftDate,
      gifts: t.gifts,
      amountCents: t.amountCents,
    };
  });
}

const allFunds = (ctx: GatewayContext) =>
  pbCall(() => ctx.pb.collection("funds").getFullList<FundRecord>({ sort: "sort,name" }));

/** The number of gifts a filter matches, refusing an export larger than GIVING_LIMITS.exportRowsMax. */
async function requireExportable(ctx: GatewayContext, collection: string, filter: string) {
  const page = await pbCall(() => ctx.pb.collection(collection).getList(1, 1, { filter, fields: "id" }));
  if (page.totalItems > GIVING_LIMITS.exportRowsMax)
    throw badUserInput({
      to: {
        code: "too_many_rows",
        message: `More than ${GIVING_LIMITS.exportRowsMax.toLocaleString("en")} rows: choose a shorter period.`,
      },
    });
}

const periodFilter = (ctx: GatewayContext, period: { from: string; to: string }) =>
  ctx.pb.filter("date >= {:from} && date <= {:to}", {
    from: pocketBaseDay(period.from),
    to: pocketBaseDay(period.to),
  });

export const givingReportResolvers: Resolvers = {
  Query: {
    async givingBatchReport(_, { batchId }, ctx) {
      await requireAbility(ctx, "viewGiving");
      // PocketBase's rule decides: a batch the caller may not read is null.
      const found = await pbCall(() =>
        ctx.pb.collection("donation_batches").getList<DonationBatchRecord>(1, 1, {
          filter: ctx.pb.filter("id = {:id}", { id: batchId }),
          skipTotal: true,
        }),
      );
      const batch = found.items[0];
      if (!batch) return null;
      const [gifts, funds] = await Promise.all([
        pbCall(() =>
          ctx.pb.collection("donations").getFullList<DonationRecord>({
            filter: ctx.pb.filter("batch = {:batch}", { batch: batch.id }),
            fields: "id,method,amountCents,splits",
            batch: 1000,
          }),
        ),
        allFunds(ctx),
      ]);
      const byFund = new Map<string, { amountCents: number; gifts: number }>();
      const byMethod = new Map<Method, { amountCents: number; gifts: number }>();
      const cells = new Map<string, { fund: string; method: Method; amountCents: number; gifts: number }>();
      for (const gift of gifts) {
        const method = byMethod.get(gift.method) ?? { amountCents: 0, gifts: 0 };
        method.amountCents += gift.amountCents;
        method.gifts += 1;
        byMethod.set(gift.method, method);
        for (const split of gift.splits) {
          const fund = byFund.get(split.fund) ?? { amountCents: 0, gifts: 0 };
          fund.amountCents += split.amountCents;
          fund.gifts += 1;
          byFund.set(split.fund, fund);
          const key = `${split.fund}/${gift.method}`;
          const cell = cells.get(key) ?? { fund: split.fund, method: gift.method, amountCents: 0, gifts: 0 };
          cell.amountCents += split.amountCents;
          cell.gifts += 1;
          cells.set(key, cell);
        }
      }
      const fundOrder = funds.filter((fund) => byFund.has(fund.id));
      return {
        batch,
        byFund: fundOrder.map((fund) => ({ fund, ...byFund.get(fund.id)! })),
        byMethod: METHODS.filter((m) => byMethod.has(m)).map((method) => ({
          method,
          ...byMethod.get(method)!,
        })),
        byFundAndMethod: fundOrder.flatMap((fund) =>
          METHODS.flatMap((method) => {
            const cell = cells.get(`${fund.id}/${method}`);
            return cell ? [{ fund, method, amountCents: cell.amountCents, gifts: cell.gifts }] : [];
          }),
        ),
        cheques: byMethod.get("cheque")?.gifts ?? 0,
      };
    },

    async givingFirstTimeDonors(_, args, ctx) {
      await requireAbility(ctx, "viewGiving");
      const period = reportPeriod(args);
      const units = tallyByUnit(await giftsBetween(ctx, period, "person,givingUnit,date,amountCents"));
      // A unit is new when it has no gift before the period: its earlier gifts are looked for, a few
      // units per request (households by their unit, individuals by their donor without a unit).
      const before = pocketBaseDay(period.from);
      const households = [...units.keys()].filter((k) => k.startsWith("household:")).map((k) => k.slice(10));
      const people = [...units.keys()].filter((k) => k.startsWith("person:")).map((k) => k.slice(7));
      const earlier = [
        ...orChains(households.map((id) => ctx.pb.filter("givingUnit = {:id}", { id }))),
        ...orChains(people.map((id) => ctx.pb.filter("person = {:id}", { id }))).map(
          (chain) => `givingUnit = "" && (${chain})`,
        ),
      ];
      for (const chain of earlier) {
        const gifts = await pbCall(() =>
          ctx.pb.collection("donations").getFullList<DonationRecord>({
            filter: `${ctx.pb.filter("date < {:before}", { before })} && (${chain})`,
            fields: "person,givingUnit",
            batch: 1000,
          }),
        );
        for (const gift of gifts) units.delete(unitKeyOf(gift) ?? "");
      }
      const firstTimers = [...units.values()].sort(
        (a, b) => a.firstGiftDate.localeCompare(b.firstGiftDate) || a.key.localeCompare(b.key),
      );
      return unitActivities(ctx, firstTimers);
    },

    async givingLapsedDonors(_, args, ctx) {
      await requireAbility(ctx, "viewGiving");
      const v = new Validator();
      const { months, quietMonths } = args;
      if (!Number.isInteger(months) || months < 2 || months > GIVING_LIMITS.lapsedMonthsMax)
        v.add("months", "out_of_range", `Choose 2 to ${GIVING_LIMITS.lapsedMonthsMax} months.`);
      else if (!Number.isInteger(quietMonths) || quietMonths < 1 || quietMonths >= months)
        v.add("quietMonths", "out_of_range", `Choose 1 to ${months - 1} months.`);
      const asOf = args.asOf
        ? v.day("asOf", args.asOf)
        : todayIn((await ctx.publicSettings.get()).timezone || "UTC");
      v.done();
      const windows = lapsedWindows(asOf, months, quietMonths);
      const gifts = await giftsBetween(
        ctx,
        { after: windows.since, to: windows.asOf },
        "person,givingUnit,date,amountCents",
      );
      return unitActivities(ctx, lapsedUnits(tallyByUnit(gifts).values(), windows.quietSince));
    },

    async givingDonationsCsv(_, args, ctx) {
      await requireAbility(ctx, "viewGiving");
      const period = reportPeriod(args);
      await requireExportable(ctx, "donations", periodFilter(ctx, period));
      const [gifts, funds, settings] = await Promise.all([
        giftsBetween(
          ctx,
          period,
          "id,batch,person,givingUnit,date,amountCents,currency,method,chequeNumber,note,splits",
        ),
        allFunds(ctx),
        ctx.publicSettings.get(),
      ]);
      const batches = await byIds<DonationBatchRecord>(
        ctx.pb,
        "donation_batches",
        gifts.map((g) => g.batch),
        "id,name",
      );
      const names = await namesOf(
        ctx,
        gifts.map((g) => g.person),
        gifts.map((g) => g.givingUnit),
      );
      const fundName = new Map(funds.map((fund) => [fund.id, fund.name]));
      return toCsv(
        [
          "date",
          "donor",
          "giving unit",
          "amount",
          "currency",
          "funds",
          "method",
          "cheque number",
          "batch",
          "note",
        ],
        gifts.map((gift) => [
          day(gift.date),
          // "anonymous" is also what the import reads as an anonymous gift.
          gift.person ? names.person(gift.person) : "anonymous",
          gift.givingUnit ? names.household(gift.givingUnit) : "",
          decimalAmount(gift.amountCents),
          gift.currency || settings.currency || "USD",
          gift.splits
            .map((s) => `${fundName.get(s.fund) ?? s.fund}: ${decimalAmount(s.amountCents)}`)
            .join("; "),
          gift.method,
          gift.chequeNumber,
          batches.get(gift.batch)?.name ?? "",
          gift.note,
        ]),
      );
    },

    async givingSummaryCsv(_, args, ctx) {
      await requireGivingSummary(ctx);
      const period = reportPeriod(args);
      // donation_splits carry no donor: what the summary role may read.
      const [rows, funds, settings] = await Promise.all([
        pbCall(() =>
          ctx.pb.collection("donation_splits").getFullList<DonationSplitRecord>({
            filter: periodFilter(ctx, period),
            fields: "fund,amountCents,date",
            batch: 1000,
          }),
        ),
        allFunds(ctx),
        ctx.publicSettings.get(),
      ]);
      const totals = new Map<string, { fund: string; month: string; amountCents: number; gifts: number }>();
      for (const row of rows) {
        const month = row.date.slice(0, 7);
        const key = `${month}/${row.fund}`;
        const total = totals.get(key) ?? { fund: row.fund, month, amountCents: 0, gifts: 0 };
        total.amountCents += row.amountCents;
        total.gifts += 1;
        totals.set(key, total);
      }
      const fundOrder = new Map(funds.map((fund, i) => [fund.id, i]));
      const fundById = new Map(funds.map((fund) => [fund.id, fund]));
      const currency = settings.currency || "USD";
      return toCsv(
        ["month", "fund", "deductible", "amount", "gifts", "currency"],
        [...totals.values()]
          .sort(
            (a, b) =>
              a.month.localeCompare(b.month) || (fundOrder.get(a.fund) ?? 0) - (fundOrder.get(b.fund) ?? 0),
          )
          .map((total) => {
            const fund = fundById.get(total.fund);
            return [
              total.month,
              fund?.name ?? "",
              fund?.deductible ? "yes" : "no",
              decimalAmount(total.amountCents),
              total.gifts,
              currency,
            ];
          }),
      );
    },
  },
};
