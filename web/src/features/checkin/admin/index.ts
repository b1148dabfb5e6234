// The staff check-in screens (issue 28): their own lazy chunk, never imported by the station's pages.
export { AdminCheckinPage } from "./AdminCheckinPage.tsx";
export { AdminCheckinReportPage } from "./AdminCheckinReportPage.tsx";
