import { Route, Routes } from "react-router";
import { Layout } from "./Layout.tsx";
import { NotFoundPage } from "../features/errors/NotFoundPage.tsx";
import { RequireViewer } from "./guards.tsx";
import { lazyPage } from "./lazyPage.tsx";
import { withMessages } from "./withMessages.ts";

// Each page's chunk with the message catalogs its screens read (i18n/catalogs.ts), fetched together.
const home = withMessages(
  ["home", "news", "sermons", "events"],
  () => import("../features/home/HomePage.tsx"),
);
const auth = withMessages(["auth"], () => import("../features/auth/pages.tsx"));
const publicContent = withMessages(["news"], () => import("../features/content/public-content.tsx"));
const me = withMessages(
  ["me", "people", "directory", "events"],
  () => import("../features/people/me-pages.tsx"),
);
const directory = withMessages(
  ["directory", "people"],
  () => import("../features/people/directory-pages.tsx"),
);
const prayer = withMessages(["prayer"], () => import("../features/prayer/PrayerPage.tsx"));
const sermons = withMessages(["sermons"], () => import("../features/sermons/pages.tsx"));
const events = withMessages(["events"], () => import("../features/events/pages.tsx"));
const eventPages = withMessages(["events"], () => import("../features/events/event-pages.tsx"));
const groups = withMessages(["groups"], () => import("../features/groups/pages.tsx"));
const serving = withMessages(["serving"], () => import("../features/serving/pages.tsx"));
const checkin = withMessages(["checkin"], () => import("../features/checkin/pages.tsx"));
const give = withMessages(["give"], () => import("../features/giving/give.tsx"));
const giving = withMessages(["giving", "give"], () => import("../features/giving/pages.tsx"));
const servingPlan = withMessages(["serving"], () => import("../features/serving/PlanPage.tsx"));
// A team leader who is not staff schedules their team under My serving, on the staff screens.
const servingLeader = withMessages(
  ["admin", "admin-serving"],
  () => import("../features/serving/admin/index.ts"),
);
const visit = withMessages(["visit", "home"], () => import("../features/visits/VisitPage.tsx"));
const developers = withMessages(["home"], () => import("../features/integrations/DevelopersPage.tsx"));
const notifications = withMessages(
  ["notifications"],
  () => import("../features/notifications/NotificationsPage.tsx"),
);
// The staff area: its route table, guards and screens are chunks of their own (admin-routes.tsx).
const adminRoutes = withMessages(["admin"], () => import("./admin-routes.tsx"));

/**
 * The chunk of the page a browser opens first, fetched at start-up in parallel with the shell's
 * query: the page itself renders only once the shell (viewer, settings) has arrived, and fetching its
 * chunk only then cost a round trip on every first load (Lighthouse LCP). By first path segment (an
 * event's own page, /events/<slug>, by the second: it is a chunk of its own); pages not listed load when
 * rendered, as before.
 */
const FIRST_LOAD: Record<string, () => Promise<unknown>> = {
  "": home,
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
  visit,
  // A link to /give in a newsletter or on a slide is many a visitor's first page.
  give,
};

export function preloadFirstPage(pathname: string): void {
  const [, first = "", second] = pathname.split("/");
  const load = first === "events" && second ? eventPages : FIRST_LOAD[first];
  if (load) void load().catch(() => undefined); // offline or a new deploy: the route's own import reports it
}

// Declarative routes (React Router's library mode): the data router would add ~17 KB gzip to
// every visitor's first load for loaders we don't use; data comes from Apollo.
export function AppRoutes() {
  return (
    <Routes>
      {/*
        A check-in station is a kiosk: the church's name and the station, nothing of the site around it.
        No sign-in: a registered device acts as its station; the page asks anyone else for a pairing code.
      */}
      <Route path="checkin" element={lazyPage(checkin, (m) => m.CheckinStationPage)} />
      <Route element={<Layout />}>
        <Route index element={lazyPage(home, (m) => m.HomePage)} />
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
        <Route
          path="events/registration/:token"
          element={lazyPage(eventPages, (m) => m.RegistrationLinkPage)}
        />
        <Route path="events/:slug" element={lazyPage(eventPages, (m) => m.EventPage)} />
        <Route path="groups" element={lazyPage(groups, (m) => m.GroupsPage)} />
        <Route path="groups/:slug" element={lazyPage(groups, (m) => m.GroupPage)} />
        <Route path="serving/answer/:id" element={lazyPage(serving, (m) => m.ServingAnswerPage)} />
        <Route
          path="serving/plans/:id"
          element={<RequireViewer>{lazyPage(servingPlan, (m) => m.ServingPlanPage)}</RequireViewer>}
        />
        <Route
          path="checkin/rooms/:sessionId/:roomId"
          element={<RequireViewer>{lazyPage(checkin, (m) => m.CheckinRoomPage)}</RequireViewer>}
        />
        <Route path="give" element={lazyPage(give, (m) => m.GivePage)} />
        <Route path="give/thanks" element={lazyPage(give, (m) => m.GiveThanksPage)} />
        <Route path="visit" element={lazyPage(visit, (m) => m.VisitPage)} />
        <Route path="developers" element={lazyPage(developers, (m) => m.DevelopersPage)} />
        <Route path="me" element={<RequireViewer>{lazyPage(me, (m) => m.MeLayout)}</RequireViewer>}>
          <Route index element={lazyPage(me, (m) => m.MePage)} />
          <Route path="profile" element={lazyPage(me, (m) => m.ProfilePage)} />
          <Route path="household" element={lazyPage(me, (m) => m.HouseholdPage)} />
          <Route path="privacy" element={lazyPage(me, (m) => m.PrivacyPage)} />
          <Route path="data" element={lazyPage(me, (m) => m.DataPage)} />
          <Route path="notifications" element={lazyPage(notifications, (m) => m.NotificationsPage)} />
          <Route path="serving" element={lazyPage(serving, (m) => m.MyServingPage)} />
          <Route path="checkins" element={lazyPage(checkin, (m) => m.MyCheckinsPage)} />
          <Route path="giving" element={lazyPage(giving, (m) => m.MyGivingPage)} />
          <Route path="serving/teams/:id" element={lazyPage(servingLeader, (m) => m.AdminServingTeamPage)} />
          <Route
            path="serving/schedule"
            element={lazyPage(servingLeader, (m) => m.AdminServingSchedulePage)}
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
        <Route path="admin/*" element={lazyPage(adminRoutes, (m) => m.AdminRoutes)} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
