import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useAppShell } from "../gql/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { Loading } from "../components/Loading.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { useAbilities, type Ability } from "../lib/abilities.ts";

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

/** Shows its children to a signed-in user who may do `ability` (viewer.can), else "not allowed". */
export function RequireAbility({ ability, children }: { ability: Ability; children: ReactNode }) {
  const allowed = useAbilities()[ability];
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
