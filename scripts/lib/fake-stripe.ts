import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/*
 * Stripe at the boundary, for tests without network (issue 29). The gateway's real `stripe` client is
 * pointed at this local server (its `host`, `port` and `protocol` options: STRIPE_API_BASE), which records
 * each API request and answers as Stripe's API would for the few calls online giving makes: creating a
 * Checkout Session, pausing or resuming a subscription, cancelling one. Its /pay/<session> page stands for
 * Stripe's hosted checkout. What Stripe then tells the church is signed by the library itself
 * (`webhooks.generateTestHeaderString`), as Stripe signs its webhooks: `signedEvent`.
 */

export const FAKE_STRIPE_KEY = "sk_test_flock_fake";
export const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_flock_fake_secret";

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body, flattened as Stripe encodes it ("line_items[0][price_data][unit_amount]" → "1030"). */
  form: Record<string, string>;
}

/** A Checkout Session as the fake keeps it (what Stripe's events carry back). */
export interface FakeSession {
  id: string;
  object: "checkout.session";
  mode: "payment" | "subscription";
  url: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string;
  recurring_interval: string | null;
}

/** The metadata of a flattened form: "metadata[flock_fund]" → { flock_fund }. */
function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = /^metadata\[([^\]]+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, FakeSession>();
  /** Answer the next API calls with Stripe's error (the provider refusing). */
  failing = false;
  private server: Server | null = null;
  port = 0;

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", this.base);
        const form = Object.fromEntries(new URLSearchParams(body));
        const json = (status: number, value: unknown) =>
          res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
        if (url.pathname.startsWith("/pay/")) {
          // Stripe's hosted checkout page, replaced: the test goes on from here with a signed event.
          const session = this.sessions.get(url.pathname.slice("/pay/".length));
          res.writeHead(session ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
          res.end(
            `<!doctype html><html lang="en"><head><title>Fake checkout</title></head><body><main><h1>Fake checkout</h1><p id="amount">${session?.amount_total ?? ""}</p></main></body></html>`,
          );
          return;
        }
        this.requests.push({ method: req.method ?? "GET", path: url.pathname, form });
        if (this.failing)
          return json(400, { error: { type: "invalid_request_error", message: "The fake refuses." } });
        if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
          const id = `cs_test_${randomUUID().replace(/-/g, "")}`;
          const session: FakeSession = {
            id,
            object: "checkout.session",
            mode: form.mode === "subscription" ? "subscription" : "payment",
            url: `${this.base}/pay/${id}`,
            amount_total: Number(form["line_items[0][price_data][unit_amount]"]),
            currency: form["line_items[0][price_data][currency]"] ?? "usd",
            metadata: metadataOf(form),
            customer_email: form.customer_email ?? null,
            client_reference_id: form.client_reference_id ?? null,
            success_url: form.success_url ?? "",
            cancel_url: form.cancel_url ?? "",
            recurring_interval: form["line_items[0][price_data][recurring][interval]"] ?? null,
          };
          this.sessions.set(id, session);
          return json(200, session);
        }
        const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
        if (req.method === "GET" && session) {
          const found = this.sessions.get(session[1]!);
          return found ? json(200, found) : json(404, { error: { type: "invalid_request_error" } });
        }
        const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
        if (subscription && req.method === "POST") {
          const behavior = form["pause_collection[behavior]"];
          return json(200, {
            id: subscription[1],
            object: "subscription",
            status: "active",
            pause_collection: behavior ? { behavior } : null,
          });
        }
        if (subscription && req.method === "DELETE")
          return json(200, { id: subscription[1], object: "subscription", status: "canceled" });
        json(404, { error: { type: "invalid_request_error", message: `No fake for ${url.pathname}` } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server!.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /** The gateway's settings for this fake (GatewayConfig.payments). */
  settings(fee = { percent: 2.9, fixedCents: 30 }) {
    return {
      secretKey: FAKE_STRIPE_KEY,
      webhookSecret: FAKE_STRIPE_WEBHOOK_SECRET,
      fee,
      api: { host: "127.0.0.1", port: this.port, protocol: "http" as const },
    };
  }

  /** The same, as the environment gives them to a gateway process (config.ts#paymentsFromEnv). */
  env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: this.base,
    };
  }
}

const signer = new Stripe(FAKE_STRIPE_KEY);

/** A Stripe event around `object`, as Stripe sends it, and its Stripe-Signature header (the library's). */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; secret?: string; created?: number } = {},
): { id: string; payload: string; signature: string } {
  const id = options.id ?? `evt_test_${randomUUID().replace(/-/g, "")}`;
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? FAKE_STRIPE_WEBHOOK_SECRET,
  });
  return { id, payload, signature };
}

/** checkout.session.completed's object for a session the fake created: paid (a subscription's with its id). */
export function completedSession(session: FakeSession, subscriptionId?: string): Record<string, unknown> {
  return {
    id: session.id,
    object: "checkout.session",
    mode: session.mode,
    amount_total: session.amount_total,
    currency: session.currency,
    metadata: session.metadata,
    customer_email: session.customer_email,
    customer_details: { email: session.customer_email },
    client_reference_id: session.client_reference_id,
    payment_status: "paid",
    status: "complete",
    payment_intent: session.mode === "payment" ? `pi_test_${session.id.slice(8, 30)}` : null,
    subscription:
      session.mode === "subscription" ? (subscriptionId ?? `sub_test_${session.id.slice(8, 30)}`) : null,
  };
}

/** An invoice of a subscription (invoice.paid / invoice.payment_failed), with its metadata as Stripe copies it. */
export function subscriptionInvoice(
  subscriptionId: string,
  metadata: Record<string, string>,
  amountCents: number,
  options: { id?: string; paid?: boolean; currency?: string } = {},
): Record<string, unknown> {
  const paid = options.paid ?? true;
  return {
    id: options.id ?? `in_test_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
    object: "invoice",
    currency: options.currency ?? "usd",
    amount_due: amountCents,
    amount_paid: paid ? amountCents : 0,
    status: paid ? "paid" : "open",
    status_transitions: { paid_at: paid ? Math.floor(Date.now() / 1000) : null },
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: subscriptionId, metadata },
    },
  };
}
