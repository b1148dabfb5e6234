export { DirectoryPage } from "./DirectoryPage.tsx";
export { DirectoryPersonPage } from "./DirectoryPersonPage.tsx";
