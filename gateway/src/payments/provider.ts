/*
 * The payment provider, an outside boundary (issue 29): the gateway sends a donor to the provider's hosted
 * checkout, hears back through the provider's signed webhooks, and asks it to pause, resume or cancel a
 * recurring gift. Giving (schema/giving/online*.ts) speaks only this interface; stripe.ts is the one
 * implementation. Amounts are integer cents of `currency` (ISO 4217, upper case) throughout.
 */

/** How often a gift is given: once, or repeated by the provider. */
export type GiftInterval = "once" | "monthly" | "weekly";
export type RecurringInterval = Exclude<GiftInterval, "once">;

/** The provider's fee on one payment: `percent` % of it plus `fixedCents` (what a donor may choose to cover). */
export interface ProviderFee {
  percent: number;
  fixedCents: number;
}

/** A hosted checkout to create: everything the provider shows the donor and hands back in its events. */
export interface CheckoutRequest {
  fundId: string;
  /** Shown to the donor on the provider's page ("General fund"). */
  fundName: string;
  /** The gift itself. */
  amountCents: number;
  /** What the donor adds so the church receives the whole gift (0 when they do not cover the fee). */
  coveredFeeCents: number;
  currency: string;
  interval: GiftInterval;
  /** The signed-in donor's person id: the gift is recorded as theirs. Null for a visitor. */
  personId: string | null;
  /** Prefilled on the provider's page and used for its receipt; null lets the donor type it there. */
  email: string | null;
  /** The church's name, for the provider's line item. */
  churchName: string;
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  /** The provider's page to send the donor to. */
  url: string;
  /** The provider's id of the checkout. */
  id: string;
}

/** A recurring gift as the provider's event describes it. */
export interface RecurringFacts {
  /** The provider's id of the subscription. */
  ref: string;
  personId: string;
  fundId: string;
  /** Charged each time (the gift and any covered fee). */
  amountCents: number;
  coveredFeeCents: number;
  currency: string;
  interval: RecurringInterval;
}

/** Every provider event: its id (the provider's, unique) and its type as the provider names it. */
interface EventBase {
  eventId: string;
  /** "checkout.session.completed", "invoice.paid"…: kept with the event's claim, for whoever reads the log. */
  type: string;
}

/** What a verified provider event means for the church's records. */
export type ProviderEvent = EventBase &
  (
    | {
        kind: "gift_paid";
        /** The provider's id of the payment: one gift per payment, however often it is told. */
        paymentRef: string;
        /** What was paid (the gift and any covered fee). */
        amountCents: number;
        coveredFeeCents: number;
        currency: string;
        fundId: string;
        /** The signed-in donor who started the checkout; null for a visitor (an anonymous gift). */
        personId: string | null;
        /** When it was paid. */
        paidAt: Date;
        /** The recurring gift this payment belongs to, if it is one. */
        recurring: RecurringFacts | null;
      }
    | { kind: "recurring_started"; recurring: RecurringFacts }
    | { kind: "recurring_failed"; failedAt: Date; recurring: RecurringFacts }
    | { kind: "recurring_changed"; ref: string; status: "active" | "paused" | "cancelled" }
    /** An event the church keeps nothing of (the provider sends many kinds), or one without our metadata. */
    | { kind: "ignored" }
  );

/** The webhook's signature did not verify (or the body is not an event): refuse it, write nothing. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

export interface PaymentProvider {
  /** The provider's name, as the webhook path names it (/giving/webhooks/<name>). */
  readonly name: string;
  /** The fee a donor may choose to cover. */
  readonly fee: ProviderFee;
  /** A hosted checkout for a one-time or recurring gift. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** Verify a webhook's signature over its raw body and read it; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderEvent;
  /** Stop charging a recurring gift until resumed. */
  pauseRecurring(ref: string): Promise<void>;
  /** Charge a paused recurring gift again from its next date. */
  resumeRecurring(ref: string): Promise<void>;
  /** End a recurring gift for good. */
  cancelRecurring(ref: string): Promise<void>;
}

/** Metadata keys the checkout carries and the provider hands back on every event of the gift. */
export const GIFT_METADATA = {
  fund: "flock_fund",
  person: "flock_person",
  interval: "flock_interval",
  coveredFee: "flock_covered_fee_cents",
} as const;
