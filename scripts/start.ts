// `npm start`: the whole app on one machine: PocketBase (data in pb_data/), a local mail catcher,
// the gateway serving the built web app, GraphQL, files and health on one port, and the demo church.
//
// It supervises PocketBase (restarted after a crash; stopped with this process, even by SIGKILL), holds
// a lock on the data directory (a second start on it refuses, naming this one's pid), binds its port
// before migrations and seeding, and explains every start-up failure in one sentence without a stack
// trace or a secret (scripts/lib/startup-checks.ts).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "./lib/pocketbase.ts";
import { startStack, type Stack } from "./lib/stack.ts";
import { nodeVersionNote, portFromEnv, redact, StartupError } from "./lib/startup-checks.ts";
import { ConfigurationError, parseSize, secretFromEnv } from "../gateway/src/config.ts";

const env = process.env;
const production = env.NODE_ENV === "production";
const dataDir = env.PB_DATA_DIR || join(ROOT, "pb_data");

/** Every secret this start may know, to blank out of an unexpected error before it is printed. */
async function knownSecrets(): Promise<string[]> {
  const secrets: Array<string | undefined> = [];
  for (const name of [
    "PB_SUPERUSER_PASSWORD",
    "FLOCK_ADMIN_PASSWORD",
    "SMTP_PASSWORD",
    "PB_ENCRYPTION_KEY",
  ]) {
    secrets.push(env[name]);
    try {
      secrets.push(secretFromEnv(env, name));
    } catch {
      /* an unreadable secret file has no secret to hide */
    }
  }
  const stored = await readFile(join(dataDir, ".flock", "superuser.json"), "utf8").catch(() => "");
  if (stored) secrets.push((JSON.parse(stored) as { password?: string }).password);
  return secrets.filter((secret): secret is string => Boolean(secret));
}

async function start(): Promise<Stack> {
  const port = portFromEnv(env, "PORT", 3000);
  const pbPort = portFromEnv(env, "PB_PORT", 8090);
  return startStack({
    dataDir,
    port: port.port,
    portFallback: !port.chosen,
    pbPort: pbPort.port,
    pbPortFallback: !pbPort.chosen,
    host: env.HOST || "127.0.0.1",
    webDist: join(ROOT, "web", "dist"),
    demo: !production && env.FLOCK_DEMO !== "false",
    production,
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY === "true",
    ...(env.UPLOAD_DIR ? { uploadDir: env.UPLOAD_DIR } : {}),
    ...(env.UPLOAD_DIR_MAX_BYTES
      ? { uploadDirMaxBytes: parseSize(env.UPLOAD_DIR_MAX_BYTES, "UPLOAD_DIR_MAX_BYTES") }
      : {}),
    log: (line) => console.log(line),
  });
}

const oldNode = nodeVersionNote();
if (oldNode) console.warn(`  ${oldNode}`);
console.log(`  Starting Flock (data in ${dataDir})…`);

let stack: Stack;
try {
  stack = await start();
} catch (error) {
  if (error instanceof StartupError || error instanceof ConfigurationError) {
    console.error(`\n  Flock could not start. ${error.message}\n`);
  } else {
    // Not a cause we know: the message and the stack help whoever reads it, without any secret.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`\n  Flock could not start: ${redact(detail, await knownSecrets())}\n`);
  }
  process.exit(1);
}

// Loaded only now: the demo seed's modules are not needed to find out that a start cannot succeed.
const { DEMO_ACCOUNTS, DEMO_PASSWORD } = await import("./lib/seed.ts");
const lines = [
  "",
  `  Flock is running at ${stack.url}`,
  ...(stack.portMovedFrom
    ? [
        `  (port ${stack.portMovedFrom.port} is in use${stack.portMovedFrom.holder ? ` by ${stack.portMovedFrom.holder}` : ""}, so Flock took this one; set PORT to choose)`,
      ]
    : []),
  `  PocketBase at ${stack.pbUrl} (pid ${stack.pocketbase.process.pid}; started again if it stops)`,
  "",
  ...(stack.seeded !== "skipped"
    ? [
        `  Demo church: Grace Community Church (${stack.seeded === "seeded" ? "created now" : "kept from the last start"})`,
        `  Demo sign-ins (password for all: ${DEMO_PASSWORD}):`,
        ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(24)} ${a.what}`),
        "",
      ]
    : []),
  ...(stack.catcher
    ? [`  Mail catcher (every email the app sends): http://127.0.0.1:${stack.catcher.httpPort}`, ""]
    : []),
  "  Press Ctrl-C to stop.",
  "",
];
// Before "Press Ctrl-C to stop" is printed: whoever reads it (an operator, a supervisor, a test) may
// send SIGTERM at once, and a signal that found no handler killed the process without stopping
// PocketBase or releasing the lock in order (seen on a loaded CI machine).
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping Flock…");
    void stack.stop().then(() => process.exit(0));
  });
}
console.log(lines.join("\n"));
