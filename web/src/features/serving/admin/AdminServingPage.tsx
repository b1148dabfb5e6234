import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import {
  useAdminCreateServingTeam,
  useAdminServingTeams,
  useAdminSetServingTeamStatus,
  type AdminServingTeamRowFragment,
} from "./AdminServing.generated.ts";
import type { ServingTeamStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { NEW_TEAM, TeamFields, teamInput, type TeamDraft } from "./TeamFields.tsx";
import { TeamStatusBadge, teamPath } from "./common.tsx";
import "../../../styles/staff.css";
import "./admin-serving.css";

type Row = AdminServingTeamRowFragment;

/** /admin/serving: every serving team (archived ones too), a new team, archive and restore. */
export function AdminServingPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.serving.title"));
  const { data, loading, error, refetch } = useAdminServingTeams({ fetchPolicy: "cache-and-network" });
  const [setStatus] = useAdminSetServingTeamStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [creating, setCreating] = useState(false);
  const teams = data?.servingTeams ?? [];

  /** Bulk archive / restore: each chosen team that is not there yet; a refusal is reported, the others still move. */
  async function moveTo(rows: Row[], status: ServingTeamStatus) {
    setNotice(null);
    const moving = rows.filter((team) => team.status !== status);
    const results = await Promise.allSettled(
      moving.map((team) => setStatus({ variables: { id: team.id, status } })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    await refetch();
    setNotice(
      failed.length
        ? {
            kind: "error",
            text: t("admin.serving.bulkFailed", {
              count: failed.length,
              message: handleError(failed[0]!.reason, i18n).message,
            }),
          }
        : {
            kind: "success",
            text:
              status === "ARCHIVED"
                ? t("admin.serving.archivedCount", { count: moving.length })
                : t("admin.serving.restoredCount", { count: moving.length }),
          },
    );
  }

  const columns: Column<Row>[] = [
    {
      key: "name",
      header: t("admin.serving.team.name"),
      sort: (team) => team.name,
      cell: (team) => (
        <Link to={teamPath(team.id)} className="serving-admin__team-link">
          {team.name}
        </Link>
      ),
    },
    {
      key: "positions",
      header: t("admin.serving.positions"),
      sort: (team) => team.positions.length,
      cell: (team) => team.positions.length,
    },
    {
      key: "members",
      header: t("admin.serving.members"),
      // Those who still serve; people kept only for the team's history are not counted.
      sort: (team) => team.members.filter((m) => m.active).length,
      cell: (team) => team.members.filter((m) => m.active).length,
    },
    {
      key: "leaders",
      header: t("admin.serving.leaders"),
      cell: (team) => {
        const leaders = team.members.filter((m) => m.active && m.role === "LEADER").map((m) => m.name);
        return leaders.length ? (
          leaders.join(", ")
        ) : (
          <span className="muted">{t("admin.serving.noLeader")}</span>
        );
      },
    },
    {
      key: "status",
      header: t("admin.serving.status"),
      sort: (team) => team.status,
      cell: (team) => <TeamStatusBadge status={team.status} />,
    },
  ];

  return (
    <div className="page serving-admin">
      <div className="page-head">
        <h1>{t("admin.serving.title")}</h1>
        <div className="actions">
          <Link to="/admin/serving/plans" className="button button--ghost">
            {t("admin.serving.plans")}
          </Link>
          <Link to="/admin/serving/schedule" className="button button--ghost">
            {t("admin.serving.schedule.title")}
          </Link>
          <button type="button" className="button" onClick={() => setCreating(true)}>
            {t("admin.serving.new")}
          </button>
        </div>
      </div>
      <p className="muted">{t("admin.serving.intro")}</p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.serving.title")}
          rows={teams}
          rowKey={(team) => team.id}
          rowLabel={(team) => team.name}
          columns={columns}
          initialSort={{ key: "name", direction: "ascending" }}
          bulkActions={[
            { label: t("admin.serving.archive"), run: (rows) => moveTo(rows, "ARCHIVED") },
            { label: t("admin.serving.restore"), run: (rows) => moveTo(rows, "ACTIVE") },
          ]}
          empty={<p>{t("admin.serving.empty")}</p>}
        />
      )}
      <Drawer open={creating} title={t("admin.serving.new")} onClose={() => setCreating(false)}>
        <NewTeamForm onCancel={() => setCreating(false)} />
      </Drawer>
    </div>
  );
}

/**
 * The "New team" drawer. A created team opens its own page: positions and members come next, and
 * they are added there.
 */
function NewTeamForm({ onCancel }: { onCancel(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const navigate = useNavigate();
  const [draft, setDraft] = useState<TeamDraft>(NEW_TEAM);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, { loading }] = useAdminCreateServingTeam();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      const result = await create({ variables: { input: teamInput(draft) } });
      const team = result.data?.createServingTeam;
      if (team) void navigate(teamPath(team.id), { state: { created: true } });
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  // noValidate: the gateway's field errors are shown on the fields, in the app's words and language.
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      <p className="muted small">{t("admin.serving.newIntro")}</p>
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <TeamFields draft={draft} onChange={setDraft} errors={problem?.fieldErrors ?? {}} />
      <FormActions
        submitLabel={t("admin.serving.create")}
        busyLabel={t("admin.serving.creating")}
        busy={loading}
        onCancel={onCancel}
      />
    </form>
  );
}
