// Production entry point: configuration from the environment, then listen.
import { configFromEnv, createGateway, prepareGateway } from "./index.ts";
import { markdownPool } from "./markdown/pool.ts";

const gateway = createGateway(configFromEnv());
await prepareGateway(gateway);
// Start the Markdown workers now: the first page view should not wait for them to load.
void markdownPool.warm();
const url = await gateway.listen();
console.log(`Flock gateway listening on ${url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void gateway.close().then(() => process.exit(0));
  });
}
