// Production entry point: configuration from the environment, the port bound, then ready, then served.
import {
  ConfigurationError,
  configFromEnv,
  createGateway,
  listenEarly,
  pocketBaseReady,
  prepareGateway,
} from "./index.ts";
import { markdownPool } from "./markdown/pool.ts";
import { configureLog, log, logFormatFromEnv, routeConsoleToLog } from "./observability/log.ts";

// JSON lines from the first line on (LOG_FORMAT, else json in production); a LOG_FORMAT it does not know
// stops the start (below), said in the default format for the environment.
const format = logFormatFromEnv(process.env) ?? (process.env.NODE_ENV === "production" ? "json" : "text");
configureLog(format);
// A library's or a job's console line must not break the one-object-per-line stream.
if (format === "json") routeConsoleToLog();

/** PocketBase may still be starting (a restart of both containers): wait a minute, saying so, then explain. */
async function waitForPocketBase(pbUrl: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  let said = 0;
  while (!(await pocketBaseReady(pbUrl))) {
    const waited = Date.now() - started;
    if (waited > timeoutMs)
      throw new ConfigurationError(
        `PocketBase is not reachable at ${pbUrl} (PB_URL) after ${timeoutMs / 1000} s: start it (docker compose logs pocketbase says why it is not up), or correct PB_URL.`,
      );
    if (waited - said >= 10_000) {
      said = waited;
      log.info(`Waiting for PocketBase at ${pbUrl} (${Math.round(waited / 1000)} s)…`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function start() {
  if (!logFormatFromEnv(process.env))
    throw new ConfigurationError(`LOG_FORMAT must be json or text; it is "${process.env.LOG_FORMAT}".`);
  const config = configFromEnv();
  // Bound first: a port another program holds is one clear line at once, not a stack trace after
  // PocketBase's settings were prepared; until ready, requests are answered 503 "starting".
  const server = await listenEarly(config.port, config.host).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE")
      throw new ConfigurationError(
        `Port ${config.port} is already in use: stop that program, or set PORT to a free port.`,
      );
    throw error;
  });
  const gateway = createGateway(config, { server });
  await waitForPocketBase(config.pbUrl);
  await prepareGateway(gateway);
  // Start the Markdown workers now: the first page view should not wait for them to load.
  void markdownPool.warm();
  return { gateway, url: await gateway.listen() };
}

try {
  const { gateway, url } = await start();
  log.info(`Flock gateway listening on ${url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void gateway.close().then(() => process.exit(0));
    });
  }
} catch (error) {
  // A setting to fix is one sentence; anything else keeps its stack (it names no secret: the
  // configuration's values are never part of an error).
  log.error(
    `Flock gateway could not start: ${error instanceof ConfigurationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
}
