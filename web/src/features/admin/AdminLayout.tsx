import { NavLink, Outlet, useLocation } from "react-router";
import { useAbilities } from "../../lib/abilities.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";

/** The staff area: a section list (only the sections this user may use) beside the page. */
export function AdminLayout() {
  const { t } = useI18n();
  const can = useAbilities();
  // Household pages belong to the People section.
  const inHousehold = useLocation().pathname.startsWith("/admin/households/");
  return (
    <div className="container admin">
      <nav className="admin__nav" aria-label={t("admin.nav")}>
        <h2 className="admin__nav-title">{t("admin.title")}</h2>
        <ul>
          {can.editContent && (
            <>
              <li>
                <NavLink to="/admin/pages">{t("admin.pages")}</NavLink>
              </li>
              <li>
                <NavLink to="/admin/news">{t("admin.news")}</NavLink>
              </li>
            </>
          )}
          {can.manageSermons && (
            <li>
              <NavLink to="/admin/sermons">{t("admin.sermons")}</NavLink>
            </li>
          )}
          {can.manageEvents && (
            <li>
              <NavLink to="/admin/events">{t("admin.events")}</NavLink>
            </li>
          )}
          {can.manageGroups && (
            <li>
              <NavLink to="/admin/groups">{t("admin.groups")}</NavLink>
            </li>
          )}
          {can.manageServing && (
            <li>
              <NavLink to="/admin/serving">{t("admin.serving")}</NavLink>
            </li>
          )}
          {can.operateCheckin && (
            <li>
              <NavLink to="/admin/checkin">{t("admin.checkin")}</NavLink>
            </li>
          )}
          {can.viewGivingSummary && (
            <li>
              <NavLink to="/admin/giving">{t("admin.giving")}</NavLink>
            </li>
          )}
          {can.useMediaLibrary && (
            <li>
              <NavLink to="/admin/media">{t("admin.media")}</NavLink>
            </li>
          )}
          {can.viewPeople && (
            <>
              <li>
                <NavLink
                  to="/admin/people"
                  className={({ isActive }) => (isActive || inHousehold ? "active" : "")}
                >
                  {t("admin.people")}
                </NavLink>
              </li>
              <li>
                <NavLink to="/admin/visits">{t("admin.visits")}</NavLink>
              </li>
            </>
          )}
          {can.moderatePrayer && (
            <li>
              <NavLink to="/admin/prayer">{t("admin.prayer")}</NavLink>
            </li>
          )}
          {can.manageSettings && (
            <li>
              <NavLink to="/admin/settings">{t("admin.settings")}</NavLink>
            </li>
          )}
          {can.manageRoles && (
            <li>
              <NavLink to="/admin/users">{t("admin.users")}</NavLink>
            </li>
          )}
          {can.manageIntegrations && (
            <li>
              <NavLink to="/admin/integrations">{t("admin.integrations")}</NavLink>
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
