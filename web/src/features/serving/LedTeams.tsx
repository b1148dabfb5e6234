import { Link } from "react-router";
import { useMyLedServingTeams } from "./serving.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";

/**
 * On /me/serving, for a team's leaders: their teams, each with its schedule and its page (positions,
 * roster) — the staff screens, opened under My serving (a leader need not be staff). Nothing for
 * everyone else.
 */
export function LedTeams() {
  const { t } = useI18n();
  const { data } = useMyLedServingTeams({ fetchPolicy: "cache-and-network" });
  const teams = (data?.servingTeams ?? []).filter(
    (team) => team.status === "ACTIVE" && team.members.some((m) => m.isMe && m.role === "LEADER"),
  );
  if (!teams.length) return null;
  return (
    <section className="serving-led" aria-labelledby="serving-led">
      <h2 id="serving-led">{t("serving.led.title")}</h2>
      <ul className="serving-led__list">
        {teams.map((team) => (
          <li key={team.id} className="card">
            <strong>{team.name}</strong>
            <span className="actions">
              <Link className="button button--small" to={`/me/serving/schedule?team=${team.id}`}>
                {t("serving.led.schedule")}
                <span className="visually-hidden"> ({team.name})</span>
              </Link>
              <Link className="button button--ghost button--small" to={`/me/serving/teams/${team.id}`}>
                {t("serving.led.team")}
                <span className="visually-hidden"> ({team.name})</span>
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
