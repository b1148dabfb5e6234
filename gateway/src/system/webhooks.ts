import { createHmac, randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { GatewayServices } from "../context.ts";
import type { UserRecord, WebhookDeliveryRecord, WebhookRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";
import { claimRows, released } from "../pocketbase/queue-claims.ts";
import { startPeriodicJob } from "./periodic-job.ts";
import { notify } from "./notifier.ts";
import { holdersOf } from "../access/abilities.ts";

/*
 * Webhook delivery (issue 16; QUALITY.md I2). pb_hooks/webhooks.pb.js queues one `webhook_deliveries`
 * row per event and webhook inside the save that caused the event; this job sends the due rows, signed
 * per the Standard Webhooks spec, and records each attempt. At-least-once: a row is marked sent only
 * after the receiver answered 2xx, so a crash mid-send sends it again (receivers dedupe by webhook-id).
 */

/** The waits before the 2nd, 3rd… attempt: 8 attempts over about a day, then the delivery fails. */
export const RETRY_DELAYS_MS = [
  10_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
];
/** Deliveries in a row that fail for good before the webhook is disabled (and its managers told). */
export const DISABLE_AFTER_FAILED_DELIVERIES = 3;
const TIMEOUT_MS = 10_000;
/** Deliveries in flight at once in one process (to different webhooks: one at a time per webhook). */
export const MAX_CONCURRENT_DELIVERIES = 6;
/** Longer than any one attempt: a delivery held longer than this belongs to a gateway that died. */
const LEASE_SECONDS = 60;

/** A new signing secret, in the Standard Webhooks format: "whsec_" + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** The `webhook-signature` header: HMAC-SHA256 over "<id>.<timestamp>.<body>" with the secret's bytes. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/*
 * The SSRF guard decides by parsed address ranges (ipaddr.js), never by how an address is written: a
 * receiver must be a global unicast address. IPv6 forms that carry an IPv4 address the network reaches
 * (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by
 * the IPv4 address inside; IPv4-compatible (::/96, deprecated), NAT64 local-use (64:ff9b:1::/48, an
 * operator's own network) and Teredo addresses are refused outright.
 */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** The IPv4 address an IPv6 address stands for, when it carries one the network would reach. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === "ipv4Mapped" || range === "rfc6145" || address.match(WELL_KNOWN_NAT64))
    return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === "6to4") return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}

/**
 * The address in one canonical spelling (WHATWG URL serialisation, as Node's own parser reads it), or null.
 * ipaddr.js reads "::8.8.8.8" as the mapped ::ffff:8.8.8.8, which is not the address a socket would reach.
 */
function canonicalAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return null;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null; // a zone index (fe80::1%eth0) and the like: never a public receiver
  }
}

/** Whether a webhook may not connect to `address` (an IP address as text) unless an administrator allowed it. */
export function isPrivateAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (!canonical) return true;
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === "ipv4") return parsed.range() !== "unicast";
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner) return inner.range() !== "unicast";
  if (v6.match(IPV4_COMPATIBLE)) return true;
  return v6.range() !== "unicast";
}

/** A URL that may not receive webhooks: `code` names why (a field error code), `message` says it. */
export class TargetRefused extends Error {
  readonly code:
    "invalid_url" | "unsupported_scheme" | "credentials_in_url" | "unresolvable_host" | "private_address";

  constructor(
    code:
      "invalid_url" | "unsupported_scheme" | "credentials_in_url" | "unresolvable_host" | "private_address",
    message: string,
  ) {
    super(message);
    this.code = code;
  }
}

/** Why a URL may not receive webhooks, or null. Checked when a webhook is saved and before each send. */
export async function refuseTarget(url: string, allowPrivateHost: boolean): Promise<TargetRefused | null> {
  try {
    await resolveTarget(url, allowPrivateHost);
    return null;
  } catch (error) {
    if (error instanceof TargetRefused) return error;
    return new TargetRefused("unresolvable_host", "The host name does not resolve.");
  }
}

/** The address to connect to (resolved once and pinned, so DNS cannot point elsewhere between check and send). */
async function resolveTarget(
  url: string,
  allowPrivateHost: boolean,
): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused("invalid_url", "The address is not a valid URL.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new TargetRefused("unsupported_scheme", "Use an http or https address.");
  if (parsed.username || parsed.password)
    throw new TargetRefused("credentials_in_url", "The address may not contain a user name or password.");
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : ((await lookup(host, { all: true })) as Array<{ address: string; family: 4 | 6 }>);
  if (!addresses.length) throw new TargetRefused("unresolvable_host", "The host name does not resolve.");
  if (!allowPrivateHost && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new TargetRefused(
      "private_address",
      "The address is private or local; an administrator must allow this host explicitly.",
    );
  }
  return { url: parsed, ...addresses[0]! };
}

interface Attempt {
  status: number | null;
  error: string;
}

/** One signed POST. Redirects are not followed (a redirect is a failed attempt). */
async function post(
  webhook: WebhookRecord,
  delivery: WebhookDeliveryRecord,
  body: string,
  now: Date,
): Promise<Attempt> {
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(webhook.url, webhook.allowPrivateHost);
  } catch (error) {
    return { status: null, error: error instanceof Error ? error.message : String(error) };
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  const send = target.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Attempt>((resolve) => {
    const req = send(
      target.url,
      {
        method: "POST",
        timeout: TIMEOUT_MS,
        // Pinned to the checked address (the TLS name stays the host's own).
        lookup: (_host, options, callback) =>
          (options as { all?: boolean }).all
            ? callback(
                null,
                [{ address: target.address, family: target.family }] as never,
                undefined as never,
              )
            : callback(null, target.address, target.family),
        headers: {
          "content-type": "application/json",
          "user-agent": "Flock-Webhooks/1",
          "webhook-id": delivery.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(webhook.secret, delivery.id, timestamp, body),
        },
      },
      (res: IncomingMessage) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? null,
            error: res.statusCode && res.statusCode < 300 ? "" : `The receiver answered ${res.statusCode}.`,
          }),
        );
        res.on("error", (error) => resolve({ status: res.statusCode ?? null, error: error.message }));
      },
    );
    // The socket's idle timeout, and a deadline for the whole attempt (a receiver that trickles bytes).
    const giveUp = () => req.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s.`));
    const deadline = setTimeout(giveUp, TIMEOUT_MS);
    req.on("timeout", giveUp);
    req.on("close", () => clearTimeout(deadline));
    req.on("error", (error) => resolve({ status: null, error: error.message.slice(0, 400) }));
    req.end(body);
  });
}

/** The body every attempt of a delivery sends (Standard Webhooks: type, timestamp, data). */
export function payloadOf(delivery: WebhookDeliveryRecord, publicUrl: string): string {
  const { occurredAt, ...data } = (delivery.payload ?? {}) as Record<string, unknown> & {
    occurredAt?: string;
    path?: string;
  };
  const url = typeof data.path === "string" ? new URL(data.path, publicUrl).href : undefined;
  return JSON.stringify({
    type: delivery.type,
    timestamp: occurredAt ?? delivery.created.replace(" ", "T"),
    data: url ? { ...data, url } : data,
  });
}

export type DeliveryOutcome = "sent" | "retrying" | "failed";

/**
 * One claimed delivery: send it, record the attempt (and give the row back), and keep its webhook's
 * failure count; the webhook is disabled after DISABLE_AFTER_FAILED_DELIVERIES in a row.
 */
export async function deliverOne(
  services: GatewayServices,
  delivery: WebhookDeliveryRecord,
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  now = () => new Date(),
): Promise<DeliveryOutcome> {
  const pb = await services.system.get();
  const webhook = await pb
    .collection("webhooks")
    .getOne<WebhookRecord>(delivery.webhook, { fields: "*,secret" })
    // Gone: the delivery fails. Any other error (a busy database) is no verdict on the delivery: it
    // stays claimed and the next taker tries it when the lease runs out.
    .catch((error: unknown) => {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    });
  const at = now();
  const attempt: Attempt =
    webhook?.enabled && webhook.secret
      ? await post(webhook, delivery, payloadOf(delivery, services.config.publicUrl), at)
      : { status: null, error: "The webhook is disabled." };
  const attempts = (delivery.attempts ?? 0) + 1;
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  const again = !ok && !!webhook?.enabled && attempts <= retryDelaysMs.length;
  await pb.collection("webhook_deliveries").update(delivery.id, {
    status: ok ? "succeeded" : again ? "pending" : "failed",
    attempts,
    lastAttemptAt: toPocketBaseDate(at),
    nextAttemptAt: again ? toPocketBaseDate(at.getTime() + retryDelaysMs[attempts - 1]!) : "",
    responseStatus: attempt.status ?? 0,
    error: attempt.error.slice(0, 500),
    ...released,
  });
  const outcome: DeliveryOutcome = ok ? "sent" : again ? "retrying" : "failed";
  if (!webhook?.enabled) return outcome;
  if (ok && webhook.consecutiveFailures) {
    await pb.collection("webhooks").update(webhook.id, { consecutiveFailures: 0 });
  } else if (!ok && !again) {
    // A webhook's deliveries go one at a time (the claim), so this count is not raced.
    const failures = (webhook.consecutiveFailures ?? 0) + 1;
    const disable = failures >= DISABLE_AFTER_FAILED_DELIVERIES;
    const reason = `Disabled after ${failures} deliveries failed in a row (last: ${attempt.error})`.slice(
      0,
      500,
    );
    await pb.collection("webhooks").update(webhook.id, {
      consecutiveFailures: failures,
      ...(disable ? { enabled: false, disabledReason: reason } : {}),
    });
    if (disable) await tellManagers(services, { ...webhook, consecutiveFailures: failures });
  }
  return outcome;
}

/**
 * The delivery pool of one process: up to MAX_CONCURRENT_DELIVERIES attempts at once, each to a
 * different webhook (the claim never hands out two deliveries of one webhook while one is held), so a
 * receiver that hangs or fails holds up and backs off only itself. A finished attempt frees its slot
 * and the pool claims again at once; the periodic tick also fills it (retries falling due, new events).
 */
class DeliveryPool {
  private readonly inFlight = new Set<Promise<void>>();
  private filling: Promise<number> | null = null;
  private fillAgain = false;
  private stopped = false;
  private readonly services: GatewayServices;
  private readonly retryDelaysMs: readonly number[];

  constructor(services: GatewayServices, retryDelaysMs: readonly number[]) {
    this.services = services;
    this.retryDelaysMs = retryDelaysMs;
  }

  /** Claim due deliveries for the free slots and start them; resolves with how many started. */
  fill(): Promise<number> {
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = (async () => {
      let started = 0;
      do {
        this.fillAgain = false;
        if (this.stopped) break;
        const rows = await claimRows<WebhookDeliveryRecord>(
          this.services.system,
          "webhook_deliveries",
          MAX_CONCURRENT_DELIVERIES - this.inFlight.size,
          LEASE_SECONDS,
        );
        for (const row of rows) this.start(row);
        started += rows.length;
      } while (this.fillAgain);
      return started;
    })().finally(() => {
      this.filling = null;
    });
    return this.filling;
  }

  private start(row: WebhookDeliveryRecord): void {
    const attempt: Promise<void> = deliverOne(this.services, row, this.retryDelaysMs)
      .then((outcome) => {
        if (outcome === "failed") console.log(`[webhooks] delivery ${row.id} failed for good`);
      })
      .catch((error: unknown) =>
        console.error(`[webhooks] delivery ${row.id}:`, error instanceof Error ? error.message : error),
      )
      .finally(() => {
        this.inFlight.delete(attempt);
        if (!this.stopped) void this.fill().catch(() => undefined);
      });
    this.inFlight.add(attempt);
  }

  /** No new claims; attempts in flight finish and record themselves. */
  stop(): void {
    this.stopped = true;
  }
}

/** Everyone who manages integrations hears that a webhook was disabled. */
async function tellManagers(services: GatewayServices, webhook: WebhookRecord): Promise<void> {
  const pb = await services.system.get();
  const managers = await pb
    .collection("users")
    .getFullList<UserRecord>({ filter: holdersOf("manageIntegrations"), fields: "id" });
  const host = new URL(webhook.url).host;
  // All at once: each notify also mails, and a church may have several managers.
  await Promise.all(
    managers.map((manager) =>
      notify(services, {
        userId: manager.id,
        kind: "webhook_disabled",
        title: (t) => t("notification.webhookDisabled.title", { host }),
        body: (t) => t("notification.webhookDisabled.body", { failures: webhook.consecutiveFailures }),
        link: "/admin/integrations",
        email: (t) => ({
          subject: t("notification.webhookDisabled.title", { host }),
          text: t("notification.webhookDisabled.body", { failures: webhook.consecutiveFailures }),
        }),
      }),
    ),
  );
}

/** The delivery job: every `intervalMs` (2 s by default; tests pass a shorter retry schedule). */
export function startWebhookDelivery(
  services: GatewayServices,
  options: { intervalMs?: number; retryDelaysMs?: readonly number[] } = {},
): () => void {
  const pool = new DeliveryPool(services, options.retryDelaysMs ?? RETRY_DELAYS_MS);
  const stopJob = startPeriodicJob({
    name: "webhooks",
    intervalMs: options.intervalMs ?? 2_000,
    run: () => pool.fill(),
    report: () => null,
    failure: "could not claim webhook deliveries",
  });
  return () => {
    stopJob();
    pool.stop();
  };
}
