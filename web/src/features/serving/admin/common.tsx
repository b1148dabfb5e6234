import type { ServingRole, ServingTeamStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** A team's staff page. */
export const teamPath = (id: string) => `/admin/serving/teams/${id}`;

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
