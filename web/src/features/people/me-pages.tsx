export { MeLayout } from "./MeLayout.tsx";
export { MePage } from "./MePage.tsx";
export { ProfilePage } from "./ProfilePage.tsx";
export { HouseholdPage } from "./HouseholdPage.tsx";
export { PrivacyPage } from "./PrivacyPage.tsx";
export { DataPage } from "./DataPage.tsx";
