// `npm run dev`: PocketBase + mail catcher + demo church as `npm start` has them, plus hot reload:
// the gateway restarts on change (tsx watch), Vite serves the web app with HMR and proxies the
// gateway's routes, and GraphQL Code Generator regenerates types when an SDL or operation changes.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { ROOT, resolvePocketBaseBinary, supervisePocketBase, upsertSuperuser } from "./lib/pocketbase.ts";
import { SmtpCatcher } from "./lib/smtp-catcher.ts";
import { freePort, superuserCredentials } from "./lib/stack.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "./lib/seed.ts";
import { lockDataDir } from "./lib/instance-lock.ts";
import {
  checkDatabaseFiles,
  checkFreeSpace,
  databaseInUse,
  nodeVersionNote,
  prepareDataDir,
  StartupError,
} from "./lib/startup-checks.ts";

const dataDir = process.env.PB_DATA_DIR || join(ROOT, "pb_data");
const oldNode = nodeVersionNote();
if (oldNode) console.warn(`  ${oldNode}`);
// The same checks and lock as `npm start` (scripts/lib/stack.ts): `npm run dev` and `npm start` on
// one pb_data would be two PocketBase processes on one database.
const pocketbase = await (async () => {
  await prepareDataDir(dataDir);
  await checkFreeSpace(dataDir);
  await lockDataDir(dataDir);
  await checkDatabaseFiles(dataDir);
  const inUse = await databaseInUse(dataDir);
  if (inUse) throw inUse;
  const bin = resolvePocketBaseBinary();
  const superuser = await superuserCredentials(dataDir);
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password, { timeoutMs: 30_000 });
  const supervised = await supervisePocketBase({
    bin,
    dataDir,
    port: await freePort(Number(process.env.PB_PORT ?? 8090)),
    quiet: true,
    diagnose: (pid) => databaseInUse(dataDir, pid ? [pid] : []),
    log: (line) => console.log(`  ${line}`),
  });
  return Object.assign(supervised, { superuser });
})().catch((error: unknown) => {
  if (!(error instanceof StartupError)) throw error;
  console.error(`\n  Flock could not start. ${error.message}\n`);
  process.exit(1);
});
const superuser = pocketbase.superuser;
const catcher = await new SmtpCatcher().start();
const system = new PocketBase(pocketbase.url);
await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
await seedDemo(system);

const gatewayPort = await freePort(3001);
const webPort = await freePort(Number(process.env.PORT ?? 5173));
const publicUrl = `http://127.0.0.1:${webPort}`;
const env = {
  ...process.env,
  PB_URL: pocketbase.url,
  PB_SUPERUSER_EMAIL: superuser.email,
  PB_SUPERUSER_PASSWORD: superuser.password,
  SMTP_HOST: "127.0.0.1",
  SMTP_PORT: String(catcher.smtpPort),
  SMTP_FROM: "no-reply@flock.local",
  PUBLIC_URL: publicUrl,
  PORT: String(gatewayPort),
  HOST: "127.0.0.1",
  FLOCK_GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
  VITE_PORT: String(webPort),
};
// `npm exec` finds each tool wherever npm installed it (the root or a workspace's node_modules).
const run = (cwd: string, tool: string, args: string[]) => {
  const child = spawn("npm", ["exec", "--no", "--", tool, ...args], { cwd, env, stdio: "inherit" });
  child.on("error", (error) => {
    console.error(`Could not start ${tool}:`, error.message);
    void stop();
  });
  return child;
};
const children: ChildProcess[] = [
  run(ROOT, "tsx", ["watch", "--clear-screen=false", "gateway/src/main.ts"]),
  run(join(ROOT, "web"), "vite", ["--host", "127.0.0.1", "--strictPort"]),
  run(ROOT, "graphql-codegen", [
    "--config",
    "codegen.ts",
    "--watch",
    "gateway/src/schema/**/*.graphql",
    "--watch",
    "web/src/**/*.graphql",
  ]),
];

console.log(
  [
    "",
    `  Flock (development) at ${publicUrl}`,
    `  Demo sign-ins (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(", ")}`,
    `  Mail catcher: http://127.0.0.1:${catcher.httpPort}   GraphiQL: ${publicUrl}/graphql`,
    "",
  ].join("\n"),
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  await pocketbase.stop();
  await catcher.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
