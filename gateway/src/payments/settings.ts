import type { ProviderFee } from "./provider.ts";

/*
 * Stripe's settings, as config.ts reads them from the environment: apart from stripe.ts so that reading the
 * configuration never loads the `stripe` package (a refused start says why at once).
 */

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  fee: ProviderFee;
  /** Another API host (tests: a local fake of the API that records requests); Stripe's own by default. */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

/** Stripe's standard card fee in the US (2.9 % + 30¢): the default of STRIPE_FEE_PERCENT and STRIPE_FEE_FIXED_CENTS. */
export const STRIPE_DEFAULT_FEE: ProviderFee = { percent: 2.9, fixedCents: 30 };
