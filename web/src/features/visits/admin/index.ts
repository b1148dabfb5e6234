// Visit requests in /admin, re-exported for the router's lazy chunk.
export { AdminVisitsPage } from "./AdminVisitsPage.tsx";
