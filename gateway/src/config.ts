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
  /** Where resumable audio uploads are staged on disk (default: <tmp>/flock-uploads). */
  uploadDir?: string;
  /**
   * The webhook delivery job (system/webhooks.ts): on by default, every 2 s with its standard retry
   * schedule; `false` runs none in this process (tests, except the webhook tests, which shorten it).
   */
  webhookDelivery?: { intervalMs?: number; retryDelaysMs?: readonly number[] } | false;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = Number(env.PORT ?? env.FLOCK_PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`Missing environment variable ${name} (see README "Deployment").`);
    return value;
  };
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    pbUrl: env.PB_URL ?? "http://127.0.0.1:8090",
    publicUrl,
    production: env.NODE_ENV === "production",
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    webDist: env.WEB_DIST ?? null,
    superuser: { email: required("PB_SUPERUSER_EMAIL"), password: required("PB_SUPERUSER_PASSWORD") },
    smtp: env.SMTP_HOST
      ? {
          host: env.SMTP_HOST,
          port: Number(env.SMTP_PORT ?? 587),
          username: env.SMTP_USERNAME ?? "",
          password: env.SMTP_PASSWORD ?? "",
          tls: env.SMTP_TLS === "true",
          senderAddress: env.SMTP_FROM ?? "no-reply@localhost",
        }
      : null,
    trustProxy: env.TRUST_PROXY === "true",
    ...(env.UPLOAD_DIR ? { uploadDir: env.UPLOAD_DIR } : {}),
  };
}
