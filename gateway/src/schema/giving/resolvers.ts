import DataLoader from "dataloader";
import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall } from "../../errors.ts";
import type {
  DonationBatchRecord,
  DonationRecord,
  DonationSplitRecord,
  FundRecord,
  HouseholdRecord,
  PersonRecord,
} from "../../pocketbase/records.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { batchCan, donationCan, fundCan, isBalanced, requireGivingSummary } from "../../access/giving.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { fromPocketBaseDateOrNull, pocketBaseDay } from "../../pocketbase/dates.ts";
import { anyOf } from "../../pocketbase/filters.ts";
import { Validator } from "../../validation/validate.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { splitsBalance } from "@flock/shared/money";
import type { DonationBatchInput, DonationInput, FundInput, Resolvers } from "../__generated__/types.ts";
import { displayName } from "../people/mappers.ts";

/*
 * Giving (issue 29): funds, batches and gifts. Every read and write runs with the caller's token, so
 * PocketBase's rules (pb_migrations/1732640000_giving.js) decide who sees what, and its hook
 * (pb_hooks/lib/giving.js) what a gift and a batch may become. Donor names come from the system for
 * finance (a treasurer need not read people records), and only name and household.
 */

const day = (value: string) => value.slice(0, 10);

interface GivingLoaders {
  fund: DataLoader<string, FundRecord | null>;
  /** The funds gifts name, read as the system (see giftFund below). */
  giftFund: DataLoader<string, FundRecord | null>;
  batch: DataLoader<string, DonationBatchRecord | null>;
  /** Donors' names and households (system reads, for finance and the member's own page). */
  donor: DataLoader<string, { personId: string; name: string; householdName: string } | null>;
  household: DataLoader<string, HouseholdRecord | null>;
}
const loaders = new WeakMap<object, GivingLoaders>();

function loadersOf(ctx: GatewayContext): GivingLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    const mine = <T extends { id: string }>(collection: string) =>
      new DataLoader<string, T | null>(
        async (ids) => {
          const rows = await pbCall(() =>
            ctx.pb.collection(collection).getFullList<T>({ filter: anyOf(ctx.pb, "id", ids) }),
          );
          return ids.map((id) => rows.find((row) => row.id === id) ?? null);
        },
        { maxBatchSize: 50 },
      );
    const households = new DataLoader<string, HouseholdRecord | null>(
      async (ids) => {
        const system = await ctx.system.get();
        const rows = await system
          .collection("households")
          .getFullList<HouseholdRecord>({ filter: anyOf(system, "id", ids), fields: "id,name" });
        return ids.map((id) => rows.find((row) => row.id === id) ?? null);
      },
      { maxBatchSize: 50 },
    );
    l = {
      fund: mine<FundRecord>("funds"),
      // Whoever may read a gift may know the funds it went to: a member's gift to a hidden fund (a
      // memorial, benevolence) shows that fund on /me/giving and counts in its deductible total.
      giftFund: new DataLoader(
        async (ids) => {
          const system = await ctx.system.get();
          const rows = await system
            .collection("funds")
            .getFullList<FundRecord>({ filter: anyOf(system, "id", ids) });
          return ids.map((id) => rows.find((row) => row.id === id) ?? null);
        },
        { maxBatchSize: 50 },
      ),
      batch: mine<DonationBatchRecord>("donation_batches"),
      household: households,
      donor: new DataLoader(
        async (ids) => {
          const system = await ctx.system.get();
          const people = await system.collection("people").getFullList<PersonRecord>({
            filter: anyOf(system, "id", ids),
            fields: "id,firstName,lastName,preferredName,household",
          });
          const homes = await households.loadMany(people.map((p) => p.household).filter(Boolean));
          return ids.map((id) => {
            const person = people.find((p) => p.id === id);
            if (!person) return null;
            const home = homes.find((h) => h && !(h instanceof Error) && h.id === person.household);
            return {
              personId: person.id,
              name: displayName(person),
              householdName: home && !(home instanceof Error) ? home.name : "",
            };
          });
        },
        { maxBatchSize: 50 },
      ),
    };
    loaders.set(ctx, l);
  }
  return l;
}

function fundFields(input: FundInput) {
  const v = new Validator();
  const fields = {
    name: v.text("name", input.name, { required: true, max: GIVING_LIMITS.fundNameMax }),
    description: v.text("description", input.description, { max: GIVING_LIMITS.fundDescriptionMax }),
    deductible: input.deductible,
    visibility: input.visibility,
  };
  v.done();
  return fields;
}

const wholeCents = (v: Validator, field: string, value: number, min: number) => {
  if (!Number.isInteger(value) || value < min || value > GIVING_LIMITS.donationCentsMax)
    v.add(
      field,
      "out_of_range",
      min > 0 ? "Enter an amount above zero." : "Enter an amount of zero or more.",
    );
  return value;
};

function batchFields(input: DonationBatchInput) {
  const v = new Validator();
  const fields = {
    name: v.text("name", input.name, { required: true, max: GIVING_LIMITS.batchNameMax }),
    depositDate: pocketBaseDay(v.day("depositDate", input.depositDate, { required: true })),
    controlTotalCents: wholeCents(v, "controlTotalCents", input.controlTotalCents, 0),
    controlCount: input.controlCount,
  };
  if (
    !Number.isInteger(input.controlCount) ||
    input.controlCount < 0 ||
    input.controlCount > GIVING_LIMITS.batchCountMax
  )
    v.add("controlCount", "out_of_range", `Enter a number from 0 to ${GIVING_LIMITS.batchCountMax}.`);
  v.done();
  return fields;
}

function donationFields(input: DonationInput) {
  const v = new Validator();
  const amountCents = wholeCents(v, "amountCents", input.amountCents, 1);
  const date = v.day("date", input.date, { required: true });
  const splits = input.splits?.length
    ? input.splits.map((split) => ({ fund: split.fundId, amountCents: split.amountCents }))
    : input.fundId
      ? [{ fund: input.fundId, amountCents }]
      : [];
  if (!splits.length) v.add("splits", "required", "Choose a fund.");
  else if (splits.length > GIVING_LIMITS.donationSplitsMax)
    v.add("splits", "too_many", `Give the gift at most ${GIVING_LIMITS.donationSplitsMax} funds.`);
  else if (new Set(splits.map((s) => s.fund)).size !== splits.length)
    v.add("splits", "duplicate_fund", "Name each fund once.");
  else if (!splitsBalance(amountCents, splits))
    v.add("splits", "splits_sum", "The funds' amounts must add up to the gift.");
  const fields = {
    batch: input.batchId ?? "",
    person: input.personId ?? "",
    individual: !!input.individual && !!input.personId,
    date: pocketBaseDay(date),
    amountCents,
    method: input.method,
    chequeNumber: v.text("chequeNumber", input.chequeNumber, { max: GIVING_LIMITS.chequeNumberMax }),
    note: v.text("note", input.note, { max: GIVING_LIMITS.donationNoteMax }),
    splits,
  };
  v.done();
  return fields;
}

export const givingResolvers: Resolvers = {
  Fund: {
    can: async (_, __, ctx) => fundCan(await ctx.viewer()),
  },
  DonationBatch: {
    depositDate: (batch) => day(batch.depositDate),
    status: (batch) => (batch.status === "closed" ? "closed" : "open"),
    balanced: (batch) => isBalanced(batch),
    closedAt: (batch) => fromPocketBaseDateOrNull(batch.closedAt),
    reopenReason: (batch) => batch.reopenReason || null,
    reopenedAt: (batch) => fromPocketBaseDateOrNull(batch.reopenedAt),
    async donations(batch, _, ctx) {
      return pbCall(() =>
        ctx.pb.collection("donations").getFullList<DonationRecord>({
          filter: ctx.pb.filter("batch = {:batch}", { batch: batch.id }),
          sort: "created,id",
        }),
      );
    },
    can: async (batch, _, ctx) => batchCan(await ctx.viewer(), batch),
  },
  Donation: {
    batchId: (gift) => gift.batch || null,
    donor: (gift, _, ctx) => (gift.person ? loadersOf(ctx).donor.load(gift.person) : null),
    async givingUnitName(gift, _, ctx) {
      if (!gift.givingUnit) return null;
      return (await loadersOf(ctx).household.load(gift.givingUnit))?.name ?? null;
    },
    date: (gift) => day(gift.date),
    async splits(gift, _, ctx) {
      const funds = await loadersOf(ctx).giftFund.loadMany(gift.splits.map((s) => s.fund));
      return gift.splits.flatMap((split, i) => {
        const fund = funds[i];
        return fund && !(fund instanceof Error) ? [{ fund, amountCents: split.amountCents }] : [];
      });
    },
    async can(gift, _, ctx) {
      const batch = gift.batch ? await loadersOf(ctx).batch.load(gift.batch) : null;
      return donationCan(await ctx.viewer(), batch);
    },
  },
  Query: {
    async givingAccess(_, __, ctx) {
      const user = await ctx.viewer();
      return {
        viewSummary: can(user, "viewGivingSummary"),
        view: can(user, "viewGiving"),
        manage: can(user, "manageGiving"),
        currency: (await ctx.publicSettings.get()).currency || "USD",
      };
    },
    async funds(_, __, ctx) {
      return pbCall(() => ctx.pb.collection("funds").getFullList<FundRecord>({ sort: "sort,name" }));
    },
    async donationBatches(_, { status }, ctx) {
      await requireAbility(ctx, "viewGiving");
      return pbCall(() =>
        ctx.pb.collection("donation_batches").getFullList<DonationBatchRecord>({
          ...(status && { filter: ctx.pb.filter("status = {:status}", { status }) }),
          sort: "-depositDate,-created",
        }),
      );
    },
    // PocketBase's rules decide: a batch the caller may not read is null.
    donationBatch: (_, { id }, ctx) => loadersOf(ctx).batch.load(id),
    async givingSummary(_, args, ctx) {
      await requireGivingSummary(ctx);
      const v = new Validator();
      const from = v.day("from", args.from, { required: true });
      const to = v.day("to", args.to, { required: true });
      if (from && to && to < from) v.add("to", "before_from", "The last day must not be before the first.");
      else if (from && to && Temporal.PlainDate.from(from).until(to).days > 366 * 5)
        v.add("to", "too_long", "Choose at most five years.");
      v.done();
      const rows = await pbCall(() =>
        ctx.pb.collection("donation_splits").getFullList<DonationSplitRecord>({
          filter: ctx.pb.filter("date >= {:from} && date <= {:to}", {
            from: pocketBaseDay(from),
            to: pocketBaseDay(to),
          }),
          fields: "fund,amountCents,date",
          batch: 1000,
        }),
      );
      const totals = new Map<string, { fund: string; month: string; amountCents: number; gifts: number }>();
      for (const row of rows) {
        const month = row.date.slice(0, 7);
        const key = `${row.fund}/${month}`;
        const total = totals.get(key) ?? { fund: row.fund, month, amountCents: 0, gifts: 0 };
        total.amountCents += row.amountCents;
        total.gifts += 1;
        totals.set(key, total);
      }
      const funds = await loadersOf(ctx).fund.loadMany([...new Set(rows.map((r) => r.fund))]);
      return [...totals.values()]
        .sort((a, b) => a.month.localeCompare(b.month) || a.fund.localeCompare(b.fund))
        .flatMap((total) => {
          const fund = funds.find((f) => f && !(f instanceof Error) && f.id === total.fund);
          return fund && !(fund instanceof Error) ? [{ ...total, fund }] : [];
        });
    },
    async givingDonors(_, { search }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const q = search.trim();
      if (q.length < 2 || q.length > 50)
        throw badUserInput({
          search: { code: "invalid_search", message: "Type 2 to 50 letters of a name." },
        });
      // Finance need not read people records: the system finds names, and gives only name and household.
      const system = await ctx.system.get();
      // "mark sm" finds Mark Smith: every word typed starts one of the names.
      const words = q.split(/\s+/).slice(0, 4);
      const byWords = words
        .map((_, i) => `(firstName ~ {:w${i}} || lastName ~ {:w${i}} || preferredName ~ {:w${i}})`)
        .join(" && ");
      const params = Object.fromEntries(words.map((word, i) => [`w${i}`, `${word}%`]));
      const people = await system.collection("people").getList<PersonRecord>(1, 10, {
        filter: system.filter(`${byWords} && recordStatus != "archived"`, params),
        fields: "id",
        sort: "lastName,firstName",
        skipTotal: true,
      });
      const found = await loadersOf(ctx).donor.loadMany(people.items.map((p) => p.id));
      return found.flatMap((d) => (d && !(d instanceof Error) ? [d] : []));
    },
    async myGiving(_, { year }, ctx) {
      await requireViewer(ctx);
      if (!Number.isInteger(year) || year < 1900 || year > 9999)
        throw badUserInput({ year: { code: "out_of_range", message: "Choose a year." } });
      // The rules give a member their own gifts and, as an active adult, their household's.
      const donations = await pbCall(() =>
        ctx.pb.collection("donations").getFullList<DonationRecord>({
          filter: ctx.pb.filter("date >= {:from} && date < {:to}", {
            from: `${year}-01-01 00:00:00.000Z`,
            to: `${year + 1}-01-01 00:00:00.000Z`,
          }),
          sort: "-date,-created",
        }),
      );
      const funds = await loadersOf(ctx).giftFund.loadMany([
        ...new Set(donations.flatMap((d) => d.splits.map((s) => s.fund))),
      ]);
      const deductible = new Set(
        funds.flatMap((f) => (f && !(f instanceof Error) && f.deductible ? [f.id] : [])),
      );
      const settings = await ctx.publicSettings.get();
      return {
        donations,
        totalCents: donations.reduce((sum, d) => sum + d.amountCents, 0),
        deductibleCents: donations.reduce(
          (sum, d) =>
            sum + d.splits.filter((s) => deductible.has(s.fund)).reduce((a, s) => a + s.amountCents, 0),
          0,
        ),
        currency: settings.currency || "USD",
      };
    },
  },
  Mutation: {
    async createFund(_, { input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      return writeAsCaller(() => ctx.pb.collection("funds").create<FundRecord>(fundFields(input)));
    },
    async updateFund(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      return writeAsCaller(() => ctx.pb.collection("funds").update<FundRecord>(id, fundFields(input)));
    },
    async createDonationBatch(_, { input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      return writeAsCaller(() =>
        ctx.pb.collection("donation_batches").create<DonationBatchRecord>(batchFields(input)),
      );
    },
    async updateDonationBatch(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      return writeAsCaller(() =>
        ctx.pb.collection("donation_batches").update<DonationBatchRecord>(id, batchFields(input)),
      );
    },
    async closeDonationBatch(_, { id }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const batch = await loadersOf(ctx).batch.load(id);
      if (!batch) throw notFound();
      // Pressed twice, or by two treasurers: the batch as it is (the hook closes it once).
      if (batch.status === "closed") return batch;
      try {
        return await writeAsCaller(() =>
          ctx.pb.collection("donation_batches").update<DonationBatchRecord>(id, { status: "closed" }),
        );
      } catch (error) {
        const now = await pbCall(() => ctx.pb.collection("donation_batches").getOne<DonationBatchRecord>(id));
        if (now.status === "closed") return now;
        throw error;
      }
    },
    async reopenDonationBatch(_, { id, reason }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const v = new Validator();
      const why = v.text("reason", reason, {
        required: true,
        min: GIVING_LIMITS.reopenReasonMin,
        max: GIVING_LIMITS.reopenReasonMax,
      });
      v.done();
      return writeAsCaller(
        () =>
          ctx.pb
            .collection("donation_batches")
            .update<DonationBatchRecord>(id, { status: "open", reopenReason: why }),
        { reopenReason: "reason" },
      );
    },
    async deleteDonationBatch(_, { id }, ctx) {
      await requireAbility(ctx, "manageGiving");
      await writeAsCaller(() => ctx.pb.collection("donation_batches").delete(id));
      return true;
    },
    async createDonation(_, { input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const fields = donationFields(input);
      return writeAsCaller(() =>
        ctx.pb.collection("donations").create<DonationRecord>({ ...fields, source: "manual" }),
      );
    },
    async updateDonation(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const fields = donationFields(input);
      return writeAsCaller(() => ctx.pb.collection("donations").update<DonationRecord>(id, fields));
    },
    async deleteDonation(_, { id }, ctx) {
      await requireAbility(ctx, "manageGiving");
      await writeAsCaller(() => ctx.pb.collection("donations").delete(id));
      return true;
    },
  },
};
