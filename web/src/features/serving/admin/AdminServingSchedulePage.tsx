import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminServingAutofillDocument,
  useAdminServingAsk,
  useAdminServingSchedule,
  type AdminServingAutofillQuery,
  type AdminServingScheduleQuery,
} from "./AdminServingSchedule.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { SelectField, TextField } from "../../../components/Field.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import "../../../styles/staff.css";
import "./admin-serving.css";

type Plan = AdminServingScheduleQuery["servingPlans"][number];
type Need = Plan["needs"][number];
type Proposal = AdminServingAutofillQuery["servingAutofill"]["proposals"][number];

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const REQUEST_BADGE: Record<string, string> = {
  PENDING: "badge--warn",
  ACCEPTED: "badge--ok",
  DECLINED: "badge--danger",
  CANCELLED: "badge--muted",
};

/**
 * /admin/serving/schedule: one team's places on the plans of a range (rows: plans; columns: the team's
 * positions; on a phone each plan is a card), who is asked and how they answered. Auto-fill proposes
 * people for the open places, with why; the leader reviews, drops any, then sends the requests.
 */
export function AdminServingSchedulePage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.serving.schedule.title"));
  const [params, setParams] = useSearchParams();
  const from = params.get("from") ?? isoDay(Date.now());
  const to = params.get("to") ?? isoDay(Date.now() + 4 * 7 * DAY_MS);
  const { data, loading, error, refetch } = useAdminServingSchedule({
    variables: { from, to },
    fetchPolicy: "cache-and-network",
    // Answers arrive while the leader looks: read again every half minute.
    pollInterval: 30_000,
  });
  const teams = (data?.servingTeams ?? []).filter(
    (team) => team.can.manageMembers && team.status === "ACTIVE",
  );
  const teamId = params.get("team") ?? teams[0]?.id ?? "";
  const team = teams.find((candidate) => candidate.id === teamId) ?? null;
  const client = useApolloClient();
  const [proposing, setProposing] = useState(false);
  const [proposals, setProposals] = useState<Proposal[] | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [sending, setSending] = useState(false);
  const [ask] = useAdminServingAsk();

  const plans = useMemo(
    () =>
      (data?.servingPlans ?? []).map((plan) => ({
        ...plan,
        needs: plan.needs.filter((need) => need.position.teamId === teamId),
      })),
    [data, teamId],
  );

  const set = (patch: Record<string, string>) => {
    setProposals(null);
    setNotice(null);
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) next.set(key, value);
    setParams(next, { replace: true });
  };

  /** Ask auto-fill (nothing is written): its proposals join the matrix for the leader to review. */
  async function propose() {
    setNotice(null);
    setProposing(true);
    let found: AdminServingAutofillQuery["servingAutofill"] | undefined;
    try {
      const result = await client.query({
        query: AdminServingAutofillDocument,
        variables: { teamId, from, to },
        fetchPolicy: "network-only",
      });
      found = result.data?.servingAutofill;
    } catch (caught) {
      return setNotice({ kind: "error", text: handleError(caught, i18n).message });
    } finally {
      setProposing(false);
    }
    setProposals(found?.proposals ?? []);
    const missing = (found?.unfilled ?? []).reduce((sum: number, u) => sum + u.missing, 0);
    setNotice({
      kind: "success",
      text: t("admin.serving.schedule.proposed", { count: found?.proposals.length ?? 0, missing }),
    });
  }

  /** Send the kept proposals, need by need; what PocketBase refuses (a place taken meanwhile) is reported. */
  async function send() {
    if (!proposals?.length) return;
    setSending(true);
    setNotice(null);
    const byNeed = new Map<string, string[]>();
    for (const p of proposals) byNeed.set(p.needId, [...(byNeed.get(p.needId) ?? []), p.personId]);
    const results = await Promise.allSettled(
      [...byNeed].map(([needId, personIds]) => ask({ variables: { needId, personIds } })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    setSending(false);
    setProposals(null);
    await refetch();
    setNotice(
      failed.length
        ? {
            kind: "error",
            text: t("admin.serving.schedule.sendFailed", {
              count: failed.length,
              message: handleError(failed[0]!.reason, i18n).message,
            }),
          }
        : { kind: "success", text: t("admin.serving.schedule.sent", { count: proposals.length }) },
    );
  }

  const proposalsFor = (need: Need, planId: string) =>
    (proposals ?? []).filter((p) => p.planId === planId && p.positionId === need.position.id);

  return (
    <div className="page serving-schedule">
      <p className="small">
        <Link to="/admin/serving">← {t("admin.serving.title")}</Link>
      </p>
      <h1>{t("admin.serving.schedule.title")}</h1>
      <p className="muted">{t("admin.serving.schedule.intro")}</p>
      <div className="serving-schedule__filters">
        <SelectField
          label={t("admin.serving.schedule.team")}
          value={teamId}
          onChange={(e) => set({ team: e.target.value })}
        >
          {teams.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("admin.serving.schedule.from")}
          type="date"
          value={from}
          onChange={(e) => e.target.value && set({ from: e.target.value })}
        />
        <TextField
          label={t("admin.serving.schedule.to")}
          type="date"
          value={to}
          onChange={(e) => e.target.value && set({ to: e.target.value })}
        />
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : !team ? (
        <div className="empty">
          <p>{t("admin.serving.schedule.noTeam")}</p>
        </div>
      ) : plans.length === 0 ? (
        <div className="empty">
          <p>{t("admin.serving.schedule.noPlans")}</p>
        </div>
      ) : (
        <>
          <div className="actions serving-schedule__actions">
            {proposals === null ? (
              <button type="button" className="button" disabled={proposing} onClick={() => void propose()}>
                {proposing ? t("admin.serving.schedule.proposing") : t("admin.serving.schedule.autofill")}
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className="button"
                  disabled={sending || proposals.length === 0}
                  onClick={() => void send()}
                >
                  {t("admin.serving.schedule.send", { count: proposals.length })}
                </button>
                <button type="button" className="button button--ghost" onClick={() => setProposals(null)}>
                  {t("admin.serving.schedule.discard")}
                </button>
              </>
            )}
          </div>
          <div className="staff-table-scroll">
            <table className="table serving-matrix">
              <caption className="visually-hidden">
                {t("admin.serving.schedule.caption", { team: team.name })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t("admin.serving.schedule.plan")}</th>
                  {team.positions.map((position) => (
                    <th key={position.id} scope="col">
                      {position.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {plans.map((plan) => (
                  <tr key={plan.id}>
                    <th scope="row" data-label={t("admin.serving.schedule.plan")}>
                      <span className="serving-matrix__date">
                        {formatCalendarDate(plan.date, locale, "full")}
                      </span>
                      <span className="list-meta">
                        {plan.title} · {t(`admin.serving.schedule.planStatus.${plan.status}`)}
                      </span>
                    </th>
                    {team.positions.map((position) => {
                      const need = plan.needs.find((n) => n.position.id === position.id);
                      return (
                        <td key={position.id} data-label={position.name}>
                          {need ? (
                            <Cell
                              need={need}
                              proposed={proposalsFor(need, plan.id)}
                              onDrop={(proposal) =>
                                setProposals((list) => (list ?? []).filter((p) => p !== proposal))
                              }
                            />
                          ) : (
                            <span className="muted small">{t("admin.serving.schedule.notNeeded")}</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

/** One position on one plan: places filled, who is asked (with their answer), and proposals. */
function Cell({
  need,
  proposed,
  onDrop,
}: {
  need: Need;
  proposed: Proposal[];
  onDrop(proposal: Proposal): void;
}) {
  const { t } = useI18n();
  const open = Math.max(0, need.count - need.accepted - need.pending);
  return (
    <div className="serving-cell">
      <span className={`badge ${open ? "badge--warn" : "badge--ok"}`}>
        {t("admin.serving.schedule.filled", { filled: need.accepted, count: need.count })}
      </span>
      <ul className="serving-cell__people">
        {need.requests
          .filter((r) => r.status !== "CANCELLED")
          .map((request) => (
            <li key={request.id}>
              {request.name}{" "}
              <span className={`badge ${REQUEST_BADGE[request.status] ?? "badge--muted"}`}>
                {t(`admin.serving.schedule.request.${request.status}`)}
              </span>
              {request.declineReason && <span className="list-meta">“{request.declineReason}”</span>}
            </li>
          ))}
        {proposed.map((proposal) => (
          <li key={proposal.personId} className="serving-cell__proposal">
            {proposal.name} <span className="badge badge--info">{t("admin.serving.schedule.proposal")}</span>
            <span className="list-meta">
              {t("admin.serving.schedule.why", {
                count: proposal.servedInWindow,
                weeks: proposal.windowWeeks,
                prefers: proposal.prefersTime ? "yes" : "no",
              })}
            </span>
            <button
              type="button"
              className="link-button small"
              onClick={() => onDrop(proposal)}
              aria-label={t("admin.serving.schedule.dropFor", { name: proposal.name })}
            >
              {t("admin.serving.schedule.drop")}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
