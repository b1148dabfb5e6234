import { readFileSync } from "node:fs";
import { STRIPE_DEFAULT_FEE, type StripeSettings } from "./payments/settings.ts";

/** A setting that is missing or wrong: its message says which and how to fix it (printed without a stack). */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/** Gateway configuration, read once from the environment. */
export interface GatewayConfig {
  /** Port the gateway listens on (app, GraphQL, files, health). */
  port: number;
  host: string;
  /** PocketBase's internal URL; never exposed to browsers. */
  pbUrl: string;
  /** The address people use to reach the app, for links in emails and feeds. */
  publicUrl: string;
  production: boolean;
  /**
   * The bearer token that may read GET /metrics (METRICS_TOKEN or METRICS_TOKEN_FILE); without one, only
   * requests from this machine that no proxy forwarded may (observability/endpoints.ts).
   */
  metricsToken?: string | null;
  /**
   * After SIGTERM, how long the gateway keeps answering while /readyz says 503 "draining", so that load
   * balancers stop sending before it closes (SHUTDOWN_DRAIN_SECONDS; default 0).
   */
  shutdownDrainMs?: number;
  /** Origins allowed to call /graphql cross-origin with credentials (the app's own origin always is). */
  corsOrigins: string[];
  /** Folder of the built web app (web/dist), or null to serve no app. */
  webDist: string | null;
  superuser: { email: string; password: string };
  smtp: {
    host: string;
    port: number;
    username: string;
    password: string;
    tls: boolean;
    senderAddress: string;
  } | null;
  /** Trust X-Forwarded-For from a reverse proxy in front of the gateway. */
  trustProxy: boolean;
  /**
   * PocketBase's files and backups in S3-compatible storage (S3_*), applied to PocketBase's settings at
   * start-up (system/pocketbase-settings.ts). Null: PocketBase's own setting (local disk by default) stays.
   */
  s3?: S3Storage | null;
  /** Where resumable audio uploads are staged on disk (default: <tmp>/flock-uploads). */
  uploadDir?: string;
  /** The most the staged uploads may take together; new uploads are refused beyond it (default: no bound). */
  uploadDirMaxBytes?: number;
  /**
   * The webhook delivery job (system/webhooks.ts): on by default, every 2 s with its standard retry
   * schedule; `false` runs none in this process (tests, except the webhook tests, which shorten it).
   */
  webhookDelivery?: { intervalMs?: number; retryDelaysMs?: readonly number[] } | false;
  /**
   * The mail outbox's periodic job (system/mail-outbox.ts: retries, rows queued by PocketBase's hooks or
   * another process), started with the server: every 1 s with its standard retry schedule by default.
   * Mail queued by this process is sent at once either way.
   */
  mailOutbox?: { intervalMs?: number; retryDelaysMs?: readonly number[] };
  /**
   * Online giving through Stripe (payments/stripe.ts): STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, both or
   * neither. Without them /give says online giving is not set up and startGift answers so.
   */
  payments?: StripeSettings | null;
  /**
   * Redis for what gateway replicas share (REDIS_URL or REDIS_URL_FILE; docs/DEPLOYMENT.md, "Several
   * gateway replicas"): the rate limits. Keys start with `keyPrefix` (REDIS_KEY_PREFIX, "flock" by
   * default), so churches can share one Redis. Null: this process counts on its own.
   */
  redis?: { url: string; keyPrefix: string } | null;
  /**
   * How often the leased system jobs run, in ms, when not their own default (FLOCK_JOB_INTERVALS,
   * "scheduler=30000,staff-digest=600000"): for tests that watch several runs, and for tuning.
   */
  jobIntervalsMs?: Partial<Record<LeasedJob, number>>;
}

/** The system jobs that run on one replica at a time (system/job-leases.ts). */
export const LEASED_JOBS = ["scheduler", "prayer-expiry", "serving-reminders", "staff-digest"] as const;
export type LeasedJob = (typeof LEASED_JOBS)[number];

/** FLOCK_JOB_INTERVALS: "name=ms,…" for the leased jobs, each 200 ms to a day. */
export function jobIntervalsFromEnv(env: NodeJS.ProcessEnv): Partial<Record<LeasedJob, number>> {
  const intervals: Partial<Record<LeasedJob, number>> = {};
  for (const part of (env.FLOCK_JOB_INTERVALS ?? "").split(",").filter((p) => p.trim())) {
    const [name = "", text = ""] = part.split("=").map((p) => p.trim());
    const ms = Number(text);
    if (
      !(LEASED_JOBS as readonly string[]).includes(name) ||
      !Number.isInteger(ms) ||
      ms < 200 ||
      ms > 86_400_000
    )
      throw new ConfigurationError(
        `FLOCK_JOB_INTERVALS takes name=milliseconds pairs for ${LEASED_JOBS.join(", ")} (200 to 86400000); "${part}" is not one.`,
      );
    intervals[name as LeasedJob] = ms;
  }
  return intervals;
}

/** REDIS_URL (or REDIS_URL_FILE: the URL may carry a password) and REDIS_KEY_PREFIX. */
export function redisFromEnv(env: NodeJS.ProcessEnv): GatewayConfig["redis"] {
  const url = secretFromEnv(env, "REDIS_URL");
  if (!url) return null;
  if (!/^rediss?:\/\/./.test(url))
    throw new ConfigurationError(
      "REDIS_URL must start with redis:// or rediss:// (e.g. redis://redis:6379).",
    );
  const keyPrefix = env.REDIS_KEY_PREFIX || "flock";
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(keyPrefix))
    throw new ConfigurationError(
      `REDIS_KEY_PREFIX may hold letters, digits and _ . : - (at most 64); it is "${keyPrefix}".`,
    );
  return { url, keyPrefix };
}

/**
 * A secret from the environment: the contents of the file `<NAME>_FILE` names (Docker and Compose
 * secrets, a file only its owner reads), else `<NAME>`. One trailing line break belongs to the file, not
 * to the secret. Both set is a mistake worth stopping for. The value itself never appears in an error.
 */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  if (file && env[name]) throw new ConfigurationError(`Set ${name} or ${name}_FILE, not both.`);
  if (!file) return env[name] || undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigurationError(`${name}_FILE names ${file}, which cannot be read (${code}).`);
  }
  const value = text.replace(/\r?\n$/, "");
  if (!value) throw new ConfigurationError(`${name}_FILE names ${file}, which is empty.`);
  return value;
}

/** An S3-compatible bucket (AWS S3, MinIO, Backblaze B2, Cloudflare R2…) for PocketBase's files and backups. */
export interface S3Storage {
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secret: string;
  /** Address the bucket as a path (`endpoint/bucket/key`), as MinIO needs, not as a subdomain. */
  forcePathStyle: boolean;
}

/**
 * Files in S3 (docs/DEPLOYMENT.md, "Files in S3"): S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY and
 * S3_SECRET (or S3_SECRET_FILE), all or none; S3_FORCE_PATH_STYLE `true` or `false` (the default).
 */
export function s3FromEnv(env: NodeJS.ProcessEnv): S3Storage | null {
  const secret = secretFromEnv(env, "S3_SECRET");
  const given = {
    S3_ENDPOINT: env.S3_ENDPOINT?.trim(),
    S3_BUCKET: env.S3_BUCKET?.trim(),
    S3_REGION: env.S3_REGION?.trim(),
    S3_ACCESS_KEY: env.S3_ACCESS_KEY?.trim(),
    S3_SECRET: secret,
  };
  const missing = Object.entries(given)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length === Object.keys(given).length) return null;
  if (missing.length)
    throw new ConfigurationError(
      `Files in S3 need S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY and S3_SECRET (or S3_SECRET_FILE), all or none; missing: ${missing.join(", ")}.`,
    );
  const endpoint = given.S3_ENDPOINT!;
  if (!/^https?:\/\/[^/\s]+/.test(endpoint) || !URL.canParse(endpoint))
    throw new ConfigurationError(
      `S3_ENDPOINT must be a URL such as https://s3.eu-west-1.amazonaws.com; it is "${endpoint}".`,
    );
  const pathStyle = env.S3_FORCE_PATH_STYLE ?? "";
  if (!["", "true", "false"].includes(pathStyle))
    throw new ConfigurationError(`S3_FORCE_PATH_STYLE must be true or false; it is "${pathStyle}".`);
  return {
    endpoint: endpoint.replace(/\/+$/, ""),
    bucket: given.S3_BUCKET!,
    region: given.S3_REGION!,
    accessKey: given.S3_ACCESS_KEY!,
    secret: secret!,
    forcePathStyle: pathStyle === "true",
  };
}

/** "2G", "500M", "800K" or a number of bytes. */
export function parseSize(text: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]?)B?\s*$/i.exec(text);
  const unit = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[
    (match?.[2] ?? "").toUpperCase() as "" | "K" | "M" | "G"
  ];
  const bytes = match ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!Number.isFinite(bytes) || bytes <= 0)
    throw new ConfigurationError(
      `${name} must be a size such as 2G, 500M or 1073741824 (bytes); it is "${text}".`,
    );
  return bytes;
}

/** A number from the environment within [min, max], or `fallback` when unset. */
function numberFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new ConfigurationError(`${name} must be a number from ${min} to ${max}; it is "${text}".`);
  return value;
}

/**
 * Stripe's settings (docs/DEPLOYMENT.md, "Online giving"): the secret API key and the webhook endpoint's
 * signing secret, both or neither; the fee a donor may cover (STRIPE_FEE_PERCENT, STRIPE_FEE_FIXED_CENTS:
 * the church's Stripe pricing, 2.9 and 30 by default); STRIPE_API_BASE points the client at another API
 * host (a local fake in tests; never set in production).
 */
export function paymentsFromEnv(env: NodeJS.ProcessEnv): StripeSettings | null {
  const secretKey = secretFromEnv(env, "STRIPE_SECRET_KEY");
  const webhookSecret = secretFromEnv(env, "STRIPE_WEBHOOK_SECRET");
  if (!secretKey && !webhookSecret) return null;
  if (!secretKey || !webhookSecret)
    throw new ConfigurationError(
      "Online giving needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or neither, to turn it off).",
    );
  const fee = {
    percent: numberFromEnv(env, "STRIPE_FEE_PERCENT", STRIPE_DEFAULT_FEE.percent, 0, 20),
    fixedCents: Math.round(
      numberFromEnv(env, "STRIPE_FEE_FIXED_CENTS", STRIPE_DEFAULT_FEE.fixedCents, 0, 1000),
    ),
  };
  const base = env.STRIPE_API_BASE;
  if (!base) return { secretKey, webhookSecret, fee };
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigurationError(
      `STRIPE_API_BASE must be a URL such as https://api.stripe.com; it is "${base}".`,
    );
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    secretKey,
    webhookSecret,
    fee,
    api: { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol },
  };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = Number(env.PORT ?? env.FLOCK_PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  const required = (name: string, value = env[name]) => {
    if (!value)
      throw new ConfigurationError(
        `Missing environment variable ${name} or ${name}_FILE (see docs/DEPLOYMENT.md).`,
      );
    return value;
  };
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    pbUrl: env.PB_URL ?? "http://127.0.0.1:8090",
    publicUrl,
    production: env.NODE_ENV === "production",
    metricsToken: secretFromEnv(env, "METRICS_TOKEN") ?? null,
    shutdownDrainMs: numberFromEnv(env, "SHUTDOWN_DRAIN_SECONDS", 0, 0, 300) * 1000,
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    webDist: env.WEB_DIST ?? null,
    superuser: {
      email: required("PB_SUPERUSER_EMAIL"),
      password: required("PB_SUPERUSER_PASSWORD", secretFromEnv(env, "PB_SUPERUSER_PASSWORD")),
    },
    smtp: env.SMTP_HOST
      ? {
          host: env.SMTP_HOST,
          port: Number(env.SMTP_PORT ?? 587),
          username: env.SMTP_USERNAME ?? "",
          password: secretFromEnv(env, "SMTP_PASSWORD") ?? "",
          tls: env.SMTP_TLS === "true",
          senderAddress: env.SMTP_FROM ?? "no-reply@localhost",
        }
      : null,
    trustProxy: env.TRUST_PROXY === "true",
    s3: s3FromEnv(env),
    ...(env.UPLOAD_DIR ? { uploadDir: env.UPLOAD_DIR } : {}),
    ...(env.UPLOAD_DIR_MAX_BYTES
      ? { uploadDirMaxBytes: parseSize(env.UPLOAD_DIR_MAX_BYTES, "UPLOAD_DIR_MAX_BYTES") }
      : {}),
    payments: paymentsFromEnv(env),
    redis: redisFromEnv(env),
    jobIntervalsMs: jobIntervalsFromEnv(env),
  };
}
