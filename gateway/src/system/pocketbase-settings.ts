import type PocketBase from "pocketbase";
import type { GatewayConfig } from "../config.ts";
import { authTemplates } from "../mail/auth-templates.ts";
import { brandFrom } from "../mail/brand.ts";
import type { SettingsRecord } from "../pocketbase/records.ts";

/**
 * System job: keep PocketBase's mail settings in line with the church. PocketBase sends the
 * verification and password-reset emails itself; their templates are the gateway's branded layout
 * (mail/auth-templates.ts: the church's name, logo, colour, a real button and a plain-text part),
 * {APP_URL} is the public URL, and the SMTP server comes from the environment.
 * Also: which header carries the caller's IP (below).
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
  });
  await system.collections.update("users", authTemplates(brandFrom(settings, config.publicUrl)));
}

/** The settings that appear in PocketBase's auth mails: a change to any of them re-syncs. */
export const brandChanged = (a: SettingsRecord, b: SettingsRecord) =>
  a.churchName !== b.churchName ||
  a.logo !== b.logo ||
  a.brandColor !== b.brandColor ||
  a.address !== b.address ||
  a.locale !== b.locale;
