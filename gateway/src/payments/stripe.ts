import Stripe from "stripe";
import {
  GIFT_METADATA,
  WebhookSignatureError,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderFee,
  type RecurringFacts,
} from "./provider.ts";
import type { StripeSettings } from "./settings.ts";

/*
 * Stripe (the official `stripe` package): Checkout Sessions for one-time gifts (`mode: "payment"`) and
 * recurring ones (`mode: "subscription"`, with an inline price), webhooks verified with the library's own
 * signature check (`webhooks.constructEvent`), subscriptions paused with `pause_collection` (the card is
 * kept, no invoice is charged) and cancelled at once. What each gift is for travels in the metadata of the
 * session and of the subscription, so every later event (an invoice paid or failed) carries it back.
 */

const STRIPE_INTERVAL = { monthly: "month", weekly: "week" } as const;

const idOf = (value: string | { id: string } | null | undefined): string =>
  typeof value === "string" ? value : (value?.id ?? "");

/** Whole, non-negative cents from a metadata value ("" and anything else: 0). */
const centsOf = (value: string | undefined): number => {
  const n = Number(value ?? "");
  return Number.isInteger(n) && n >= 0 ? n : 0;
};

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe";
  readonly fee: ProviderFee;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(settings: StripeSettings) {
    this.fee = settings.fee;
    this.webhookSecret = settings.webhookSecret;
    this.stripe = new Stripe(settings.secretKey, {
      // A slow provider fails the donor's click within 20 s instead of Stripe's 80.
      timeout: 20_000,
      maxNetworkRetries: 2,
      telemetry: false,
      ...(settings.api ?? {}),
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const recurring = request.interval !== "once";
    const metadata = {
      [GIFT_METADATA.fund]: request.fundId,
      [GIFT_METADATA.person]: request.personId ?? "",
      [GIFT_METADATA.interval]: request.interval,
      [GIFT_METADATA.coveredFee]: String(request.coveredFeeCents),
    };
    const session = await this.stripe.checkout.sessions.create({
      mode: recurring ? "subscription" : "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: request.currency.toLowerCase(),
            unit_amount: request.amountCents + request.coveredFeeCents,
            product_data: { name: `${request.fundName} · ${request.churchName}` },
            ...(recurring && request.interval !== "once"
              ? { recurring: { interval: STRIPE_INTERVAL[request.interval] } }
              : {}),
          },
        },
      ],
      metadata,
      // Each invoice of the subscription carries the subscription's metadata: what the gift is for.
      ...(recurring ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      ...(request.email ? { customer_email: request.email } : {}),
      ...(request.personId ? { client_reference_id: request.personId } : {}),
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error("Stripe created a checkout session without a URL.");
    return { url: session.url, id: session.id };
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderEvent {
    const signature = headers["stripe-signature"];
    if (typeof signature !== "string" || !signature)
      throw new WebhookSignatureError("No Stripe-Signature header.");
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : "Invalid signature.");
    }
    return readEvent(event);
  }

  async pauseRecurring(ref: string): Promise<void> {
    // "void": the invoices of the pause are not charged, and the subscription stays for resuming.
    await this.stripe.subscriptions.update(ref, { pause_collection: { behavior: "void" } });
  }

  async resumeRecurring(ref: string): Promise<void> {
    await this.stripe.subscriptions.update(ref, { pause_collection: "" });
  }

  async cancelRecurring(ref: string): Promise<void> {
    await this.stripe.subscriptions.cancel(ref);
  }
}

/** The recurring gift a subscription's metadata describes; null without ours (not a gift of this church). */
function recurringFacts(
  ref: string,
  metadata: Stripe.Metadata | null | undefined,
  amountCents: number,
  currency: string,
): RecurringFacts | null {
  const interval = metadata?.[GIFT_METADATA.interval];
  const fundId = metadata?.[GIFT_METADATA.fund];
  const personId = metadata?.[GIFT_METADATA.person];
  if (!ref || !fundId || !personId || (interval !== "monthly" && interval !== "weekly")) return null;
  return {
    ref,
    personId,
    fundId,
    amountCents,
    coveredFeeCents: centsOf(metadata?.[GIFT_METADATA.coveredFee]),
    currency: currency.toUpperCase(),
    interval,
  };
}

/** A verified Stripe event in the church's terms (see ProviderEvent). */
export function readEvent(event: Stripe.Event): ProviderEvent {
  const base = { eventId: event.id, type: event.type };
  const ignored = { ...base, kind: "ignored" } as const;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      const metadata = session.metadata ?? {};
      const fundId = metadata[GIFT_METADATA.fund];
      if (!fundId) return ignored;
      if (session.mode === "subscription") {
        // The subscription's payments arrive as invoice.paid (the first one too): only the gift is kept here.
        const recurring = recurringFacts(
          idOf(session.subscription),
          metadata,
          session.amount_total ?? 0,
          session.currency ?? "",
        );
        return recurring ? { ...base, kind: "recurring_started", recurring } : ignored;
      }
      // A bank debit completes the session unpaid; its async_payment_succeeded comes when it is paid.
      if (session.payment_status !== "paid" || !session.amount_total) return ignored;
      return {
        ...base,
        kind: "gift_paid",
        paymentRef: idOf(session.payment_intent) || session.id,
        amountCents: session.amount_total,
        coveredFeeCents: centsOf(metadata[GIFT_METADATA.coveredFee]),
        currency: (session.currency ?? "").toUpperCase(),
        fundId,
        personId: metadata[GIFT_METADATA.person] || null,
        paidAt: new Date(event.created * 1000),
        recurring: null,
      };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      const recurring = recurringFacts(
        idOf(details?.subscription),
        details?.metadata,
        event.type === "invoice.paid" ? invoice.amount_paid : invoice.amount_due,
        invoice.currency,
      );
      if (!recurring) return ignored;
      if (event.type === "invoice.payment_failed")
        return {
          ...base,
          kind: "recurring_failed",
          failedAt: new Date(event.created * 1000),
          recurring,
        };
      if (!invoice.amount_paid) return ignored;
      return {
        ...base,
        kind: "gift_paid",
        paymentRef: invoice.id ?? "",
        amountCents: invoice.amount_paid,
        coveredFeeCents: recurring.coveredFeeCents,
        currency: recurring.currency,
        fundId: recurring.fundId,
        personId: recurring.personId,
        paidAt: new Date((invoice.status_transitions?.paid_at ?? event.created) * 1000),
        recurring,
      };
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      if (!subscription.metadata?.[GIFT_METADATA.fund]) return ignored;
      const status =
        event.type === "customer.subscription.deleted" || subscription.status === "canceled"
          ? "cancelled"
          : subscription.pause_collection
            ? "paused"
            : "active";
      return { ...base, kind: "recurring_changed", ref: subscription.id, status };
    }
    default:
      return ignored;
  }
}
