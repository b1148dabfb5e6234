import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminServingAutofillDocument,
  AdminServingSchedulePlanDocument,
  useAdminServingAsk,
  useAdminServingCandidates,
  useAdminServingSchedule,
  useAdminServingScheduleLive,
  type AdminServingAutofillQuery,
  type AdminServingScheduleQuery,
} from "./AdminServingSchedule.generated.ts";
import { toCsv } from "@flock/shared/csv";
import { useServingArea } from "./common.tsx";
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
  REPLACED: "badge--muted",
};

/** How long the page waits after a live change before reading the schedule again (a burst is read once). */
const LIVE_DEBOUNCE_MS = 400;

/**
 * /admin/serving/schedule: one team's places on the plans of a range (rows: plans; columns: the team's
 * positions; on a phone each plan is a card), who is asked and how they answered. Auto-fill proposes
 * people for the open places, with why; the leader reviews, drops any, then sends the requests.
 */
export function AdminServingSchedulePage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.serving.schedule.title"));
  const area = useServingArea();
  const [params, setParams] = useSearchParams();
  const from = params.get("from") ?? isoDay(Date.now());
  const to = params.get("to") ?? isoDay(Date.now() + 4 * 7 * DAY_MS);
  const { data, loading, error, refetch } = useAdminServingSchedule({
    variables: { from, to },
    fetchPolicy: "cache-and-network",
  });
  const teams = (data?.servingTeams ?? []).filter(
    (team) => team.can.manageMembers && team.status === "ACTIVE",
  );
  const teamId = params.get("team") ?? teams[0]?.id ?? "";
  const team = teams.find((candidate) => candidate.id === teamId) ?? null;
  const client = useApolloClient();
  // Answers arrive while the leader looks: each change reads its plan again (a burst once per plan);
  // a resync (a reconnect, a slow reader) reads the whole range again.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const changed = useRef(new Set<string>());
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);
  const live = useAdminServingScheduleLive({
    skip: !team,
    variables: { teamId },
    onData: ({ data: event }) => {
      changed.current.add(event.data?.servingScheduleChanged.planId ?? "");
      clearTimeout(timer.current ?? undefined);
      timer.current = setTimeout(() => {
        const plans = [...changed.current];
        changed.current.clear();
        const reads = plans.includes("")
          ? [refetch()]
          : plans.map((id) =>
              client.query({
                query: AdminServingSchedulePlanDocument,
                variables: { id },
                fetchPolicy: "network-only",
              }),
            );
        void Promise.all(reads).catch(() => undefined);
      }, LIVE_DEBOUNCE_MS);
    },
  });
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

  /** The matrix as a spreadsheet: a row per plan, a column per position, who serves and how they answered. */
  function downloadCsv() {
    if (!team) return;
    const csv = toCsv(
      [
        t("admin.serving.schedule.csv.date"),
        t("admin.serving.schedule.plan"),
        ...team.positions.map((p) => p.name),
      ],
      plans.map((plan) => [
        plan.date,
        plan.title,
        ...team.positions.map((position) => {
          const need = plan.needs.find((n) => n.position.id === position.id);
          if (!need) return "";
          return need.requests
            .filter((r) => r.status !== "CANCELLED" && r.status !== "REPLACED")
            .map((r) => `${r.name} (${t(`admin.serving.schedule.request.${r.status}`)})`)
            .join("; ");
        }),
      ]),
    );
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
    link.download = `${team.name.replace(/[^\p{L}\p{N}]+/gu, "-")}-${from}-${to}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  return (
    <div className="page serving-schedule">
      <p className="small">
        <Link to={area.home}>← {area.homeLabel}</Link>
      </p>
      <h1>
        {t("admin.serving.schedule.title")}
        {team && <span className="serving-schedule__print-team"> · {team.name}</span>}
      </h1>
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
              <>
                <button type="button" className="button" disabled={proposing} onClick={() => void propose()}>
                  {proposing ? t("admin.serving.schedule.proposing") : t("admin.serving.schedule.autofill")}
                </button>
                <button type="button" className="button button--ghost" onClick={downloadCsv}>
                  {t("admin.serving.schedule.csv")}
                </button>
                <button type="button" className="button button--ghost" onClick={() => window.print()}>
                  {t("admin.serving.schedule.print")}
                </button>
                <span className="muted small serving-schedule__live" role="status">
                  {live.error ? t("admin.serving.schedule.notLive") : t("admin.serving.schedule.live")}
                </span>
              </>
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
                              reviewing={proposals !== null}
                              onDrop={(proposal) =>
                                setProposals((list) => (list ?? []).filter((p) => p !== proposal))
                              }
                              onAsked={(count) => {
                                setNotice({
                                  kind: "success",
                                  text: t("admin.serving.schedule.sent", { count }),
                                });
                                void refetch();
                              }}
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
  reviewing,
  onDrop,
  onAsked,
}: {
  need: Need;
  proposed: Proposal[];
  /** Auto-fill's proposals are on screen: asking by hand waits until they are sent or discarded. */
  reviewing: boolean;
  onDrop(proposal: Proposal): void;
  onAsked(count: number): void;
}) {
  const { t } = useI18n();
  const [picking, setPicking] = useState(false);
  const open = Math.max(0, need.count - need.accepted - need.pending);
  return (
    <div className="serving-cell">
      <span className={`badge ${open ? "badge--warn" : "badge--ok"}`}>
        {t("admin.serving.schedule.filled", { filled: need.accepted, count: need.count })}
      </span>
      <ul className="serving-cell__people">
        {need.requests
          .filter((r) => r.status !== "CANCELLED" && r.status !== "REPLACED")
          .map((request) => (
            <li key={request.id}>
              {request.name}{" "}
              <span className={`badge ${REQUEST_BADGE[request.status] ?? "badge--muted"}`}>
                {t(`admin.serving.schedule.request.${request.status}`)}
              </span>
              {request.swapOpen && (
                <span className="badge badge--warn">{t("admin.serving.schedule.swapOpen")}</span>
              )}
              {request.source === "SIGNUP" && (
                <span className="list-meta">{t("admin.serving.schedule.signedUp")}</span>
              )}
              {request.source === "SWAP" && (
                <span className="list-meta">{t("admin.serving.schedule.swapped")}</span>
              )}
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
      {open > proposed.length && need.can.schedule && !reviewing && (
        <>
          <button
            type="button"
            className="link-button small serving-cell__ask"
            aria-expanded={picking}
            onClick={() => setPicking((shown) => !shown)}
          >
            {t("admin.serving.schedule.askSomeone")}
          </button>
          {picking && (
            <CandidatePicker
              need={need}
              places={open}
              onDone={(count) => {
                setPicking(false);
                if (count) onAsked(count);
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

/**
 * Asking by hand: the team's people who can fill the position, the freest first, each with what stands
 * against asking them (blocked out, serving elsewhere at the time, over their monthly limit…). The
 * leader may still ask someone with a conflict: it is a warning, the person answers.
 */
function CandidatePicker({
  need,
  places,
  onDone,
}: {
  need: Need;
  places: number;
  onDone(count: number): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error } = useAdminServingCandidates({
    variables: { needId: need.id },
    fetchPolicy: "network-only",
  });
  const [chosen, setChosen] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [ask, { loading: asking }] = useAdminServingAsk();
  const candidates = data?.servingCandidates ?? [];
  const toggle = (personId: string, on: boolean) =>
    setChosen((list) => (on ? [...list, personId] : list.filter((id) => id !== personId)));
  return (
    <fieldset className="serving-picker">
      <legend>
        {t("admin.serving.schedule.pickLegend", { position: need.position.name, count: places })}
      </legend>
      {loading && !data ? (
        <Loading />
      ) : error ? (
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      ) : candidates.length === 0 ? (
        <p className="muted small">{t("admin.serving.schedule.noCandidates")}</p>
      ) : (
        <ul className="serving-picker__list">
          {candidates.map((candidate) => (
            <li key={candidate.personId}>
              <label className="field--checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(candidate.personId)}
                  disabled={!chosen.includes(candidate.personId) && chosen.length >= places}
                  onChange={(e) => toggle(candidate.personId, e.target.checked)}
                />
                <span>
                  {candidate.name}{" "}
                  <span className="list-meta">
                    {t("admin.serving.schedule.served", { count: candidate.servedInWindow })}
                  </span>
                  {candidate.conflicts.map((conflict) => (
                    <span key={conflict} className="badge badge--warn">
                      {t(`admin.serving.schedule.conflict.${conflict}`)}
                    </span>
                  ))}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="actions">
        <button
          type="button"
          className="button button--small"
          disabled={!chosen.length || asking}
          onClick={() =>
            void ask({ variables: { needId: need.id, personIds: chosen } })
              .then(() => onDone(chosen.length))
              .catch((caught: unknown) => setFailure(handleError(caught, i18n).message))
          }
        >
          {t("admin.serving.schedule.send", { count: chosen.length })}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => onDone(0)}>
          {t("admin.serving.schedule.cancel")}
        </button>
      </div>
    </fieldset>
  );
}
