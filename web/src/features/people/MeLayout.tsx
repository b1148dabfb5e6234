import { NavLink, Outlet } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";

export const ME_SECTIONS = [
  { path: "/me", key: "me.nav.overview" },
  { path: "/me/profile", key: "me.nav.profile" },
  { path: "/me/household", key: "me.nav.household" },
  { path: "/me/privacy", key: "me.nav.privacy" },
  { path: "/me/serving", key: "me.nav.serving" },
  { path: "/me/checkins", key: "me.nav.checkins" },
  { path: "/me/giving", key: "me.nav.giving" },
  { path: "/me/notifications", key: "me.nav.notifications" },
  { path: "/me/data", key: "me.nav.data" },
] as const;

/** The frame of "My account": its sections as tabs-like links above each page. */
export function MeLayout() {
  const { t } = useI18n();
  return (
    <div className="container page me">
      <nav className="subnav" aria-label={t("me.nav.label")}>
        <ul>
          {ME_SECTIONS.map((section) => (
            <li key={section.path}>
              <NavLink to={section.path} end>
                {t(section.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
