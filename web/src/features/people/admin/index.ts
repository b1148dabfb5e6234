// People and households in /admin, re-exported for the router's lazy chunk.
export { AdminPeoplePage } from "./AdminPeoplePage.tsx";
export { AdminPersonPage } from "./AdminPersonPage.tsx";
export { AdminHouseholdPage } from "./AdminHouseholdPage.tsx";
