import { NavLink, Outlet, useLocation } from "react-router";
import { useAppShell } from "../../app/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";

/** The staff area: a section list (only the sections this user may use) beside the page. */
export function AdminLayout() {
  const { t } = useI18n();
  const { data } = useAppShell();
  const permissions = data?.viewer?.permissions ?? [];
  // Household pages belong to the People section.
  const inHousehold = useLocation().pathname.startsWith("/admin/households/");
  return (
    <div className="container admin">
      <nav className="admin__nav" aria-label={t("admin.nav")}>
        <h2 className="admin__nav-title">{t("admin.title")}</h2>
        <ul>
          {permissions.includes("CONTENT_EDIT") && (
            <>
              <li>
                <NavLink to="/admin/pages">{t("admin.pages")}</NavLink>
              </li>
              <li>
                <NavLink to="/admin/news">{t("admin.news")}</NavLink>
              </li>
            </>
          )}
          {permissions.includes("SERMONS_MANAGE") && (
            <li>
              <NavLink to="/admin/sermons">{t("admin.sermons")}</NavLink>
            </li>
          )}
          {permissions.includes("EVENTS_MANAGE") && (
            <li>
              <NavLink to="/admin/events">{t("admin.events")}</NavLink>
            </li>
          )}
          {(permissions.includes("CONTENT_EDIT") || permissions.includes("MEDIA_MANAGE")) && (
            <li>
              <NavLink to="/admin/media">{t("admin.media")}</NavLink>
            </li>
          )}
          {(permissions.includes("PEOPLE_VIEW") || permissions.includes("PEOPLE_MANAGE")) && (
            <>
              <li>
                <NavLink to="/admin/people" className={({ isActive }) => (isActive || inHousehold ? "active" : "")}>
                  {t("admin.people")}
                </NavLink>
              </li>
              <li>
                <NavLink to="/admin/visits">{t("admin.visits")}</NavLink>
              </li>
            </>
          )}
          {(permissions.includes("PRAYER_MODERATE") || permissions.includes("PRAYER_VIEW_PASTORAL")) && (
            <li>
              <NavLink to="/admin/prayer">{t("admin.prayer")}</NavLink>
            </li>
          )}
          {permissions.includes("SETTINGS_MANAGE") && (
            <li>
              <NavLink to="/admin/settings">{t("admin.settings")}</NavLink>
            </li>
          )}
          {permissions.includes("ROLES_MANAGE") && (
            <li>
              <NavLink to="/admin/users">{t("admin.users")}</NavLink>
            </li>
          )}
        </ul>
      </nav>
      <div className="admin__content">
        <Outlet />
      </div>
    </div>
  );
}
