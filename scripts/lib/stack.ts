import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import type { Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import type { Gateway, GatewayConfig } from "../../gateway/src/index.ts";
import { paymentsFromEnv, secretFromEnv } from "../../gateway/src/config.ts";
import { listenEarly, listeningPort } from "../../gateway/src/http/starting-server.ts";
import { lockDataDir } from "./instance-lock.ts";
import {
  resolvePocketBaseBinary,
  supervisePocketBase,
  upsertSuperuser,
  type SupervisedPocketBase,
} from "./pocketbase.ts";
import type { SmtpCatcher } from "./smtp-catcher.ts";
import {
  checkDatabaseFiles,
  checkFreeSpace,
  databaseInUse,
  portHolder,
  portInUse,
  prepareDataDir,
  StartupError,
} from "./startup-checks.ts";

export interface StackOptions {
  dataDir: string;
  /** Gateway port (0 = any free port). Bound before anything else; taken is an error, unless `portFallback`. */
  port: number;
  /**
   * `port` is only a default (PORT was not set): when another program holds it, the gateway takes the
   * next free port after it instead, and `Stack.portMovedFrom` says so.
   */
  portFallback?: boolean;
  /** PocketBase port (0 = any free port). */
  pbPort: number;
  /** `pbPort` is only a default (PB_PORT was not set): a free one is taken when it is held. */
  pbPortFallback?: boolean;
  host?: string;
  webDist: string | null;
  demo: boolean;
  production?: boolean;
  publicUrl?: string;
  /** Use this SMTP server instead of starting a local catcher. */
  smtp?: GatewayConfig["smtp"];
  /** Trust X-Forwarded-For from a reverse proxy (TRUST_PROXY). */
  trustProxy?: boolean;
  /** Where resumable audio uploads are staged (UPLOAD_DIR), and the most they may take (UPLOAD_DIR_MAX_BYTES). */
  uploadDir?: string;
  uploadDirMaxBytes?: number;
  quiet?: boolean;
  /** Progress and supervision lines (start-up steps, the first seed, PocketBase restarts). */
  log?: (line: string) => void;
}

export interface Stack {
  url: string;
  pbUrl: string;
  gateway: Gateway;
  /** Restarted when it stops on its own (scripts/lib/pocketbase.ts, supervisePocketBase). */
  pocketbase: SupervisedPocketBase;
  catcher: SmtpCatcher | null;
  superuser: { email: string; password: string };
  seeded: "seeded" | "already-seeded" | "skipped";
  /** The default port the gateway could not have and who holds it, when it moved (`portFallback`). */
  portMovedFrom: { port: number; holder: string | null } | null;
  stop(): Promise<void>;
}

function probe(port: number, host = "127.0.0.1"): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: chosen } = server.address() as { port: number };
      server.close(() => resolve(chosen));
    });
  });
}

/** `preferred` when it is free, else any free port (tests and scripts that need one). */
export async function freePort(preferred = 0): Promise<number> {
  try {
    return await probe(preferred);
  } catch {
    return probe(0);
  }
}

/**
 * The system superuser: PB_SUPERUSER_EMAIL with PB_SUPERUSER_PASSWORD or PB_SUPERUSER_PASSWORD_FILE
 * when set (production), else generated on first run and kept inside the data directory (mode 600),
 * so nothing secret is committed, printed or put on a command line.
 */
export async function superuserCredentials(
  dataDir: string,
  env = process.env,
): Promise<{ email: string; password: string }> {
  const password = secretFromEnv(env, "PB_SUPERUSER_PASSWORD");
  if (env.PB_SUPERUSER_EMAIL && password) return { email: env.PB_SUPERUSER_EMAIL, password };
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

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * The gateway's port, bound now (answering "starting" until the gateway takes it over), so that it is
 * neither found taken after a minute of migrations and seeding nor taken by someone else meanwhile.
 */
async function reserveGatewayPort(
  port: number,
  host: string,
  fallback: boolean,
): Promise<{ server: HttpServer; movedFrom: Stack["portMovedFrom"] }> {
  const explain = async (error: unknown, tried: number): Promise<never> => {
    const code = errorCode(error);
    if (code === "EADDRINUSE") throw await portInUse(tried, "PORT");
    if (code === "EACCES")
      throw new StartupError(
        `Port ${tried} needs administrator rights (ports below 1024 do): set PORT to 1024 or above, and put a reverse proxy in front for port 80 or 443.`,
      );
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
      throw new StartupError(
        `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1 for this computer only, 0.0.0.0 for every network).`,
      );
    throw error;
  };
  try {
    return { server: await listenEarly(port, host), movedFrom: null };
  } catch (error) {
    if (!fallback || port === 0 || errorCode(error) !== "EADDRINUSE") return explain(error, port);
  }
  const holder = await portHolder(port);
  // The next ports first: an address like :3001 is easier to type and to recognise than a random one.
  for (const next of [...Array.from({ length: 10 }, (_, i) => port + 1 + i), 0]) {
    try {
      return { server: await listenEarly(next, host), movedFrom: { port, holder } };
    } catch (error) {
      if (errorCode(error) !== "EADDRINUSE") return explain(error, next);
    }
  }
  throw await portInUse(port, "PORT");
}

async function choosePocketBasePort(port: number, fallback: boolean): Promise<number> {
  try {
    return await probe(port);
  } catch (error) {
    if (errorCode(error) !== "EADDRINUSE") throw error;
    if (!fallback) throw await portInUse(port, "PB_PORT", "PocketBase's port");
    return probe(0);
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * PocketBase + (mail catcher) + gateway, seeded: what `npm start`, `npm run dev` and the e2e tests run.
 * The checks, the lock and the port come first, before the gateway's and the seed's modules are even
 * loaded (seconds on a busy machine), so that a start that cannot succeed says why at once.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const log = options.log ?? (() => {});
  const { dataDir } = options;
  await prepareDataDir(dataDir);
  await checkFreeSpace(dataDir);
  const lock = await lockDataDir(dataDir);
  // Undone in reverse order when a later step fails.
  const undo: Array<() => Promise<unknown>> = [() => lock.release()];
  const rollback = async () => {
    for (const step of undo.reverse()) await step().catch(() => undefined);
  };
  try {
    const host = options.host ?? "127.0.0.1";
    const reserved = await reserveGatewayPort(options.port, host, options.portFallback ?? false);
    undo.push(() => closeServer(reserved.server));
    const port = listeningPort(reserved.server);
    // The address printed, put in emails and used for cookies must be the one the server answers on.
    const publicUrl = options.publicUrl ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
    lock.setUrl(publicUrl);

    await checkDatabaseFiles(dataDir);
    const inUse = await databaseInUse(dataDir);
    if (inUse) throw inUse;
    const bin = resolvePocketBaseBinary();
    const superuser = await superuserCredentials(dataDir);
    // Also the first to open the database: a damaged one is refused here (about 0.3 s).
    await upsertSuperuser(bin, dataDir, superuser.email, superuser.password, { timeoutMs: 30_000 });
    // Loaded while PocketBase starts (another process): the start is not delayed by their seconds.
    // Not before the checks above: on Node 24 tsx compiles them on this thread, which held a refused
    // start's explanation (an unreadable secret file, a damaged database) 9.7–12 s on a loaded
    // two-core machine, against 1.8–2.1 s now.
    const modules = Promise.all([
      import("pocketbase"),
      import("../../gateway/src/index.ts"),
      import("../../gateway/src/markdown/pool.ts"),
      import("./smtp-catcher.ts"),
      import("./seed.ts"),
    ]);
    // Awaited below; a failure before then must not surface as an unhandled rejection.
    modules.catch(() => undefined);
    const pocketbase = await supervisePocketBase({
      bin,
      dataDir,
      port: await choosePocketBasePort(options.pbPort, options.pbPortFallback ?? false),
      quiet: options.quiet,
      diagnose: (pid) => databaseInUse(dataDir, pid ? [pid] : []),
      onStillWaiting: (seconds) =>
        log(`  Still starting PocketBase (${seconds} s): a first start applies every migration.`),
      log: (line) => log(`  ${line}`),
    });
    undo.push(() => pocketbase.stop());

    const [
      { default: PocketBase },
      { createGateway, prepareGateway },
      { markdownPool },
      { SmtpCatcher },
      seed,
    ] = await modules;
    let catcher: SmtpCatcher | null = null;
    if (!options.smtp) {
      catcher = await new SmtpCatcher().start(0, 0);
      undo.push(() => catcher!.stop());
    }
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
      trustProxy: options.trustProxy ?? false,
      ...(options.uploadDir ? { uploadDir: options.uploadDir } : {}),
      ...(options.uploadDirMaxBytes ? { uploadDirMaxBytes: options.uploadDirMaxBytes } : {}),
      // Online giving, as the production gateway reads it (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET).
      payments: paymentsFromEnv(process.env),
      // Who may scrape /metrics from elsewhere, as the production gateway reads it (else this machine only).
      metricsToken: secretFromEnv(process.env, "METRICS_TOKEN") ?? null,
    };
    const system = new PocketBase(pocketbase.url);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    const seeded = options.demo
      ? await seed.seedDemo(system, (step, index, total) =>
          log(`  Creating the demo church (first start only): ${step} (${index}/${total})…`),
        )
      : "skipped";
    if (process.env.FLOCK_ADMIN_EMAIL) {
      const adminPassword = secretFromEnv(process.env, "FLOCK_ADMIN_PASSWORD");
      if (adminPassword) await seed.ensureAdministrator(system, process.env.FLOCK_ADMIN_EMAIL, adminPassword);
    }
    const gateway = createGateway(config, { server: reserved.server });
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
      portMovedFrom: reserved.movedFrom,
      async stop() {
        await gateway.close();
        await pocketbase.stop();
        await catcher?.stop();
        await lock.release();
      },
    };
  } catch (error) {
    await rollback();
    throw error;
  }
}
