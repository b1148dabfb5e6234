import { Navigate, Route, Routes } from "react-router";
import { NotFoundPage } from "../features/errors/NotFoundPage.tsx";
import { useAbilities } from "../lib/abilities.ts";
import { RequireAbility } from "./guards.tsx";
import { lazyPage } from "./lazyPage.tsx";
import { withMessages } from "./withMessages.ts";

// The staff area (/admin/…), a chunk of its own (app/routes.tsx loads it for /admin/*): visitors'
// first load carries neither its route table nor its guards. Each screen is its own chunk too.
const admin = withMessages(["admin", "home", "people"], () => import("../features/admin/pages.tsx"));
const adminContent = withMessages(
  ["admin", "admin-content"],
  () => import("../features/content/admin/index.ts"),
);
const adminPeople = withMessages(
  ["admin", "admin-people", "people"],
  () => import("../features/people/admin/index.ts"),
);
const adminVisits = withMessages(
  ["admin", "admin-visits"],
  () => import("../features/visits/admin/index.ts"),
);
const adminPrayer = withMessages(
  ["admin", "admin-prayer", "prayer"],
  () => import("../features/prayer/admin/AdminPrayerPage.tsx"),
);
// admin-content: the sermon editor's autosave panels (editor/autosave/) speak the post editor's words.
const adminSermons = withMessages(
  ["admin", "admin-sermons", "admin-content"],
  () => import("../features/sermons/admin/index.ts"),
);
const adminEvents = withMessages(
  ["admin", "admin-events", "events"],
  () => import("../features/events/admin/AdminEventsPages.tsx"),
);
const adminIntegrations = withMessages(
  ["admin", "admin-integrations"],
  () => import("../features/integrations/admin/index.ts"),
);
const adminGroups = withMessages(
  ["admin", "admin-groups", "groups"],
  () => import("../features/groups/admin/index.ts"),
);
const adminCheckin = withMessages(
  ["admin", "admin-checkin"],
  () => import("../features/checkin/admin/index.ts"),
);
const adminServing = withMessages(
  ["admin", "admin-serving"],
  () => import("../features/serving/admin/index.ts"),
);

const adminGiving = withMessages(
  ["admin", "admin-giving"],
  () => import("../features/giving/admin/index.ts"),
);

/** /admin opens the first section this user may use. */
function AdminHome() {
  const can = useAbilities();
  const section = can.manageSettings
    ? "settings"
    : can.editContent
      ? "news"
      : can.manageSermons
        ? "sermons"
        : can.manageEvents
          ? "events"
          : can.manageGroups
            ? "groups"
            : can.manageServing
              ? "serving"
              : can.useMediaLibrary
                ? "media"
                : can.manageRoles
                  ? "users"
                  : can.manageIntegrations
                    ? "integrations"
                    : can.viewPeople
                      ? "people"
                      : can.moderatePrayer
                        ? "prayer"
                        : can.operateCheckin
                          ? "checkin"
                          : can.viewGivingSummary
                            ? "giving"
                            : "settings";
  return <Navigate to={section} replace />;
}

// Created once: a lazy screen made anew on a re-render would remount (and lose what is being edited).
const routes = (
  <Routes>
    <Route
      element={<RequireAbility ability="useAdmin">{lazyPage(admin, (m) => m.AdminLayout)}</RequireAbility>}
    >
      <Route index element={<AdminHome />} />
      <Route
        path="settings"
        element={
          <RequireAbility ability="manageSettings">
            {lazyPage(admin, (m) => m.AdminSettingsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="users"
        element={
          <RequireAbility ability="manageRoles">{lazyPage(admin, (m) => m.AdminUsersPage)}</RequireAbility>
        }
      />
      <Route
        path="integrations"
        element={
          <RequireAbility ability="manageIntegrations">
            {lazyPage(adminIntegrations, (m) => m.AdminIntegrationsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="news"
        element={
          <RequireAbility ability="editContent">
            {lazyPage(adminContent, (m) => m.AdminNewsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="news/:id"
        element={
          <RequireAbility ability="editContent">
            {lazyPage(adminContent, (m) => m.AdminPostEditorPage)}
          </RequireAbility>
        }
      />
      <Route
        path="pages"
        element={
          <RequireAbility ability="editContent">
            {lazyPage(adminContent, (m) => m.AdminPagesPage)}
          </RequireAbility>
        }
      />
      <Route
        path="pages/:id"
        element={
          <RequireAbility ability="editContent">
            {lazyPage(adminContent, (m) => m.AdminPageEditorPage)}
          </RequireAbility>
        }
      />
      <Route
        path="media"
        element={
          <RequireAbility ability="useMediaLibrary">
            {lazyPage(adminContent, (m) => m.AdminMediaPage)}
          </RequireAbility>
        }
      />
      <Route
        path="people"
        element={
          <RequireAbility ability="viewPeople">
            {lazyPage(adminPeople, (m) => m.AdminPeoplePage)}
          </RequireAbility>
        }
      />
      <Route
        path="people/:id"
        element={
          <RequireAbility ability="viewPeople">
            {lazyPage(adminPeople, (m) => m.AdminPersonPage)}
          </RequireAbility>
        }
      />
      <Route
        path="households/:id"
        element={
          <RequireAbility ability="viewPeople">
            {lazyPage(adminPeople, (m) => m.AdminHouseholdPage)}
          </RequireAbility>
        }
      />
      <Route
        path="visits"
        element={
          <RequireAbility ability="viewPeople">
            {lazyPage(adminVisits, (m) => m.AdminVisitsPage)}
          </RequireAbility>
        }
      />
      {/* Events */}
      <Route
        path="events"
        element={
          <RequireAbility ability="manageEvents">
            {lazyPage(adminEvents, (m) => m.AdminEventsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="events/:id"
        element={
          <RequireAbility ability="manageEvents">
            {lazyPage(adminEvents, (m) => m.AdminEventEditorPage)}
          </RequireAbility>
        }
      />
      <Route
        path="groups"
        element={
          <RequireAbility ability="manageGroups">
            {lazyPage(adminGroups, (m) => m.AdminGroupsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="checkin"
        element={
          <RequireAbility ability="operateCheckin">
            {lazyPage(adminCheckin, (m) => m.AdminCheckinPage)}
          </RequireAbility>
        }
      />
      <Route
        path="checkin/reports"
        element={
          <RequireAbility ability="operateCheckin">
            {lazyPage(adminCheckin, (m) => m.AdminCheckinReportPage)}
          </RequireAbility>
        }
      />
      <Route
        path="giving"
        element={
          <RequireAbility ability="viewGivingSummary">
            {lazyPage(adminGiving, (m) => m.AdminGivingPage)}
          </RequireAbility>
        }
      />
      <Route
        path="giving/reports"
        element={
          <RequireAbility ability="viewGivingSummary">
            {lazyPage(adminGiving, (m) => m.AdminGivingReportsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="giving/import"
        element={
          <RequireAbility ability="viewGivingSummary">
            {lazyPage(adminGiving, (m) => m.AdminGivingImportPage)}
          </RequireAbility>
        }
      />
      <Route
        path="giving/batches/:id"
        element={
          <RequireAbility ability="viewGivingSummary">
            {lazyPage(adminGiving, (m) => m.AdminGivingBatchPage)}
          </RequireAbility>
        }
      />
      <Route
        path="serving"
        element={
          <RequireAbility ability="manageServing">
            {lazyPage(adminServing, (m) => m.AdminServingPage)}
          </RequireAbility>
        }
      />
      <Route
        path="serving/teams/:id"
        element={
          <RequireAbility ability="manageServing">
            {lazyPage(adminServing, (m) => m.AdminServingTeamPage)}
          </RequireAbility>
        }
      />
      <Route
        path="serving/schedule"
        element={
          <RequireAbility ability="manageServing">
            {lazyPage(adminServing, (m) => m.AdminServingSchedulePage)}
          </RequireAbility>
        }
      />
      <Route
        path="serving/plans"
        element={
          <RequireAbility ability="manageServing">
            {lazyPage(adminServing, (m) => m.AdminServingPlansPage)}
          </RequireAbility>
        }
      />
      <Route
        path="serving/plans/:id"
        element={
          <RequireAbility ability="manageServing">
            {lazyPage(adminServing, (m) => m.AdminServingPlanPage)}
          </RequireAbility>
        }
      />
      {/* Sermons */}
      <Route
        path="sermons"
        element={
          <RequireAbility ability="manageSermons">
            {lazyPage(adminSermons, (m) => m.AdminSermonsPage)}
          </RequireAbility>
        }
      />
      <Route
        path="sermons/library"
        element={
          <RequireAbility ability="manageSermons">
            {lazyPage(adminSermons, (m) => m.AdminSermonLibraryPage)}
          </RequireAbility>
        }
      />
      <Route
        path="sermons/:id"
        element={
          <RequireAbility ability="manageSermons">
            {lazyPage(adminSermons, (m) => m.AdminSermonEditorPage)}
          </RequireAbility>
        }
      />
      <Route
        path="prayer"
        element={
          <RequireAbility ability="moderatePrayer">
            {lazyPage(adminPrayer, (m) => m.AdminPrayerPage)}
          </RequireAbility>
        }
      />
    </Route>
    {/* As before the split: an unknown staff address is a plain "not found", whoever asks. */}
    <Route path="*" element={<NotFoundPage />} />
  </Routes>
);

/** The routes under /admin, as descendant routes of routes.tsx's `admin/*`. */
export function AdminRoutes() {
  return routes;
}
