// Production entry point: configuration from the environment, the port bound, then ready, then served.
import { ConfigurationError, configFromEnv, createGateway, listenEarly, prepareGateway } from "./index.ts";
import { markdownPool } from "./markdown/pool.ts";

async function start() {
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
  await prepareGateway(gateway);
  // Start the Markdown workers now: the first page view should not wait for them to load.
  void markdownPool.warm();
  return { gateway, url: await gateway.listen() };
}

try {
  const { gateway, url } = await start();
  console.log(`Flock gateway listening on ${url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void gateway.close().then(() => process.exit(0));
    });
  }
} catch (error) {
  // A setting to fix is one sentence; anything else keeps its stack (it names no secret: the
  // configuration's values are never part of an error).
  console.error(
    `Flock gateway could not start: ${error instanceof ConfigurationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
}
