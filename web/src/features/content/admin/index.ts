// The content area of /admin (pages, news, media library), re-exported for the router's lazy chunk.
export { AdminNewsPage } from "./AdminNewsPage.tsx";
export { AdminPagesPage } from "./AdminPagesPage.tsx";
export { AdminPostEditorPage } from "./AdminPostEditorPage.tsx";
export { AdminPageEditorPage } from "./AdminPageEditorPage.tsx";
export { AdminMediaPage } from "./AdminMediaPage.tsx";
