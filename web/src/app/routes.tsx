import { lazy, Suspense, type ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "../components/Layout.tsx";
import { Loading } from "../components/Loading.tsx";
import { HomePage } from "../features/home/HomePage.tsx";
import { NotFoundPage } from "../features/errors/NotFoundPage.tsx";
import { ADMIN_PERMISSIONS, RequirePermission, RequireViewer } from "./guards.tsx";
import { useAppShell } from "./AppShell.generated.ts";
import type { Permission } from "../gql/types.ts";

/** /admin opens the first section this user may use. */
function AdminHome() {
  const { data } = useAppShell();
  const can = (p: Permission) => !!data?.viewer?.permissions.includes(p);
  const people = can("PEOPLE_VIEW") || can("PEOPLE_MANAGE");
  const prayer = can("PRAYER_MODERATE") || can("PRAYER_VIEW_PASTORAL");
  const section = can("SETTINGS_MANAGE") ? "settings" : can("CONTENT_EDIT") ? "news" : can("SERMONS_MANAGE") ? "sermons" : can("EVENTS_MANAGE") ? "events" : can("MEDIA_MANAGE") ? "media" : can("ROLES_MANAGE") ? "users" : people ? "people" : prayer ? "prayer" : "settings";
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
const publicContent = () => import("../features/news/public-content.tsx");
const admin = () => import("../features/admin/pages.tsx");
const adminPeople = () => import("../features/admin/people/index.ts");
const adminVisits = () => import("../features/admin/visits/index.ts");
const PEOPLE_STAFF: Permission[] = ["PEOPLE_VIEW", "PEOPLE_MANAGE"];
const me = () => import("../features/me/pages.tsx");
const directory = () => import("../features/directory/pages.tsx");
const prayer = () => import("../features/prayer/PrayerPage.tsx");
const adminPrayer = () => import("../features/admin/prayer/AdminPrayerPage.tsx");
const PRAYER_STAFF: Permission[] = ["PRAYER_MODERATE", "PRAYER_VIEW_PASTORAL"];
// Sermons: public pages and the staff screens, each its own chunk.
const sermons = () => import("../features/sermons/pages.tsx");
const adminSermons = () => import("../features/admin/sermons/index.ts");
const SERMON_STAFF: Permission[] = ["SERMONS_MANAGE"];
// Events: public pages and the staff screens, each its own chunk.
const events = () => import("../features/events/pages.tsx");
const adminEvents = () => import("../features/events/admin/AdminEventsPages.tsx");
const EVENT_STAFF: Permission[] = ["EVENTS_MANAGE"];

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
        <Route path="visit" element={lazyPage(() => import("../features/visit/VisitPage.tsx"), (m) => m.VisitPage)} />
        <Route path="me" element={<RequireViewer>{lazyPage(me, (m) => m.MeLayout)}</RequireViewer>}>
          <Route index element={lazyPage(me, (m) => m.MePage)} />
          <Route path="profile" element={lazyPage(me, (m) => m.ProfilePage)} />
          <Route path="household" element={lazyPage(me, (m) => m.HouseholdPage)} />
          <Route path="privacy" element={lazyPage(me, (m) => m.PrivacyPage)} />
          <Route path="data" element={lazyPage(me, (m) => m.DataPage)} />
          <Route path="notifications" element={lazyPage(() => import("../features/notifications/NotificationsPage.tsx"), (m) => m.NotificationsPage)} />
        </Route>
        {/* Signed-in users only; the pages themselves explain why a pending sign-up can't see it yet. */}
        <Route path="directory" element={<RequireViewer>{lazyPage(directory, (m) => m.DirectoryPage)}</RequireViewer>} />
        <Route path="directory/:id" element={<RequireViewer>{lazyPage(directory, (m) => m.DirectoryPersonPage)}</RequireViewer>} />
        <Route path="admin" element={<RequirePermission anyOf={ADMIN_PERMISSIONS}>{lazyPage(admin, (m) => m.AdminLayout)}</RequirePermission>}>
          <Route index element={<AdminHome />} />
          <Route path="settings" element={<RequirePermission anyOf={["SETTINGS_MANAGE"]}>{lazyPage(admin, (m) => m.AdminSettingsPage)}</RequirePermission>} />
          <Route path="users" element={<RequirePermission anyOf={["ROLES_MANAGE"]}>{lazyPage(admin, (m) => m.AdminUsersPage)}</RequirePermission>} />
          <Route path="news" element={<RequirePermission anyOf={["CONTENT_EDIT"]}>{lazyPage(admin, (m) => m.AdminNewsPage)}</RequirePermission>} />
          <Route path="news/:id" element={<RequirePermission anyOf={["CONTENT_EDIT"]}>{lazyPage(admin, (m) => m.AdminPostEditorPage)}</RequirePermission>} />
          <Route path="pages" element={<RequirePermission anyOf={["CONTENT_EDIT"]}>{lazyPage(admin, (m) => m.AdminPagesPage)}</RequirePermission>} />
          <Route path="pages/:id" element={<RequirePermission anyOf={["CONTENT_EDIT"]}>{lazyPage(admin, (m) => m.AdminPageEditorPage)}</RequirePermission>} />
          <Route path="media" element={<RequirePermission anyOf={["CONTENT_EDIT", "MEDIA_MANAGE"]}>{lazyPage(admin, (m) => m.AdminMediaPage)}</RequirePermission>} />
          <Route path="people" element={<RequirePermission anyOf={PEOPLE_STAFF}>{lazyPage(adminPeople, (m) => m.AdminPeoplePage)}</RequirePermission>} />
          <Route path="people/:id" element={<RequirePermission anyOf={PEOPLE_STAFF}>{lazyPage(adminPeople, (m) => m.AdminPersonPage)}</RequirePermission>} />
          <Route path="households/:id" element={<RequirePermission anyOf={PEOPLE_STAFF}>{lazyPage(adminPeople, (m) => m.AdminHouseholdPage)}</RequirePermission>} />
          <Route path="visits" element={<RequirePermission anyOf={PEOPLE_STAFF}>{lazyPage(adminVisits, (m) => m.AdminVisitsPage)}</RequirePermission>} />
          {/* Events */}
          <Route path="events" element={<RequirePermission anyOf={EVENT_STAFF}>{lazyPage(adminEvents, (m) => m.AdminEventsPage)}</RequirePermission>} />
          <Route path="events/:id" element={<RequirePermission anyOf={EVENT_STAFF}>{lazyPage(adminEvents, (m) => m.AdminEventEditorPage)}</RequirePermission>} />
          {/* Sermons */}
          <Route path="sermons" element={<RequirePermission anyOf={SERMON_STAFF}>{lazyPage(adminSermons, (m) => m.AdminSermonsPage)}</RequirePermission>} />
          <Route path="sermons/library" element={<RequirePermission anyOf={SERMON_STAFF}>{lazyPage(adminSermons, (m) => m.AdminSermonLibraryPage)}</RequirePermission>} />
          <Route path="sermons/:id" element={<RequirePermission anyOf={SERMON_STAFF}>{lazyPage(adminSermons, (m) => m.AdminSermonEditorPage)}</RequirePermission>} />
          <Route path="prayer" element={<RequirePermission anyOf={PRAYER_STAFF}>{lazyPage(adminPrayer, (m) => m.AdminPrayerPage)}</RequirePermission>} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
