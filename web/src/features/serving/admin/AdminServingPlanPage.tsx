import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import {
  useAdminDeleteServingPlan,
  useAdminRemoveServingNeed,
  useAdminServingPlan,
  useAdminSetServingNeed,
  useAdminSetServingPlanStatus,
  useAdminUpdateServingPlan,
  type AdminServingPlanDetailFragment,
  type AdminServingPlanQuery,
} from "./AdminServingPlans.generated.ts";
import type { ServingPlanStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { RichText } from "../../../components/RichText.tsx";
import { SavedNotice } from "../../../components/SavedNotice.tsx";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { PlanFields, planDraftOf, samePlanDraft, usePlanForm } from "./PlanFields.tsx";
import { PlanStatusBadge } from "./AdminServingPlansPage.tsx";
import { TeamStatusBadge, teamPath } from "./common.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";
import "./admin-serving.css";
import "./admin-serving-plans.css";

type Plan = AdminServingPlanDetailFragment;
type Team = AdminServingPlanQuery["servingTeams"][number];

/** /admin/serving/plans/:id: one plan's places per position, its fields, and where it stands. */
export function AdminServingPlanPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data, loading, error, refetch } = useAdminServingPlan({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const plan = data?.servingPlan;
  usePageTitle(plan ? plan.title : t("admin.serving.plans.title"));
  if (loading && !data) return <Loading />;
  if (error && !plan)
    return (
      <div className="page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  // servingPlan is null for a plan that does not exist (or that the caller may not see).
  if (!plan) return <NotFoundPage />;
  return <PlanView key={plan.id} plan={plan} teams={data.servingTeams} refetch={() => void refetch()} />;
}

function PlanView({ plan, teams, refetch }: { plan: Plan; teams: readonly Team[]; refetch(): void }) {
  const { t, locale } = useI18n();
  // Set by the "New plan" drawer, which opens the new plan here: say what comes next.
  const created = (useLocation().state as { created?: boolean } | null)?.created === true;
  // The teams whose positions the plan may need: those in use, and any other it already needs.
  const needed = new Set(plan.needs.map((need) => need.position.teamId));
  const shown = teams.filter((team) => team.status === "ACTIVE" || needed.has(team.id));
  return (
    <div className="page serving-admin serving-plan">
      <Link to="/admin/serving/plans" className="staff-back-link">
        <span aria-hidden="true">← </span>
        {t("admin.serving.plans.back")}
      </Link>
      <header className="page-head serving-team__head">
        <div>
          <p className="staff-eyebrow">
            {t("admin.serving.plans.eyebrow")} · {formatCalendarDate(plan.date, locale, "full")}
          </p>
          <div className="serving-team__title">
            <h1>{plan.title}</h1>
            <PlanStatusBadge status={plan.status} />
          </div>
          {plan.occurrence && (
            <p className="small">
              {t("admin.serving.plans.forEvent")}{" "}
              <Link to={plan.occurrence.path}>{plan.occurrence.event.title}</Link>
            </p>
          )}
        </div>
        <Link to={`/serving/plans/${plan.id}`} className="button button--ghost button--small">
          {t("admin.serving.plans.volunteerView")}
        </Link>
      </header>
      {created && plan.status === "DRAFT" && <Alert kind="success">{t("admin.serving.plans.created")}</Alert>}
      <StatusControl plan={plan} />
      <div className="serving-team__sections">
        <section aria-labelledby="plan-needs-title">
          <h2 id="plan-needs-title">{t("admin.serving.plans.needs")}</h2>
          <p className="muted">{t("admin.serving.plans.needsIntro")}</p>
          {shown.length === 0 ? (
            <div className="empty">
              <p>{t("admin.serving.plans.noTeams")}</p>
            </div>
          ) : (
            <div className="serving-plan__teams">
              {shown.map((team) => (
                <TeamNeeds key={team.id} plan={plan} team={team} onSaved={refetch} />
              ))}
            </div>
          )}
        </section>
        <PlanDetails plan={plan} />
      </div>
    </div>
  );
}

/** Publish, mark done, back to draft, delete (with a confirmation), for those who may. */
function StatusControl({ plan }: { plan: Plan }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const navigate = useNavigate();
  const [setStatus, { loading }] = useAdminSetServingPlanStatus();
  const [remove, { loading: removing }] = useAdminDeleteServingPlan();
  const [notice, setNotice] = useState<Notice | null>(null);
  const busy = loading || removing;

  async function move(status: ServingPlanStatus) {
    setNotice(null);
    try {
      await setStatus({ variables: { id: plan.id, status } });
      setNotice({
        kind: "success",
        text:
          status === "PUBLISHED"
            ? t("admin.serving.plans.published")
            : status === "DONE"
              ? t("admin.serving.plans.markedDone")
              : t("admin.serving.plans.drafted"),
      });
    } catch (caught) {
      setNotice({ kind: "error", text: handleError(caught, i18n).message });
    }
  }

  async function destroy() {
    const date = formatCalendarDate(plan.date, locale, "full");
    if (!window.confirm(t("admin.serving.plans.confirmDelete", { title: plan.title, date }))) return;
    setNotice(null);
    try {
      await remove({ variables: { id: plan.id } });
      void navigate("/admin/serving/plans", { state: { deleted: plan.title } });
    } catch (caught) {
      setNotice({ kind: "error", text: handleError(caught, i18n).message });
    }
  }

  const button = (status: ServingPlanStatus, label: string, primary = false) => (
    <button
      key={status}
      type="button"
      className={`button button--small${primary ? "" : " button--ghost"}`}
      disabled={busy}
      onClick={() => void move(status)}
    >
      {label}
    </button>
  );

  return (
    <div className="serving-plan__status">
      <p className="serving-plan__status-hint">{t(`admin.serving.plans.statusHint.${plan.status}`)}</p>
      {plan.can.edit && (
        <div className="actions">
          {plan.status === "DRAFT" && button("PUBLISHED", t("admin.serving.plans.publish"), true)}
          {plan.status === "PUBLISHED" && button("DONE", t("admin.serving.plans.markDone"), true)}
          {plan.status === "DONE" && button("PUBLISHED", t("admin.serving.plans.republish"))}
          {plan.status !== "DRAFT" && button("DRAFT", t("admin.serving.plans.toDraft"))}
          <button
            type="button"
            className="button button--small button--danger-ghost"
            disabled={busy}
            onClick={() => void destroy()}
          >
            {removing ? t("admin.serving.deleting") : t("admin.serving.plans.delete")}
          </button>
        </div>
      )}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
    </div>
  );
}

/**
 * How many people each of one team's positions needs on the plan: a number per position, saved
 * together. 0 or empty removes the need (with its requests); the gateway's refusal of a count (1–50)
 * is shown on its field.
 */
function TeamNeeds({ plan, team, onSaved }: { plan: Plan; team: Team; onSaved(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const needOf = (positionId: string) => plan.needs.find((need) => need.position.id === positionId);
  const stored = (positionId: string) => String(needOf(positionId)?.count ?? "");
  const [counts, setCounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(team.positions.map((position) => [position.id, stored(position.id)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [setNeed] = useAdminSetServingNeed();
  const [removeNeed] = useAdminRemoveServingNeed();
  /** "" and "0" both say "not needed". */
  const normal = (value: string) => (value.trim() === "0" ? "" : value.trim());
  const changed = team.positions.filter(
    (position) => normal(counts[position.id] ?? "") !== normal(stored(position.id)),
  );
  const editable = team.can.manageMembers;
  const titleId = `plan-team-${team.id}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setProblem(null);
    setSaved(false);
    setSaving(true);
    const found: Record<string, string> = {};
    let general: string | null = null;
    for (const position of changed) {
      const value = normal(counts[position.id] ?? "");
      const need = needOf(position.id);
      const count = Number(value);
      try {
        if (value === "") {
          if (need) await removeNeed({ variables: { id: need.id } });
        } else if (!Number.isInteger(count)) {
          // Not a whole number: the API's Int cannot carry it, so it is refused here.
          found[position.id] = t("admin.serving.plans.wholeNumber");
        } else {
          await setNeed({ variables: { planId: plan.id, positionId: position.id, count } });
        }
      } catch (caught) {
        const ui = handleError(caught, i18n);
        if (ui.fieldErrors.count) found[position.id] = ui.fieldErrors.count;
        else general ??= ui.message;
      }
    }
    setSaving(false);
    setErrors(found);
    setProblem(general);
    if (!Object.keys(found).length && !general) setSaved(true);
    onSaved();
  }

  return (
    <section className="card staff-card serving-plan__team" aria-labelledby={titleId}>
      <div className="section-heading">
        <h3 id={titleId}>
          <Link to={teamPath(team.id)}>{team.name}</Link>
        </h3>
        {team.status === "ARCHIVED" && <TeamStatusBadge status={team.status} />}
        <Link
          to={`/admin/serving/schedule?team=${team.id}&from=${plan.date}&to=${plan.date}`}
          className="serving-plan__schedule-link small"
          aria-label={t("admin.serving.plans.teamScheduleOf", { team: team.name })}
        >
          {t("admin.serving.plans.teamSchedule")} <span aria-hidden="true">→</span>
        </Link>
      </div>
      {team.positions.length === 0 ? (
        <p className="muted small">
          {t("admin.serving.plans.noPositions")}{" "}
          <Link to={teamPath(team.id)}>{t("admin.serving.plans.addPositions")}</Link>
        </p>
      ) : (
        <form className="form serving-needs" onSubmit={(e) => void save(e)} noValidate>
          {problem && <Alert kind="error">{problem}</Alert>}
          {team.positions.map((position) => {
            const need = needOf(position.id);
            return (
              <TextField
                key={position.id}
                label={position.name}
                type="number"
                inputMode="numeric"
                min={0}
                max={50}
                value={counts[position.id] ?? ""}
                disabled={!editable || saving}
                hint={
                  need
                    ? t("admin.serving.plans.needFilled", {
                        filled: need.accepted,
                        count: need.count,
                        pending: need.pending,
                      })
                    : t("admin.serving.plans.notNeeded")
                }
                error={errors[position.id]}
                onChange={(e) => {
                  setSaved(false);
                  setCounts((current) => ({ ...current, [position.id]: e.target.value }));
                }}
              />
            );
          })}
          {editable && (
            <div className="form__footer">
              <button
                type="submit"
                className="button button--small"
                disabled={saving || changed.length === 0}
                aria-label={t("admin.serving.plans.saveNeedsOf", { team: team.name })}
              >
                {saving ? t("common.saving") : t("admin.serving.plans.saveNeeds")}
              </button>
              <SavedNotice text={saved && changed.length === 0 ? t("admin.serving.saved") : null} />
            </div>
          )}
        </form>
      )}
    </section>
  );
}

/** The plan's title, day, times and notes; the saved notes as the teams see them. */
function PlanDetails({ plan }: { plan: Plan }) {
  const { t } = useI18n();
  const { timeZone } = useChurchDateTime();
  const form = usePlanForm(() => planDraftOf(plan, timeZone), timeZone);
  const [saved, setSaved] = useState(false);
  const [update, { loading }] = useAdminUpdateServingPlan();
  const dirty = !samePlanDraft(form.draft, planDraftOf(plan, timeZone));

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const input = form.input();
    if (!input) return;
    try {
      const result = await update({ variables: { id: plan.id, input } });
      // The stored values (trimmed text, times in order), so the form is clean again.
      if (result.data) form.reset(planDraftOf({ ...plan, ...result.data.updateServingPlan }, timeZone));
      setSaved(true);
    } catch (caught) {
      form.fail(caught);
    }
  }

  return (
    <section className="card staff-card serving-plan__details" aria-labelledby="plan-details-title">
      <h2 id="plan-details-title">{t("admin.serving.plans.details")}</h2>
      <form className="form" onSubmit={(e) => void save(e)} noValidate>
        {form.message && <Alert kind="error">{form.message}</Alert>}
        <PlanFields
          draft={form.draft}
          onChange={(next) => {
            setSaved(false);
            form.change(next);
          }}
          errors={form.errors}
          timeZone={timeZone}
          disabled={!plan.can.edit}
        />
        {plan.can.edit && (
          <div className="form__footer">
            <button type="submit" className="button button--small" disabled={loading || !dirty}>
              {loading ? t("common.saving") : t("admin.serving.plans.save")}
            </button>
            <SavedNotice text={saved && !dirty ? t("admin.serving.saved") : null} />
          </div>
        )}
      </form>
      {plan.notes.trim() && (
        <details className="serving-plan__preview">
          <summary>{t("admin.serving.plans.notesPreview")}</summary>
          <RichText html={plan.notesHtml} />
        </details>
      )}
    </section>
  );
}
