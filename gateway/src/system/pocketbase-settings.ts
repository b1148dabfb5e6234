import type PocketBase from "pocketbase";
import type { GatewayConfig } from "../config.ts";

/**
 * System job: keep PocketBase's mail settings in line with the church. PocketBase sends the
 * verification and password-reset emails itself; their templates use {APP_NAME} (the church's
 * name), {APP_URL} (the public URL, so links open the app) and the SMTP server from the environment.
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
    smtp: smtp
      ? { enabled: true, host: smtp.host, port: smtp.port, username: smtp.username, password: smtp.password, tls: smtp.tls, authMethod: "PLAIN" }
      : { enabled: false },
  });
}
