import type PocketBase from "pocketbase";
import type { GatewayConfig, S3Storage } from "../config.ts";
import { authTemplates } from "../mail/auth-templates.ts";
import { brandFrom } from "../mail/brand.ts";
import type { SettingsRecord } from "../pocketbase/records.ts";

/**
 * System job: keep PocketBase's mail settings in line with the church. PocketBase sends the
 * verification and password-reset emails itself; their templates are the gateway's branded layout
 * (mail/auth-templates.ts: the church's name, logo, colour, a real button and a plain-text part),
 * {APP_URL} is the public URL, and the SMTP server comes from the environment.
 * Also: which header carries the caller's IP (below), and, when S3_* are set, PocketBase's files and
 * backups in that bucket (s3Settings).
 */
export async function syncPocketBaseSettings(
  system: PocketBase,
  config: GatewayConfig,
  settings: SettingsRecord,
): Promise<void> {
  const smtp = config.smtp;
  const churchName = settings.churchName;
  await system.settings.update({
    meta: {
      appName: churchName,
      appURL: config.publicUrl,
      senderName: churchName,
      // PocketBase refuses a sender without a dotted domain ("no-reply@localhost").
      senderAddress: smtp?.senderAddress ?? "no-reply@flock.local",
    },
    // The gateway sends each caller's IP as X-Forwarded-For (pocketbase/client.ts), and only the
    // gateway can reach PocketBase: its per-IP protections then see clients, not 127.0.0.1. The
    // rightmost entry is the one the gateway wrote.
    trustedProxy: { headers: ["X-Forwarded-For"], useLeftmostIP: false },
    smtp: smtp
      ? {
          enabled: true,
          host: smtp.host,
          port: smtp.port,
          username: smtp.username,
          password: smtp.password,
          tls: smtp.tls,
          authMethod: "PLAIN",
        }
      : { enabled: false },
    // Without S3_*, PocketBase's own choice stays (local disk, or what its dashboard set).
    ...(config.s3 ? s3Settings(config.s3) : {}),
  });
  await system.collections.update("users", authTemplates(brandFrom(settings, config.publicUrl)));
}

/**
 * PocketBase's `s3` (uploaded files) and `backups.s3` (its backups), both in the one bucket: files are
 * kept under `<collection id>/<record id>/`, backups as `<name>.zip` at the top. PocketBase merges the
 * update into its settings, so the backups' schedule (`backups.cron`) stays as it was.
 */
export function s3Settings(s3: S3Storage) {
  const storage = {
    enabled: true,
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKey: s3.accessKey,
    secret: s3.secret,
    forcePathStyle: s3.forcePathStyle,
  };
  return { s3: storage, backups: { s3: storage } };
}

/** The settings that appear in PocketBase's auth mails: a change to any of them re-syncs. */
export const brandChanged = (a: SettingsRecord, b: SettingsRecord) =>
  a.churchName !== b.churchName ||
  a.logo !== b.logo ||
  a.brandColor !== b.brandColor ||
  a.address !== b.address ||
  a.locale !== b.locale;
