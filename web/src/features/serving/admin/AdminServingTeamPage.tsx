import { useState, type FormEvent } from "react";
import { Link, useLocation, useParams } from "react-router";
import {
  useAdminServingTeam,
  useAdminSetServingTeamStatus,
  useAdminUpdateServingTeam,
  type AdminServingTeamDetailFragment,
} from "./AdminServing.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { SavedNotice } from "../../../components/SavedNotice.tsx";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { draftOf, TeamFields, teamInput, type TeamDraft } from "./TeamFields.tsx";
import { TeamStatusBadge, useServingArea } from "./common.tsx";
import { Positions } from "./Positions.tsx";
import { Roster } from "./Roster.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";
import "./admin-serving.css";

/** /admin/serving/teams/:id: one team's roster, positions and settings. */
export function AdminServingTeamPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data, loading, error } = useAdminServingTeam({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const team = data?.servingTeam;
  usePageTitle(team ? team.name : t("admin.serving.title"));
  if (loading && !data) return <Loading />;
  if (error && !team)
    return (
      <div className="page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  // servingTeam is null for a team that does not exist (or that the caller may not see).
  if (!team) return <NotFoundPage />;
  return <TeamView key={team.id} team={team} />;
}

function TeamView({ team }: { team: AdminServingTeamDetailFragment }) {
  const { t } = useI18n();
  // Set by the "New team" drawer, which opens the new team here: say what comes next.
  const created = (useLocation().state as { created?: boolean } | null)?.created === true;
  const area = useServingArea();
  return (
    <div className="page serving-admin serving-team">
      <Link to={area.home} className="staff-back-link">
        <span aria-hidden="true">← </span>
        {area.homeLabel}
      </Link>
      <header className="page-head serving-team__head">
        <div>
          <p className="staff-eyebrow">{t("admin.serving.team.eyebrow")}</p>
          <div className="serving-team__title">
            <h1>{team.name}</h1>
            <TeamStatusBadge status={team.status} />
          </div>
        </div>
        <StatusControl team={team} />
      </header>
      {created && <Alert kind="success">{t("admin.serving.created")}</Alert>}
      {/* The roster, the most used, gets the page's width; positions and settings share the row below. */}
      <div className="serving-team__sections">
        <Roster team={team} />
        <div className="serving-team__pair">
          <Positions team={team} />
          <TeamSettings team={team} />
        </div>
      </div>
    </div>
  );
}

/** Archive / restore, for those who may (the list's bulk actions do the same). */
function StatusControl({ team }: { team: AdminServingTeamDetailFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [setStatus, { loading }] = useAdminSetServingTeamStatus();
  const [problem, setProblem] = useState<string | null>(null);
  const archived = team.status === "ARCHIVED";
  async function toggle() {
    setProblem(null);
    try {
      await setStatus({ variables: { id: team.id, status: archived ? "ACTIVE" : "ARCHIVED" } });
    } catch (caught) {
      setProblem(handleError(caught, i18n).message);
    }
  }
  return (
    <div className="serving-team__status">
      {team.can.archive && (
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={loading}
          onClick={() => void toggle()}
        >
          {loading
            ? t("common.saving")
            : archived
              ? t("admin.serving.restoreTeam")
              : t("admin.serving.archiveTeam")}
        </button>
      )}
      {problem && <Alert kind="error">{problem}</Alert>}
    </div>
  );
}

/** What the team says about itself and how it is scheduled; the gateway's field errors on the fields. */
function TeamSettings({ team }: { team: AdminServingTeamDetailFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<TeamDraft>(() => draftOf(team));
  const [problem, setProblem] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [update, { loading }] = useAdminUpdateServingTeam();
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(team));

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSaved(false);
    try {
      const result = await update({ variables: { id: team.id, input: teamInput(draft) } });
      // The stored values (trimmed text), so the form is clean again.
      if (result.data) setDraft(draftOf(result.data.updateServingTeam));
      setSaved(true);
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  return (
    <section className="card staff-card" aria-labelledby="serving-settings-title">
      <h2 id="serving-settings-title">{t("admin.serving.settings")}</h2>
      <form className="form" onSubmit={(e) => void save(e)} noValidate>
        {problem && <Alert kind="error">{problem.message}</Alert>}
        <TeamFields
          draft={draft}
          onChange={(next) => {
            setSaved(false);
            setDraft(next);
          }}
          errors={problem?.fieldErrors ?? {}}
          disabled={!team.can.edit}
        />
        {team.can.edit && (
          <div className="form__footer">
            <button type="submit" className="button button--small" disabled={loading || !dirty}>
              {loading ? t("common.saving") : t("admin.serving.saveSettings")}
            </button>
            <SavedNotice text={saved && !dirty ? t("admin.serving.saved") : null} />
          </div>
        )}
      </form>
    </section>
  );
}
