import { useLocation } from "react-router";
import type { ServingRole, ServingTeamStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** A team's staff page. */
export const teamPath = (id: string) => `/admin/serving/teams/${id}`;

/**
 * Where the team and schedule screens were opened: under Administration (staff), or under My serving
 * (a team leader who is not staff: the same screens, the gateway and PocketBase limiting them to the
 * teams they lead). Links go back to where the reader came from.
 */
export function useServingArea() {
  const { t } = useI18n();
  const mine = useLocation().pathname.startsWith("/me/");
  const home = mine ? "/me/serving" : "/admin/serving";
  return {
    home,
    homeLabel: mine ? t("admin.serving.backToMine") : t("admin.serving.back"),
    teamPath: (id: string) => `${home}/teams/${id}`,
    schedulePath: (query = "") => `${home}/schedule${query}`,
  };
}

/** In use or archived (styles/staff.css badges). */
export function TeamStatusBadge({ status }: { status: ServingTeamStatus }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${status === "ARCHIVED" ? "badge--muted" : "badge--ok"}`}>
      {t(`admin.serving.status.${status}`)}
    </span>
  );
}

/** Leader or member: leaders stand out in the roster. */
export function RoleBadge({ role }: { role: ServingRole }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${role === "LEADER" ? "badge--info" : "badge--neutral"}`}>
      {t(`admin.serving.role.${role}`)}
    </span>
  );
}
