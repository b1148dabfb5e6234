// Production start-up step, run by the gateway container before the gateway (see
// docker/gateway-entrypoint.sh): make sure the church's first administrator exists.
//
// The gateway itself never creates accounts or seeds data, and a fresh PocketBase has no users, so
// without this step nobody could sign in to a new installation. It reads FLOCK_ADMIN_EMAIL and
// FLOCK_ADMIN_PASSWORD and creates that account (verified, Administrator role) once. It is safe on
// every start: an existing account with that email is left alone (the password is not reset), so
// the variables may be removed from .env after the first start.
//
// Environment: PB_URL, PB_SUPERUSER_EMAIL, PB_SUPERUSER_PASSWORD (the system account the gateway
// uses), FLOCK_ADMIN_EMAIL, FLOCK_ADMIN_PASSWORD; each password also as <NAME>_FILE (a file holding
// it). Exit code 1 on a configuration problem.
import PocketBase from "pocketbase";
import { ConfigurationError, secretFromEnv } from "../gateway/src/config.ts";
import { checkPassword } from "../gateway/src/validation/passwords.ts";
import { ensureAdministrator } from "./lib/accounts.ts";

const env = process.env;

async function waitForPocketBase(pbUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${pbUrl}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      /* not reachable yet */
    }
    if (Date.now() > deadline) throw new Error(`PocketBase is not reachable at ${pbUrl} (PB_URL).`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<number> {
  const email = env.FLOCK_ADMIN_EMAIL?.trim().toLowerCase() ?? "";
  const password = secretFromEnv(env, "FLOCK_ADMIN_PASSWORD") ?? "";
  if (!email && !password) {
    console.log(
      "[ensure-admin] FLOCK_ADMIN_EMAIL and FLOCK_ADMIN_PASSWORD are not set: no administrator to create.",
    );
    return 0;
  }
  if (!email || !password) {
    console.error(
      "[ensure-admin] Set both FLOCK_ADMIN_EMAIL and FLOCK_ADMIN_PASSWORD (or FLOCK_ADMIN_PASSWORD_FILE), or neither.",
    );
    return 1;
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    console.error(`[ensure-admin] FLOCK_ADMIN_EMAIL is not an email address: "${email}".`);
    return 1;
  }
  if (password.startsWith("change-me")) {
    console.error("[ensure-admin] FLOCK_ADMIN_PASSWORD still has the placeholder from .env.example.");
    return 1;
  }
  // The same password policy as sign-up and password change (PRODUCT.md §6).
  const problem = checkPassword(password, { email });
  if (problem) {
    console.error(`[ensure-admin] FLOCK_ADMIN_PASSWORD is not accepted: ${problem.message}`);
    return 1;
  }
  const superuserEmail = env.PB_SUPERUSER_EMAIL;
  const superuserPassword = secretFromEnv(env, "PB_SUPERUSER_PASSWORD");
  if (!superuserEmail || !superuserPassword) {
    console.error(
      "[ensure-admin] PB_SUPERUSER_EMAIL and PB_SUPERUSER_PASSWORD (or PB_SUPERUSER_PASSWORD_FILE) are required.",
    );
    return 1;
  }

  const pbUrl = (env.PB_URL ?? "http://127.0.0.1:8090").replace(/\/$/, "");
  await waitForPocketBase(pbUrl, 60_000);
  const system = new PocketBase(pbUrl);
  system.autoCancellation(false);
  await system.collection("_superusers").authWithPassword(superuserEmail, superuserPassword);
  const result = await ensureAdministrator(system, email, password);
  console.log(
    result === "created"
      ? `[ensure-admin] Created the administrator ${email}. Sign in with the password from FLOCK_ADMIN_PASSWORD.`
      : `[ensure-admin] The account ${email} already exists; left unchanged.`,
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  // Only the message: the SDK's error objects carry request details that do not belong in logs.
  const prefix = error instanceof ConfigurationError ? "" : "Failed: ";
  console.error(`[ensure-admin] ${prefix}${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
