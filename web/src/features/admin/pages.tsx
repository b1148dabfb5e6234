// The admin shell's own screens (layout, settings, users): one lazy chunk. Each feature's staff screens
// are their own chunks (features/<feature>/admin/index.ts), loaded by app/routes.tsx.
export { AdminLayout } from "./AdminLayout.tsx";
export { AdminSettingsPage } from "./AdminSettingsPage.tsx";
export { AdminUsersPage } from "./AdminUsersPage.tsx";
