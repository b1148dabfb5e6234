import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import {
  useAdminCreateServingPlan,
  useAdminServingPlans,
  useAdminSetServingPlanStatus,
  type AdminServingPlanRowFragment,
} from "./AdminServingPlans.generated.ts";
import type { ServingPlanStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate, formatWhen, todayIn } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { newPlanDraft, PlanFields, usePlanForm } from "./PlanFields.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";
import "./admin-serving.css";
import "./admin-serving-plans.css";

type Row = AdminServingPlanRowFragment;

/** A plan's staff page. */
export const planPath = (id: string) => `/admin/serving/plans/${id}`;

const STATUS_BADGE: Record<ServingPlanStatus, string> = {
  DRAFT: "badge--neutral",
  PUBLISHED: "badge--ok",
  DONE: "badge--muted",
};

/** Draft, published or done (styles/staff.css badges). */
export function PlanStatusBadge({ status }: { status: ServingPlanStatus }) {
  const { t } = useI18n();
  return <span className={`badge ${STATUS_BADGE[status]}`}>{t(`admin.serving.plans.status.${status}`)}</span>;
}

const DAY_MS = 86_400_000;
const addDays = (ymd: string, days: number) =>
  new Date(Date.parse(`${ymd}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** /admin/serving/plans: the plans of a range of days (from today, 12 weeks), a new plan, bulk publish. */
export function AdminServingPlansPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.serving.plans.title"));
  const { timeZone } = useChurchDateTime();
  const [params, setParams] = useSearchParams();
  const today = todayIn(timeZone);
  const from = params.get("from") ?? today;
  const to = params.get("to") ?? addDays(today, 12 * 7);
  const { data, loading, error, refetch } = useAdminServingPlans({
    variables: { from, to },
    fetchPolicy: "cache-and-network",
  });
  const [setStatus] = useAdminSetServingPlanStatus();
  // A plan deleted on its page comes back here with its title, to say so.
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;
  const [notice, setNotice] = useState<Notice | null>(
    deleted ? { kind: "success", text: t("admin.serving.plans.deleted", { title: deleted }) } : null,
  );
  const [creating, setCreating] = useState(false);
  const plans = data?.servingPlans ?? [];

  const setRange = (key: "from" | "to", value: string) => {
    if (!value) return;
    setNotice(null);
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };

  /** Bulk publish / mark done: each chosen plan not there yet; a refusal is reported, the others still move. */
  async function moveTo(rows: Row[], status: ServingPlanStatus) {
    setNotice(null);
    const moving = rows.filter((plan) => plan.status !== status && plan.can.edit);
    const results = await Promise.allSettled(
      moving.map((plan) => setStatus({ variables: { id: plan.id, status } })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    await refetch();
    setNotice(
      failed.length
        ? {
            kind: "error",
            text: t("admin.serving.plans.bulkFailed", {
              count: failed.length,
              message: handleError(failed[0]!.reason, i18n).message,
            }),
          }
        : {
            kind: "success",
            text:
              status === "PUBLISHED"
                ? t("admin.serving.plans.publishedCount", { count: moving.length })
                : t("admin.serving.plans.doneCount", { count: moving.length }),
          },
    );
  }

  const filledOf = (plan: Row) => plan.needs.reduce((sum, need) => sum + need.accepted, 0);
  const neededOf = (plan: Row) => plan.needs.reduce((sum, need) => sum + need.count, 0);

  const columns: Column<Row>[] = [
    {
      key: "date",
      header: t("admin.serving.plans.day"),
      sort: (plan) => plan.date,
      cell: (plan) => (
        <span className="serving-plans__day">{formatCalendarDate(plan.date, locale, "full")}</span>
      ),
    },
    {
      key: "title",
      header: t("admin.serving.plans.plan"),
      sort: (plan) => plan.title,
      cell: (plan) => (
        <Link to={planPath(plan.id)} className="serving-admin__team-link">
          {plan.title}
        </Link>
      ),
    },
    {
      key: "times",
      header: t("admin.serving.plans.times"),
      cell: (plan) => {
        // The services' start times (the rehearsal is the teams' business); all times when none is a service.
        const services = plan.times.filter((time) => time.kind === "SERVICE");
        const shown = services.length ? services : plan.times;
        return shown.length ? (
          <ul className="serving-plans__times">
            {shown.map((time) => (
              <li key={time.startsAt}>{formatWhen(time.startsAt, locale, { date: "none", timeZone })}</li>
            ))}
          </ul>
        ) : (
          <span className="muted">{t("admin.serving.plans.noTimes")}</span>
        );
      },
    },
    {
      key: "places",
      header: t("admin.serving.plans.places"),
      sort: (plan) => (neededOf(plan) ? filledOf(plan) / neededOf(plan) : -1),
      cell: (plan) => {
        const needed = neededOf(plan);
        if (!needed) return <span className="muted">{t("admin.serving.plans.noNeeds")}</span>;
        const filled = filledOf(plan);
        const pending = plan.needs.reduce((sum, need) => sum + need.pending, 0);
        return (
          <span className="serving-plans__places">
            <span className={`badge ${filled >= needed ? "badge--ok" : "badge--warn"}`}>
              {t("admin.serving.plans.filled", { filled, count: needed })}
            </span>
            {pending > 0 && (
              <span className="list-meta">{t("admin.serving.plans.asked", { count: pending })}</span>
            )}
          </span>
        );
      },
    },
    {
      key: "status",
      header: t("admin.serving.status"),
      sort: (plan) => plan.status,
      cell: (plan) => <PlanStatusBadge status={plan.status} />,
    },
  ];

  return (
    <div className="page serving-admin serving-plans">
      <Link to="/admin/serving" className="staff-back-link">
        <span aria-hidden="true">← </span>
        {t("admin.serving.back")}
      </Link>
      <div className="page-head">
        <h1>{t("admin.serving.plans.title")}</h1>
        <div className="actions">
          <Link to="/admin/serving/schedule" className="button button--ghost">
            {t("admin.serving.schedule.title")}
          </Link>
          <button type="button" className="button" onClick={() => setCreating(true)}>
            {t("admin.serving.plans.new")}
          </button>
        </div>
      </div>
      <p className="muted">{t("admin.serving.plans.intro")}</p>
      <div className="serving-plans__filters">
        <TextField
          label={t("admin.serving.schedule.from")}
          type="date"
          value={from}
          onChange={(e) => setRange("from", e.target.value)}
        />
        <TextField
          label={t("admin.serving.schedule.to")}
          type="date"
          value={to}
          onChange={(e) => setRange("to", e.target.value)}
        />
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.serving.plans.caption", {
            from: formatCalendarDate(from, locale),
            to: formatCalendarDate(to, locale),
          })}
          rows={plans}
          rowKey={(plan) => plan.id}
          rowLabel={(plan) => `${plan.title}, ${formatCalendarDate(plan.date, locale)}`}
          columns={columns}
          initialSort={{ key: "date", direction: "ascending" }}
          bulkActions={[
            { label: t("admin.serving.plans.publish"), run: (rows) => moveTo(rows, "PUBLISHED") },
            { label: t("admin.serving.plans.markDone"), run: (rows) => moveTo(rows, "DONE") },
          ]}
          empty={<p>{t("admin.serving.plans.empty")}</p>}
        />
      )}
      <Drawer open={creating} title={t("admin.serving.plans.new")} onClose={() => setCreating(false)}>
        <NewPlanForm timeZone={timeZone} onCancel={() => setCreating(false)} />
      </Drawer>
    </div>
  );
}

/** The "New plan" drawer: a created plan opens its own page, where the places it needs are set. */
function NewPlanForm({ timeZone, onCancel }: { timeZone: string; onCancel(): void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const form = usePlanForm(newPlanDraft, timeZone);
  const [create, { loading }] = useAdminCreateServingPlan();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.input();
    if (!input) return;
    try {
      const result = await create({ variables: { input } });
      const plan = result.data?.createServingPlan;
      if (plan) void navigate(planPath(plan.id), { state: { created: true } });
    } catch (caught) {
      form.fail(caught);
    }
  }

  // noValidate: the gateway's field errors are shown on the fields, in the app's words and language.
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      <p className="muted small">{t("admin.serving.plans.newIntro")}</p>
      {form.message && <Alert kind="error">{form.message}</Alert>}
      <PlanFields draft={form.draft} onChange={form.change} errors={form.errors} timeZone={timeZone} />
      <FormActions
        submitLabel={t("admin.serving.plans.create")}
        busyLabel={t("admin.serving.plans.creating")}
        busy={loading}
        onCancel={onCancel}
      />
    </form>
  );
}
