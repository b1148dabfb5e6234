// The staff groups screens: their own lazy chunk (never imported by the public pages).
export { AdminGroupsPage } from "./AdminGroupsPage.tsx";
