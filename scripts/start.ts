// `npm start`: the whole app on one machine: PocketBase (data in pb_data/), a local mail catcher,
// the gateway serving the built web app, GraphQL, files and health on one port, and the demo church.
import { join } from "node:path";
import { ROOT } from "./lib/pocketbase.ts";
import { startStack } from "./lib/stack.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./lib/seed.ts";

const production = process.env.NODE_ENV === "production";
const stack = await startStack({
  dataDir: process.env.PB_DATA_DIR ?? join(ROOT, "pb_data"),
  port: Number(process.env.PORT ?? 3000),
  pbPort: Number(process.env.PB_PORT ?? 8090),
  host: process.env.HOST ?? "127.0.0.1",
  webDist: join(ROOT, "web", "dist"),
  demo: !production && process.env.FLOCK_DEMO !== "false",
  production,
  publicUrl: process.env.PUBLIC_URL,
});

const lines = [
  "",
  `  Flock is running at ${stack.url}`,
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
console.log(lines.join("\n"));

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping Flock…");
    void stack.stop().then(() => process.exit(0));
  });
}
