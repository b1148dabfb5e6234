// Production entry point: configuration from the environment, then listen.
import { configFromEnv, createGateway, prepareGateway } from "./index.ts";

const gateway = createGateway(configFromEnv());
await prepareGateway(gateway);
const url = await gateway.listen();
console.log(`Flock gateway listening on ${url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void gateway.close().then(() => process.exit(0));
  });
}
