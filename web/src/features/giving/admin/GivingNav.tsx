import { NavLink } from "react-router";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** The giving screens' own sections (what shows follows givingAccess: the app shell carries only viewGivingSummary). */
export function GivingNav({ view, manage }: { view: boolean; manage: boolean }) {
  const { t } = useI18n();
  return (
    <nav className="subnav" aria-label={t("admin.giving.nav")}>
      <ul>
        <li>
          <NavLink to="/admin/giving" end>
            {t("admin.giving.nav.overview")}
          </NavLink>
        </li>
        <li>
          <NavLink to="/admin/giving/reports">{t("admin.giving.nav.reports")}</NavLink>
        </li>
        {view && manage && (
          <li>
            <NavLink to="/admin/giving/import">{t("admin.giving.nav.import")}</NavLink>
          </li>
        )}
      </ul>
    </nav>
  );
}

/** Hand a CSV the gateway made to the browser as a download (formula cells are already made safe there). */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
