export { AdminSermonsPage } from "./AdminSermonsPage.tsx";
export { AdminSermonEditorPage } from "./AdminSermonEditorPage.tsx";
export { AdminSermonLibraryPage } from "./AdminSermonLibraryPage.tsx";
