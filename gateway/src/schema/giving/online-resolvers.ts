import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, notFound, pbCall, serviceUnavailable } from "../../errors.ts";
import type { FundRecord, RecurringGiftRecord } from "../../pocketbase/records.ts";
import type { PaymentProvider } from "../../payments/provider.ts";
import { requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull } from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { THROTTLE } from "@flock/shared/limits";
import { coverFee } from "@flock/shared/money";
import type { Resolvers, StartGiftInput } from "../__generated__/types.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

/*
 * Online giving (issue 29): /give asks the gateway for a checkout at the payment provider
 * (payments/provider.ts) and sends the donor there; what is paid comes back by the provider's webhook
 * (online-routes.ts, online-records.ts). A member sees their recurring gifts through PocketBase's rules
 * (their own; finance all) and pauses, resumes or cancels them here: the provider is asked first (or the
 * card goes on being charged), then the system writes the new status, since nobody writes recurring_gifts
 * through the API (pb_migrations/1732660000_online_giving.js).
 */

/** No provider is set up: /give says so, and so does the API. */
const onlineGivingOff = () =>
  serviceUnavailable("Online giving is not set up for this church.", "online_giving_off");

function requireProvider(ctx: GatewayContext): PaymentProvider {
  if (!ctx.payments) throw onlineGivingOff();
  return ctx.payments;
}

/** What the caller may do with a recurring gift: its member acts on it while it is not cancelled. */
export function recurringGiftCan(personId: string | null | undefined, gift: RecurringGiftRecord) {
  const own = !!personId && gift.person === personId;
  return {
    pause: own && gift.status === "active",
    resume: own && gift.status === "paused",
    cancel: own && gift.status !== "cancelled",
  };
}

/** The gift's fields, checked: a whole amount within the provider's bounds, an email if given. */
function giftFields(input: StartGiftInput) {
  const v = new Validator();
  const amountCents = input.amountCents;
  if (!Number.isInteger(amountCents) || amountCents < 1 || amountCents > GIVING_LIMITS.onlineGiftCentsMax)
    v.add("amountCents", "out_of_range", "Enter an amount above zero and within the most one gift may be.");
  const email = v.email("email", input.email, { required: false });
  v.done();
  return { amountCents, email, interval: input.interval, coverFee: !!input.coverFee };
}

/** An anonymous form: the same allowance per client IP as the other public forms. */
function throttle(ctx: GatewayContext): Promise<void> {
  const key = `form:give:${ctx.clientIp}`;
  return takeOrRefuse(ctx.limiter, key, THROTTLE.anonymousFormsPerIp, THROTTLE.anonymousFormWindowMs);
}

/** The caller's own recurring gift (PocketBase's rules hide anyone else's: NOT_FOUND). */
async function ownRecurringGift(ctx: GatewayContext, id: string): Promise<RecurringGiftRecord> {
  const viewer = await requireViewer(ctx);
  const gift = await pbCall(() => ctx.pb.collection("recurring_gifts").getOne<RecurringGiftRecord>(id));
  // Finance reads everyone's, but only the member changes their own giving.
  if (!viewer.person || gift.person !== viewer.person) throw notFound();
  return gift;
}

type Change = "pause" | "resume" | "cancel";
const STATUS_AFTER = { pause: "paused", resume: "active", cancel: "cancelled" } as const;

/** Ask the provider, then write the new status as the system (nobody writes recurring_gifts through the API). */
async function changeRecurringGift(ctx: GatewayContext, id: string, change: Change) {
  const provider = requireProvider(ctx);
  const gift = await ownRecurringGift(ctx, id);
  // Pressed twice: the gift as it is already.
  if (gift.status === STATUS_AFTER[change]) return gift;
  const viewer = await ctx.viewer();
  if (!recurringGiftCan(viewer?.person, gift)[change])
    throw badUserInput(
      { status: { code: "recurring_cancelled", message: "This recurring gift has ended." } },
      "This recurring gift has ended.",
    );
  try {
    if (change === "pause") await provider.pauseRecurring(gift.providerRef);
    else if (change === "resume") await provider.resumeRecurring(gift.providerRef);
    else await provider.cancelRecurring(gift.providerRef);
  } catch (error) {
    console.error(`[giving] ${change} of recurring gift ${gift.id} at the provider`, error);
    throw serviceUnavailable(
      "The payment provider could not be reached: nothing was changed. Please try again.",
      "provider_unavailable",
    );
  }
  const system = await ctx.system.get();
  return system
    .collection("recurring_gifts")
    .update<RecurringGiftRecord>(gift.id, { status: STATUS_AFTER[change] });
}

export const givingOnlineResolvers: Resolvers = {
  RecurringGift: {
    async fund(gift, _, ctx) {
      try {
        return await ctx.pb.collection("funds").getOne<FundRecord>(gift.fund);
      } catch (error) {
        if (error instanceof ClientResponseError && error.status === 404) return null;
        throw error;
      }
    },
    coveredFeeCents: (gift) => gift.coveredFeeCents ?? 0,
    lastFailedAt: (gift) => fromPocketBaseDateOrNull(gift.lastFailedAt),
    created: (gift) => fromPocketBaseDate(gift.created),
    can: async (gift, _, ctx) => recurringGiftCan((await ctx.viewer())?.person, gift),
  },
  Query: {
    async onlineGiving(_, __, ctx) {
      const settings = await ctx.publicSettings.get();
      const fee = ctx.payments?.fee ?? { percent: 0, fixedCents: 0 };
      return {
        enabled: !!ctx.payments,
        currency: settings.currency || "USD",
        feePercent: fee.percent,
        feeFixedCents: fee.fixedCents,
        maxCents: GIVING_LIMITS.onlineGiftCentsMax,
        // The public funds only, also for finance (who read every fund): filtered here, not in PocketBase,
        // whose filtered reads that come back empty are throttled per IP (docs/STACK.md).
        funds: (
          await pbCall(() => ctx.pb.collection("funds").getFullList<FundRecord>({ sort: "sort,name" }))
        ).filter((fund) => fund.visibility === "public"),
      };
    },
    async myRecurringGifts(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) return [];
      // The rule scopes a member's list to their own, with no filter (PocketBase throttles filtered reads
      // that come back empty, per IP: docs/STACK.md); finance reads everyone's, so theirs is filtered.
      const person = viewer.person;
      return pbCall(() =>
        ctx.pb.collection("recurring_gifts").getFullList<RecurringGiftRecord>({
          ...(can(viewer, "viewGiving") && { filter: ctx.pb.filter("person = {:person}", { person }) }),
          sort: "-created",
        }),
      );
    },
  },
  Mutation: {
    async startGift(_, { input }, ctx) {
      const provider = requireProvider(ctx);
      await throttle(ctx);
      const gift = giftFields(input);
      const viewer = await ctx.viewer();
      if (gift.interval !== "once" && !viewer?.person)
        throw badUserInput({
          interval: {
            code: "sign_in_required",
            message: "Sign in to give every month or week, so you can pause or cancel it yourself.",
          },
        });
      // The fund as a visitor reads it: only a public fund is offered (hidden and closed ones are not).
      const fund = await ctx.pb
        .collection("funds")
        .getOne<FundRecord>(input.fundId)
        .catch(() => null);
      if (!fund || fund.visibility !== "public")
        throw badUserInput({
          fundId: { code: "fund_unavailable", message: "Choose one of the funds offered." },
        });
      const charge = gift.coverFee ? coverFee(gift.amountCents, provider.fee) : gift.amountCents;
      if (charge > GIVING_LIMITS.onlineGiftCentsMax)
        throw badUserInput({
          amountCents: {
            code: "out_of_range",
            message: "With the fee added, this is more than one gift may be.",
          },
        });
      const settings = await ctx.publicSettings.get();
      const origin = new URL(ctx.config.publicUrl).origin;
      try {
        const checkout = await provider.createCheckout({
          fundId: fund.id,
          fundName: fund.name,
          amountCents: gift.amountCents,
          coveredFeeCents: charge - gift.amountCents,
          currency: settings.currency || "USD",
          interval: gift.interval,
          personId: viewer?.person || null,
          email: gift.email || viewer?.email || null,
          churchName: settings.churchName,
          successUrl: `${origin}/give/thanks`,
          cancelUrl: `${origin}/give`,
        });
        return { url: checkout.url, chargeCents: charge, coveredFeeCents: charge - gift.amountCents };
      } catch (error) {
        console.error("[giving] checkout at the provider", error);
        throw serviceUnavailable(
          "The payment provider could not be reached. Please try again in a moment.",
          "provider_unavailable",
        );
      }
    },
    pauseRecurringGift: (_, { id }, ctx) => changeRecurringGift(ctx, id, "pause"),
    resumeRecurringGift: (_, { id }, ctx) => changeRecurringGift(ctx, id, "resume"),
    cancelRecurringGift: (_, { id }, ctx) => changeRecurringGift(ctx, id, "cancel"),
  },
};
