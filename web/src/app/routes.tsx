import { lazy, Suspense, type ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "./Layout.tsx";
import { Loading } from "../components/Loading.tsx";
import { HomePage } from "../features/home/HomePage.tsx";
import { NotFoundPage } from "../features/errors/NotFoundPage.tsx";
import { RequireAbility, RequireViewer } from "./guards.tsx";
import { useAbilities } from "../lib/abilities.ts";

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
                      : "settings";
  return <Navigate to={section} replace />;
}

/** Each area is its own chunk: visitors download only the public pages. */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

const auth = () => import("../features/auth/pages.tsx");
const publicContent = () => import("../features/content/public-content.tsx");
const admin = () => import("../features/admin/pages.tsx");
const adminContent = () => import("../features/content/admin/index.ts");
const adminPeople = () => import("../features/people/admin/index.ts");
const adminVisits = () => import("../features/visits/admin/index.ts");
const me = () => import("../features/people/me-pages.tsx");
const directory = () => import("../features/people/directory-pages.tsx");
const prayer = () => import("../features/prayer/PrayerPage.tsx");
const adminPrayer = () => import("../features/prayer/admin/AdminPrayerPage.tsx");
// Sermons: public pages and the staff screens, each its own chunk.
const sermons = () => import("../features/sermons/pages.tsx");
const adminSermons = () => import("../features/sermons/admin/index.ts");
// Events: public pages and the staff screens, each its own chunk.
const events = () => import("../features/events/pages.tsx");
const adminEvents = () => import("../features/events/admin/AdminEventsPages.tsx");
const adminIntegrations = () => import("../features/integrations/admin/index.ts");
// Groups: the finder and group pages, and the staff screens, each its own chunk.
const groups = () => import("../features/groups/pages.tsx");
const adminGroups = () => import("../features/groups/admin/index.ts");

/**
 * The chunk of the page a browser opens first, fetched at start-up in parallel with the shell's
 * query: the page itself renders only once the shell (viewer, settings) has arrived, and fetching its
 * chunk only then cost a round trip on every first load (Lighthouse LCP). By first path segment;
 * pages not listed load when rendered, as before.
 */
const FIRST_LOAD: Record<string, () => Promise<unknown>> = {
  news: publicContent,
  p: publicContent,
  login: auth,
  signup: auth,
  prayer,
  sermons,
  series: sermons,
  speakers: sermons,
  events,
  groups,
  me,
  directory,
};

export function preloadFirstPage(pathname: string): void {
  const load = FIRST_LOAD[pathname.split("/")[1] ?? ""];
  if (load) void load().catch(() => undefined); // offline or a new deploy: the route's own import reports it
}

// Declarative routes (React Router's library mode): the data router would add ~17 KB gzip to
// every visitor's first load for loaders we don't use; data comes from Apollo.
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="news" element={lazyPage(publicContent, (m) => m.NewsPage)} />
        <Route path="news/:slug" element={lazyPage(publicContent, (m) => m.PostPage)} />
        <Route path="p/:slug" element={lazyPage(publicContent, (m) => m.ContentPage)} />
        <Route path="login" element={lazyPage(auth, (m) => m.SignInPage)} />
        <Route path="signup" element={lazyPage(auth, (m) => m.SignUpPage)} />
        <Route path="forgot-password" element={lazyPage(auth, (m) => m.ForgotPasswordPage)} />
        <Route path="reset-password" element={lazyPage(auth, (m) => m.ResetPasswordPage)} />
        <Route path="verify-email" element={lazyPage(auth, (m) => m.VerifyEmailPage)} />
        <Route path="prayer" element={lazyPage(prayer, (m) => m.PrayerPage)} />
        <Route path="prayer/:id" element={lazyPage(prayer, (m) => m.PrayerRequestPage)} />
        {/* Sermons */}
        <Route path="sermons" element={lazyPage(sermons, (m) => m.SermonsPage)} />
        <Route path="sermons/:slug" element={lazyPage(sermons, (m) => m.SermonPage)} />
        <Route path="series/:slug" element={lazyPage(sermons, (m) => m.SeriesPage)} />
        <Route path="speakers/:slug" element={lazyPage(sermons, (m) => m.SpeakerPage)} />
        {/* Events */}
        <Route path="events" element={lazyPage(events, (m) => m.EventsPage)} />
        <Route path="events/registration/:token" element={lazyPage(events, (m) => m.RegistrationLinkPage)} />
        <Route path="events/:slug" element={lazyPage(events, (m) => m.EventPage)} />
        <Route path="groups" element={lazyPage(groups, (m) => m.GroupsPage)} />
        <Route path="groups/:slug" element={lazyPage(groups, (m) => m.GroupPage)} />
        <Route
          path="visit"
          element={lazyPage(
            () => import("../features/visits/VisitPage.tsx"),
            (m) => m.VisitPage,
          )}
        />
        <Route path="me" element={<RequireViewer>{lazyPage(me, (m) => m.MeLayout)}</RequireViewer>}>
          <Route index element={lazyPage(me, (m) => m.MePage)} />
          <Route path="profile" element={lazyPage(me, (m) => m.ProfilePage)} />
          <Route path="household" element={lazyPage(me, (m) => m.HouseholdPage)} />
          <Route path="privacy" element={lazyPage(me, (m) => m.PrivacyPage)} />
          <Route path="data" element={lazyPage(me, (m) => m.DataPage)} />
          <Route
            path="notifications"
            element={lazyPage(
              () => import("../features/notifications/NotificationsPage.tsx"),
              (m) => m.NotificationsPage,
            )}
          />
        </Route>
        {/* Signed-in users only; the pages themselves explain why a pending sign-up can't see it yet. */}
        <Route
          path="directory"
          element={<RequireViewer>{lazyPage(directory, (m) => m.DirectoryPage)}</RequireViewer>}
        />
        <Route
          path="directory/:id"
          element={<RequireViewer>{lazyPage(directory, (m) => m.DirectoryPersonPage)}</RequireViewer>}
        />
        <Route
          path="admin"
          element={
            <RequireAbility ability="useAdmin">{lazyPage(admin, (m) => m.AdminLayout)}</RequireAbility>
          }
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
              <RequireAbility ability="manageRoles">
                {lazyPage(admin, (m) => m.AdminUsersPage)}
              </RequireAbility>
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
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
