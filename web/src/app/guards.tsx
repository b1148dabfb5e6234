import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useAppShell } from "./AppShell.generated.ts";
import type { Permission } from "../gql/types.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { Loading } from "../components/Loading.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";

/** Permissions that open the /admin area (each section checks its own). */
export const ADMIN_PERMISSIONS: Permission[] = ["SETTINGS_MANAGE", "ROLES_MANAGE", "CONTENT_EDIT", "MEDIA_MANAGE", "SERMONS_MANAGE", "EVENTS_MANAGE", "PEOPLE_VIEW", "PEOPLE_MANAGE", "PRAYER_MODERATE", "PRAYER_VIEW_PASTORAL"];

/**
 * Shows its children to a signed-in user; sends visitors to sign in and back here afterwards.
 * (A convenience for the UI: PocketBase's API rules are what actually protect the data.)
 */
export function RequireViewer({ children }: { children: ReactNode }) {
  const { data, loading } = useAppShell();
  const location = useLocation();
  if (loading && !data) return <Loading />;
  if (!data?.viewer) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  return <>{children}</>;
}

export function RequirePermission({ anyOf, children }: { anyOf: Permission[]; children: ReactNode }) {
  const { data } = useAppShell();
  const allowed = data?.viewer?.permissions.some((p) => anyOf.includes(p));
  return <RequireViewer>{allowed ? children : <Forbidden />}</RequireViewer>;
}

function Forbidden() {
  const { t } = useI18n();
  usePageTitle(t("forbidden.title"));
  return (
    <div className="container narrow page">
      <h1>{t("forbidden.title")}</h1>
      <p>{t("forbidden.body")}</p>
    </div>
  );
}
