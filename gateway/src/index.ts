export { createGateway, prepareGateway, pocketBaseReady, type Gateway } from "./server.ts";
export { ConfigurationError, configFromEnv, secretFromEnv, type GatewayConfig } from "./config.ts";
export { listenEarly, listeningPort } from "./http/starting-server.ts";
export { CSRF_HEADER } from "./yoga.ts";
