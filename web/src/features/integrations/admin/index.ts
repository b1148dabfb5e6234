// The integrations area of /admin (API tokens), re-exported for the router's lazy chunk.
export { AdminIntegrationsPage } from "./AdminIntegrationsPage.tsx";
