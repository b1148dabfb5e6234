import DataLoader from "dataloader";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall } from "../../errors.ts";
import type {
  DonationRecord,
  DonationSplitRecord,
  FundRecord,
  HouseholdRecord,
  PersonRecord,
  PledgeCampaignRecord,
  PledgeRecord,
} from "../../pocketbase/records.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { campaignCan, pledgeCan } from "../../access/giving.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { pocketBaseDay } from "../../pocketbase/dates.ts";
import { anyOf } from "../../pocketbase/filters.ts";
import { Validator } from "../../validation/validate.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import type { PledgeCampaignInput, PledgeUpdateInput, Resolvers } from "../__generated__/types.ts";
import { displayName } from "../people/mappers.ts";

/*
 * Pledges and campaigns (issue 29; pb_migrations/1732670000_giving_campaigns.js). Campaigns and pledges
 * are read and written with the caller's token, so PocketBase's rules decide who sees and keeps what.
 * Two figures need the system: a campaign's progress (the gifts to its fund in its period, from
 * donation_splits, which visitors and members may not read) and its pledge count; both are sums, never
 * a donor. A pledge's "given so far" is read with the caller's token: only gifts they may see count.
 */

const day = (value: string) => value.slice(0, 10);

interface CampaignLoaders {
  campaign: DataLoader<string, PledgeCampaignRecord | null>;
  fund: DataLoader<string, FundRecord | null>;
  /** Given to a campaign's fund in its period, keyed by campaign id (system sums). */
  progress: DataLoader<string, number>;
  donor: DataLoader<string, { personId: string; name: string; householdName: string } | null>;
}
const loaders = new WeakMap<object, CampaignLoaders>();

function loadersOf(ctx: GatewayContext): CampaignLoaders {
  let l = loaders.get(ctx);
  if (l) return l;
  // A pledge's campaign is read as the system: a member's pledge may be in a campaign that is not
  // public, and they may know the campaign they pledged to (its name, goal and dates only reach them).
  const campaign = new DataLoader<string, PledgeCampaignRecord | null>(
    async (ids) => {
      const system = await ctx.system.get();
      const rows = await system
        .collection("pledge_campaigns")
        .getFullList<PledgeCampaignRecord>({ filter: anyOf(system, "id", ids) });
      return ids.map((id) => rows.find((row) => row.id === id) ?? null);
    },
    { maxBatchSize: 50 },
  );
  l = {
    campaign,
    fund: new DataLoader(
      async (ids) => {
        const rows = await pbCall(() =>
          ctx.pb.collection("funds").getFullList<FundRecord>({ filter: anyOf(ctx.pb, "id", ids) }),
        );
        return ids.map((id) => rows.find((row) => row.id === id) ?? null);
      },
      { maxBatchSize: 50 },
    ),
    progress: new DataLoader(async (ids) => {
      const system = await ctx.system.get();
      const campaigns = await campaign.loadMany(ids);
      return Promise.all(
        campaigns.map(async (c) => {
          if (!c || c instanceof Error) return 0;
          const splits = await system.collection("donation_splits").getFullList<DonationSplitRecord>({
            filter: system.filter("fund = {:fund} && date >= {:from} && date <= {:to}", {
              fund: c.fund,
              from: pocketBaseDay(day(c.startsOn)),
              to: pocketBaseDay(day(c.endsOn)),
            }),
            fields: "amountCents",
            batch: 1000,
          });
          return splits.reduce((sum, split) => sum + split.amountCents, 0);
        }),
      );
    }),
    donor: new DataLoader(
      async (ids) => {
        // Finance need not read people records: name and household only, as the gift screens do.
        const system = await ctx.system.get();
        const people = await system.collection("people").getFullList<PersonRecord>({
          filter: anyOf(system, "id", ids),
          fields: "id,firstName,lastName,preferredName,household",
        });
        const homeIds = [...new Set(people.map((p) => p.household).filter(Boolean))];
        const homes = homeIds.length
          ? await system
              .collection("households")
              .getFullList<HouseholdRecord>({ filter: anyOf(system, "id", homeIds), fields: "id,name" })
          : [];
        return ids.map((id) => {
          const person = people.find((p) => p.id === id);
          if (!person) return null;
          return {
            personId: person.id,
            name: displayName(person),
            householdName: homes.find((h) => h.id === person.household)?.name ?? "",
          };
        });
      },
      { maxBatchSize: 50 },
    ),
  };
  loaders.set(ctx, l);
  return l;
}

/** An amount in whole cents above zero, at most GIVING_LIMITS.donationCentsMax. */
function positiveCents(v: Validator, field: string, value: number) {
  if (!Number.isInteger(value) || value < 1 || value > GIVING_LIMITS.donationCentsMax)
    v.add(field, "out_of_range", "Enter an amount above zero.");
  return value;
}

function campaignFields(input: PledgeCampaignInput) {
  const v = new Validator();
  const startsOn = v.day("startsOn", input.startsOn, { required: true });
  const endsOn = v.day("endsOn", input.endsOn, { required: true });
  if (startsOn && endsOn && endsOn < startsOn)
    v.add("endsOn", "before_start", "The last day must not be before the first.");
  if (!input.fundId) v.add("fundId", "required", "Choose a fund.");
  const fields = {
    name: v.text("name", input.name, { required: true, max: GIVING_LIMITS.campaignNameMax }),
    description: v.text("description", input.description, { max: GIVING_LIMITS.campaignDescriptionMax }),
    fund: input.fundId,
    goalCents: positiveCents(v, "goalCents", input.goalCents),
    startsOn: pocketBaseDay(startsOn),
    endsOn: pocketBaseDay(endsOn),
    showProgress: !!input.showProgress,
    status: input.status ?? "active",
  };
  v.done();
  return fields;
}

function pledgeFields(input: PledgeUpdateInput) {
  const v = new Validator();
  const fields = {
    amountCents: positiveCents(v, "amountCents", input.amountCents),
    note: v.text("note", input.note, { max: GIVING_LIMITS.pledgeNoteMax }),
  };
  v.done();
  return fields;
}

/** PocketBase's field names as the API names them. */
const CAMPAIGN_FIELDS = { fund: "fundId" };
const PLEDGE_FIELDS = { campaign: "campaignId", person: "personId" };

export const givingCampaignResolvers: Resolvers = {
  PledgeCampaign: {
    fund: (campaign, _, ctx) => loadersOf(ctx).fund.load(campaign.fund),
    startsOn: (campaign) => day(campaign.startsOn),
    endsOn: (campaign) => day(campaign.endsOn),
    status: (campaign) => (campaign.status === "closed" ? "closed" : "active"),
    async progressCents(campaign, _, ctx) {
      const shownPublicly = campaign.showProgress && campaign.status === "active";
      if (!shownPublicly && !can(await ctx.viewer(), "viewGivingSummary")) return null;
      return loadersOf(ctx).progress.load(campaign.id);
    },
    async pledgedCents(campaign, _, ctx) {
      if (!can(await ctx.viewer(), "viewGiving")) return null;
      const pledges = await pbCall(() =>
        ctx.pb.collection("pledges").getFullList<PledgeRecord>({
          filter: ctx.pb.filter("campaign = {:campaign}", { campaign: campaign.id }),
          fields: "amountCents",
        }),
      );
      return pledges.reduce((sum, pledge) => sum + pledge.amountCents, 0);
    },
    async pledgeCount(campaign, _, ctx) {
      // A count is no donor: the system counts, so a public campaign can say how many have pledged.
      const system = await ctx.system.get();
      const page = await system.collection("pledges").getList(1, 1, {
        filter: system.filter("campaign = {:campaign}", { campaign: campaign.id }),
        fields: "id",
      });
      return page.totalItems;
    },
    pledges: (campaign, _, ctx) =>
      pbCall(() =>
        ctx.pb.collection("pledges").getFullList<PledgeRecord>({
          filter: ctx.pb.filter("campaign = {:campaign}", { campaign: campaign.id }),
          sort: "-amountCents,created",
        }),
      ),
    can: async (campaign, _, ctx) => campaignCan(await ctx.viewer(), campaign),
  },
  Pledge: {
    async campaign(pledge, _, ctx) {
      const campaign = await loadersOf(ctx).campaign.load(pledge.campaign);
      if (!campaign) throw notFound();
      return campaign;
    },
    donor: (pledge, _, ctx) => loadersOf(ctx).donor.load(pledge.person),
    async givenCents(pledge, _, ctx) {
      const campaign = await loadersOf(ctx).campaign.load(pledge.campaign);
      if (!campaign) return 0;
      // The household's gifts (or the person's own, given individually or without a household), read with
      // the caller's token: a member counts only the gifts they may see.
      const donor = pledge.givingUnit
        ? ctx.pb.filter("(givingUnit = {:unit} || person = {:person})", {
            unit: pledge.givingUnit,
            person: pledge.person,
          })
        : ctx.pb.filter("person = {:person}", { person: pledge.person });
      const gifts = await pbCall(() =>
        ctx.pb.collection("donations").getFullList<DonationRecord>({
          filter: `${donor} && ${ctx.pb.filter("date >= {:from} && date <= {:to}", {
            from: pocketBaseDay(day(campaign.startsOn)),
            to: pocketBaseDay(day(campaign.endsOn)),
          })}`,
          fields: "splits",
          batch: 1000,
        }),
      );
      return gifts
        .flatMap((gift) => gift.splits)
        .filter((split) => split.fund === campaign.fund)
        .reduce((sum, split) => sum + split.amountCents, 0);
    },
    async can(pledge, _, ctx) {
      const campaign = await loadersOf(ctx).campaign.load(pledge.campaign);
      return pledgeCan(await ctx.viewer(), pledge, campaign);
    },
  },
  Query: {
    async pledgeCampaigns(_, { publicOnly }, ctx) {
      return pbCall(() =>
        ctx.pb.collection("pledge_campaigns").getFullList<PledgeCampaignRecord>({
          ...(publicOnly && { filter: 'status = "active" && showProgress = true' }),
          sort: "-startsOn,name",
        }),
      );
    },
    async myPledges(_, __, ctx) {
      const user = await requireViewer(ctx);
      if (!user.person) return [];
      const system = await ctx.system.get();
      const me = await system.collection("people").getOne<PersonRecord>(user.person, { fields: "household" });
      // The rules add that a household's pledges reach its active adults only; this keeps finance's own page
      // to their own household's pledges rather than everyone's.
      const filter = me.household
        ? ctx.pb.filter("person = {:person} || givingUnit = {:unit}", {
            person: user.person,
            unit: me.household,
          })
        : ctx.pb.filter("person = {:person}", { person: user.person });
      return pbCall(() =>
        ctx.pb.collection("pledges").getFullList<PledgeRecord>({ filter, sort: "-created" }),
      );
    },
  },
  Mutation: {
    async createPledgeCampaign(_, { input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const fields = campaignFields(input);
      return writeAsCaller(
        () => ctx.pb.collection("pledge_campaigns").create<PledgeCampaignRecord>(fields),
        CAMPAIGN_FIELDS,
      );
    },
    async updatePledgeCampaign(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const fields = campaignFields(input);
      return writeAsCaller(
        () => ctx.pb.collection("pledge_campaigns").update<PledgeCampaignRecord>(id, fields),
        CAMPAIGN_FIELDS,
      );
    },
    async createPledge(_, { input }, ctx) {
      const user = await requireViewer(ctx);
      const fields = pledgeFields(input);
      const manager = can(user, "manageGiving");
      const person = manager ? input.personId : (input.personId ?? user.person);
      const v = new Validator();
      if (!person) v.add("personId", "required", "Choose who pledges.");
      // A closed campaign takes no pledge (the hook says so too); one the caller may not pledge to is
      // refused by the rules below.
      const campaign = input.campaignId ? await loadersOf(ctx).campaign.load(input.campaignId) : null;
      if (!campaign) v.add("campaignId", "not_found", "Choose a campaign.");
      else if (campaign.status !== "active")
        v.add("campaignId", "campaign_closed", "This campaign is closed: it takes no new pledges.");
      v.done();
      try {
        return await writeAsCaller(
          () =>
            ctx.pb
              .collection("pledges")
              .create<PledgeRecord>({ ...fields, campaign: input.campaignId, person }),
          PLEDGE_FIELDS,
        );
      } catch (error) {
        const taken = await pbCall(() =>
          ctx.pb.collection("pledges").getList(1, 1, {
            filter: ctx.pb.filter("campaign = {:campaign} && person = {:person}", {
              campaign: input.campaignId,
              person: person ?? "",
            }),
            fields: "id",
          }),
        );
        if (taken.totalItems)
          throw badUserInput({
            personId: { code: "already_pledged", message: "They have already pledged to this campaign." },
          });
        throw error;
      }
    },
    async updatePledge(_, { id, input }, ctx) {
      await requireViewer(ctx);
      const fields = pledgeFields(input);
      return writeAsCaller(
        () => ctx.pb.collection("pledges").update<PledgeRecord>(id, fields),
        PLEDGE_FIELDS,
      );
    },
    async deletePledge(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("pledges").delete(id));
      return true;
    },
  },
};
