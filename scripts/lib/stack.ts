import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { createGateway, prepareGateway, type Gateway, type GatewayConfig } from "../../gateway/src/index.ts";
import {
  resolvePocketBaseBinary,
  startPocketBase,
  upsertSuperuser,
  type PocketBaseProcess,
} from "./pocketbase.ts";
import { SmtpCatcher } from "./smtp-catcher.ts";
import { markdownPool } from "../../gateway/src/markdown/pool.ts";
import { ensureAdministrator, seedDemo } from "./seed.ts";

export interface StackOptions {
  dataDir: string;
  /** Gateway port (0 = any free port). */
  port: number;
  /** PocketBase port (0 = any free port). */
  pbPort: number;
  host?: string;
  webDist: string | null;
  demo: boolean;
  production?: boolean;
  publicUrl?: string;
  /** Use this SMTP server instead of starting a local catcher. */
  smtp?: GatewayConfig["smtp"];
  quiet?: boolean;
}

export interface Stack {
  url: string;
  pbUrl: string;
  gateway: Gateway;
  pocketbase: PocketBaseProcess;
  catcher: SmtpCatcher | null;
  superuser: { email: string; password: string };
  seeded: "seeded" | "already-seeded" | "skipped";
  stop(): Promise<void>;
}

export async function freePort(preferred = 0): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const { port: chosen } = server.address() as { port: number };
        server.close(() => resolve(chosen));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

/**
 * The system superuser: generated on first run and kept inside the data directory (mode 600), so
 * nothing secret is committed or printed. Production passes it in the environment instead.
 */
export async function superuserCredentials(
  dataDir: string,
  env = process.env,
): Promise<{ email: string; password: string }> {
  if (env.PB_SUPERUSER_EMAIL && env.PB_SUPERUSER_PASSWORD) {
    return { email: env.PB_SUPERUSER_EMAIL, password: env.PB_SUPERUSER_PASSWORD };
  }
  const file = join(dataDir, ".flock", "superuser.json");
  try {
    return JSON.parse(await readFile(file, "utf8")) as { email: string; password: string };
  } catch {
    const credentials = { email: "system@flock.local", password: randomBytes(24).toString("base64url") };
    await mkdir(join(dataDir, ".flock"), { recursive: true });
    await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
    await chmod(file, 0o600);
    return credentials;
  }
}

/** PocketBase + (mail catcher) + gateway, seeded: what `npm start`, `npm run dev` and the e2e tests run. */
export async function startStack(options: StackOptions): Promise<Stack> {
  await mkdir(options.dataDir, { recursive: true });
  const bin = resolvePocketBaseBinary();
  const superuser = await superuserCredentials(options.dataDir);
  await upsertSuperuser(bin, options.dataDir, superuser.email, superuser.password);
  const pocketbase = await startPocketBase({
    bin,
    dataDir: options.dataDir,
    port: await freePort(options.pbPort),
    quiet: options.quiet,
  });

  let catcher: SmtpCatcher | null = null;
  try {
    if (!options.smtp) catcher = await new SmtpCatcher().start(0, 0);
    const port = await freePort(options.port);
    const host = options.host ?? "127.0.0.1";
    // The address printed, put in emails and used for cookies must be the one the server answers on.
    const publicUrl = options.publicUrl ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
    const config: GatewayConfig = {
      port,
      host,
      pbUrl: pocketbase.url,
      publicUrl,
      production: options.production ?? false,
      corsOrigins: [],
      webDist: options.webDist,
      superuser,
      smtp: options.smtp ?? {
        host: "127.0.0.1",
        port: catcher!.smtpPort,
        username: "",
        password: "",
        tls: false,
        senderAddress: "no-reply@flock.local",
      },
      trustProxy: false,
    };
    const system = new PocketBase(pocketbase.url);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    const seeded = options.demo ? await seedDemo(system) : "skipped";
    if (process.env.FLOCK_ADMIN_EMAIL && process.env.FLOCK_ADMIN_PASSWORD) {
      await ensureAdministrator(system, process.env.FLOCK_ADMIN_EMAIL, process.env.FLOCK_ADMIN_PASSWORD);
    }
    const gateway = createGateway(config);
    await prepareGateway(gateway);
    // As gateway/src/main.ts: the Markdown workers start now, not on the first page view.
    void markdownPool.warm();
    await gateway.listen();
    return {
      url: publicUrl,
      pbUrl: pocketbase.url,
      gateway,
      pocketbase,
      catcher,
      superuser,
      seeded,
      async stop() {
        await gateway.close();
        await pocketbase.stop();
        await catcher?.stop();
      },
    };
  } catch (error) {
    await pocketbase.stop();
    await catcher?.stop();
    throw error;
  }
}
