import type PocketBase from "pocketbase";
import type { GatewayConfig } from "../config.ts";

/**
 * System job: keep PocketBase's mail settings in line with the church. PocketBase sends the
 * verification and password-reset emails itself; their templates use {APP_NAME} (the church's
 * name), {APP_URL} (the public URL, so links open the app) and the SMTP server from the environment.
 * Also: which header carries the caller's IP (below).
 */
export async function syncPocketBaseSettings(system: PocketBase, config: GatewayConfig, churchName: string): Promise<void> {
  const smtp = config.smtp;
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
      ? { enabled: true, host: smtp.host, port: smtp.port, username: smtp.username, password: smtp.password, tls: smtp.tls, authMethod: "PLAIN" }
      : { enabled: false },
  });
}
