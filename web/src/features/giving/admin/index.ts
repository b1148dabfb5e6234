// The treasurer's giving screens (issue 29): their own lazy chunk, never in a visitor's or member's load.
import "../../../styles/staff.css";
import "./admin-giving.css";
export { AdminGivingPage } from "./AdminGivingPage.tsx";
export { AdminGivingBatchPage } from "./AdminGivingBatchPage.tsx";
export { AdminGivingReportsPage } from "./AdminGivingReportsPage.tsx";
export { AdminGivingImportPage } from "./AdminGivingImportPage.tsx";
