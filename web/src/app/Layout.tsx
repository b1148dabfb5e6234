import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import { useAppShell, useSetMyLocale, useSettingsChanged, useSignOut } from "../gql/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { LOCALES, type Locale } from "../i18n/format.ts";
import { accessibleBrandColor } from "../lib/color.ts";
import { Loading } from "../components/Loading.tsx";
import { ErrorBoundary } from "../features/errors/ErrorPage.tsx";
import { withMessages } from "./withMessages.ts";

// Below the fold, after the page: the footer's chunk loads once the church's settings are here.
const Footer = lazy(
  withMessages(["home"], () => import("../components/Footer.tsx").then((m) => ({ default: m.Footer }))),
);

// The bell is for signed-in people only: its chunk and messages load when there is one to show.
const NotificationBell = lazy(
  withMessages(["notifications"], () =>
    import("../features/notifications/NotificationBell.tsx").then((m) => ({ default: m.NotificationBell })),
  ),
);

/** The frame of every page: header with the church's name and logo, navigation, footer. */
export function Layout() {
  const { data, loading, refetch } = useAppShell();
  // Settings changes (an administrator renaming the church…) reach every open page live. Signed-in
  // people have an event stream open anyway (the bell); a visitor's page opens one only once it has
  // loaded and settled (an always-open stream kept the first load's network busy: Lighthouse and
  // "network idle" never settled), and then reads the settings once, in case they changed meanwhile.
  const settled = useSettledAfterLoad();
  const live = !!data?.viewer || settled;
  useSettingsChanged({ skip: !live });
  useEffect(() => {
    if (settled && !data?.viewer) void refetch().catch(() => undefined);
    // Once, when the page has settled (not on every viewer change).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  const location = useLocation();
  // The page and the footer follow the shell's data as deferred (interruptible) work: when the shell
  // arrives, the first render only swaps small things, and the page itself renders in slices that
  // yield to the browser instead of one long task (Total Blocking Time on phones).
  const ready = useDeferredValue(!(loading && !data));
  const settings = useDeferredValue(data?.settings);
  const brand = accessibleBrandColor(data?.settings?.brandColor ?? "");

  useEffect(() => {
    document.documentElement.style.setProperty("--brand", brand);
  }, [brand]);

  return (
    <div className="app">
      <SkipLink />
      <Header />
      <main id="main" tabIndex={-1} className="main">
        <ErrorBoundary resetKey={location.pathname}>{ready ? <Outlet /> : <Loading />}</ErrorBoundary>
      </main>
      {settings && (
        <Suspense fallback={null}>
          <Footer settings={settings} />
        </Suspense>
      )}
    </div>
  );
}

/** How long a visitor's page stays quiet after its load event before live settings start. */
const SETTLE_MS = 3000;

/** True once the window's load event has passed, SETTLE_MS have gone by and the browser is idle. */
function useSettledAfterLoad(): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let idle: number | undefined;
    const settle = () => {
      timer = setTimeout(() => {
        if ("requestIdleCallback" in window)
          idle = window.requestIdleCallback(() => setSettled(true), { timeout: 2000 });
        else setSettled(true);
      }, SETTLE_MS);
    };
    if (document.readyState === "complete") settle();
    else window.addEventListener("load", settle, { once: true });
    return () => {
      window.removeEventListener("load", settle);
      clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, []);
  return settled;
}

function SkipLink() {
  const { t } = useI18n();
  return (
    <a className="skip-link" href="#main">
      {t("app.skipToContent")}
    </a>
  );
}

function Header() {
  const { t } = useI18n();
  const { data } = useAppShell();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname]);
  // Escape closes the open phone menu (as a disclosure should) and gives focus back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);
  const settings = data?.settings;
  const viewer = data?.viewer;
  const isStaff = !!viewer?.can.useAdmin;

  return (
    <header className="header">
      <div className="header__inner container">
        {/* Until settings arrive the church's name is unknown: the link still says where it goes. */}
        <Link to="/" className="brand" aria-label={settings?.churchName ? undefined : t("nav.home")}>
          {settings?.logoUrl && <img src={settings.logoUrl} alt="" className="brand__logo" height={48} />}
          <span className="brand__name">{settings?.churchName ?? ""}</span>
        </Link>
        {/* Outside the collapsible menu: the unread count shows on phones too. Keyed by user so an
            account switch starts from that account's notifications. */}
        {viewer && (
          <Suspense fallback={<BellPlaceholder />}>
            <NotificationBell key={viewer.user.id} />
          </Suspense>
        )}
        <button
          ref={menuButton}
          type="button"
          className="header__menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span> {t("nav.menu")}
        </button>
        <nav id="site-nav" className={`nav${menuOpen ? " nav--open" : ""}`} aria-label={t("nav.main")}>
          <ul className="nav__links">
            <li>
              <NavLink to="/" end>
                {t("nav.home")}
              </NavLink>
            </li>
            <li>
              <NavLink to="/sermons">{t("nav.sermons")}</NavLink>
            </li>
            <li>
              <NavLink to="/events">{t("nav.events")}</NavLink>
            </li>
            <li>
              <NavLink to="/groups">{t("nav.groups")}</NavLink>
            </li>
            <li>
              <NavLink to="/news">{t("nav.news")}</NavLink>
            </li>
            <li>
              <NavLink to="/prayer">{t("nav.prayer")}</NavLink>
            </li>
            {data?.navigation.map((link) => (
              <li key={link.path}>
                <NavLink to={link.path}>{link.title}</NavLink>
              </li>
            ))}
            {viewer?.isMember ? (
              <li>
                <NavLink to="/directory">{t("nav.directory")}</NavLink>
              </li>
            ) : (
              <li>
                <NavLink to="/visit">{t("nav.planVisit")}</NavLink>
              </li>
            )}
          </ul>
          {/* The person's own places sit with the account's actions, not among the church's pages:
              the church's row keeps to one line at 1280 px for staff too. */}
          <div className="nav__actions">
            {viewer && (
              <NavLink to="/me" className="nav__own">
                {t("nav.myAccount")}
              </NavLink>
            )}
            {isStaff && (
              <NavLink to="/admin" className="nav__own">
                {t("nav.admin")}
              </NavLink>
            )}
            <LanguageSwitcher />
            {viewer ? <SignOutButton /> : <SignInLinks allowSignup={!!settings?.allowSignup} />}
          </div>
        </nav>
      </div>
    </header>
  );
}

/** The bell's room in the header while its chunk arrives: the header does not shift when it comes. */
function BellPlaceholder() {
  return (
    <div className="bell" aria-hidden="true">
      <span className="bell__button" />
    </div>
  );
}

function SignInLinks({ allowSignup }: { allowSignup: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <Link to="/login" className="button button--ghost">
        {t("nav.signIn")}
      </Link>
      {allowSignup && (
        <Link to="/signup" className="button">
          {t("nav.signUp")}
        </Link>
      )}
    </>
  );
}

function SignOutButton() {
  const { t } = useI18n();
  const client = useApolloClient();
  const navigate = useNavigate();
  const [signOut, { loading }] = useSignOut();
  return (
    <button
      type="button"
      className="button button--ghost"
      disabled={loading}
      onClick={async () => {
        try {
          await signOut();
        } finally {
          // Forget everything this account could see, then start over as a visitor.
          await client.clearStore();
          await client.refetchQueries({ include: ["AppShell"] });
          void navigate("/");
        }
      }}
    >
      {t("nav.signOut")}
    </button>
  );
}

function LanguageSwitcher() {
  const { t, locale, setLocale } = useI18n();
  const { data } = useAppShell();
  const [saveLocale] = useSetMyLocale();
  return (
    <label className="language-switcher">
      <span className="visually-hidden">{t("nav.language")}</span>
      <select
        value={locale}
        onChange={(event) => {
          const next = event.target.value as Locale;
          setLocale(next);
          // Signed-in users keep the choice on every device (emails use it too).
          if (data?.viewer) void saveLocale({ variables: { locale: next } }).catch(() => undefined);
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
