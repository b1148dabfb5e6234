// One lazy chunk for the public content routes (news and pages).
export { NewsPage } from "./NewsPage.tsx";
export { PostPage } from "./PostPage.tsx";
export { ContentPage } from "./ContentPage.tsx";
