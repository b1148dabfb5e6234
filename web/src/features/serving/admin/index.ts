// The staff serving screens (issue 27): their own lazy chunk, never imported by the volunteer's pages.
export { AdminServingPage } from "./AdminServingPage.tsx";
export { AdminServingTeamPage } from "./AdminServingTeamPage.tsx";
export { AdminServingSchedulePage } from "./AdminServingSchedulePage.tsx";
export { AdminServingPlansPage } from "./AdminServingPlansPage.tsx";
export { AdminServingPlanPage } from "./AdminServingPlanPage.tsx";
