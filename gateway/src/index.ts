export { createGateway, prepareGateway, pocketBaseReady, type Gateway } from "./server.ts";
export { configFromEnv, type GatewayConfig } from "./config.ts";
export { CSRF_HEADER } from "./yoga.ts";
