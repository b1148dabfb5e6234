export { AdminLayout } from "./AdminLayout.tsx";
export { AdminSettingsPage } from "./AdminSettingsPage.tsx";
export { AdminUsersPage } from "./AdminUsersPage.tsx";
export { AdminNewsPage, AdminPagesPage, AdminPostEditorPage, AdminPageEditorPage, AdminMediaPage } from "../content/admin/index.ts";
