import { PlanTimes } from "./PlanTimes.tsx";
import { Link, useParams } from "react-router";
import { useServingPlanPage, type ServingPlanPageQuery } from "./PlanPage.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { RichText } from "../../components/RichText.tsx";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { AnswerForm } from "./pages.tsx";
import "./serving.css";
import "./plan-page.css";

/*
 * /serving/plans/:id — a plan as the people asked to serve on it see it (issue 27): its day and times,
 * the order of service, their own places (answered here as under My serving) and, on the teams that
 * show names, who else said yes. What they may see is the API's to decide: a draft plan, or one they
 * are not asked on, is not found.
 */

type Plan = NonNullable<ServingPlanPageQuery["servingPlan"]>;
type Need = Plan["needs"][number];

const STATUS_BADGE: Record<string, string> = {
  PENDING: "badge--warn",
  ACCEPTED: "badge--ok",
  DECLINED: "badge--muted",
  CANCELLED: "badge--muted",
};

export function ServingPlanPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data, loading, error } = useServingPlanPage({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const plan = data?.servingPlan;
  usePageTitle(plan ? plan.title : t("serving.plan.title"));
  if (loading && !data) return <Loading />;
  if (error && !plan)
    return (
      <div className="container page serving-page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!plan) return <NotFoundPage />;
  return <PlanView plan={plan} teams={data?.servingTeams ?? []} />;
}

function PlanView({ plan, teams }: { plan: Plan; teams: ServingPlanPageQuery["servingTeams"] }) {
  const { t, locale } = useI18n();
  const teamName = (need: Need) => teams.find((team) => team.id === need.position.teamId)?.name;
  const placeName = (need: Need) => {
    const team = teamName(need);
    return team ? t("serving.plan.place", { position: need.position.name, team }) : need.position.name;
  };
  const mine = plan.needs.flatMap((need) =>
    need.requests.filter((request) => request.isMe).map((request) => ({ need, request })),
  );
  // Who else said yes, per place: the API returns others' answers only where their team shows names.
  const others = plan.needs
    .map((need) => ({
      need,
      names: need.requests.filter((r) => !r.isMe && r.status === "ACCEPTED").map((r) => r.name),
    }))
    .filter((place) => place.names.length > 0);

  return (
    <div className="container page serving-page serving-plan-page">
      <p className="small">
        <Link to="/me/serving">
          <span aria-hidden="true">← </span>
          {t("serving.mine.title")}
        </Link>
      </p>
      <h1>{plan.title}</h1>
      <p className="serving-plan-page__day">
        {formatCalendarDate(plan.date, locale, "full")}
        {plan.status === "DONE" && <span className="badge badge--muted">{t("serving.plan.done")}</span>}
      </p>
      {plan.occurrence && (
        <p>
          {t("serving.plan.forEvent")} <Link to={plan.occurrence.path}>{plan.occurrence.event.title}</Link>
        </p>
      )}
      {plan.times.length > 0 && (
        <section aria-labelledby="plan-times">
          <h2 id="plan-times" className="visually-hidden">
            {t("serving.plan.times")}
          </h2>
          <PlanTimes times={plan.times} className="serving-plan-page__times" />
        </section>
      )}
      {mine.length > 0 && (
        <section aria-labelledby="plan-mine">
          <h2 id="plan-mine">{t("serving.plan.mine")}</h2>
          <ul className="serving-list">
            {mine.map(({ need, request }) => (
              <li key={request.id} className="card serving-request">
                <h3 className="serving-request__title">{placeName(need)}</h3>
                <p className="serving-request__plan">
                  <span className={`badge ${STATUS_BADGE[request.status] ?? "badge--muted"}`}>
                    {t(`serving.status.${request.status}`)}
                  </span>
                </p>
                {request.status === "DECLINED" && request.declineReason && (
                  <p className="muted small">
                    {t("serving.request.yourReason", { reason: request.declineReason })}
                  </p>
                )}
                {request.can.answer && <AnswerForm request={request} />}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="plan-notes" className="serving-plan-page__notes">
        <h2 id="plan-notes">{t("serving.plan.notes")}</h2>
        {plan.notesHtml.trim() ? (
          <div className="card serving-plan-page__notes-card">
            <RichText html={plan.notesHtml} />
          </div>
        ) : (
          <p className="muted">{t("serving.plan.noNotes")}</p>
        )}
      </section>
      {others.length > 0 && (
        <section aria-labelledby="plan-others">
          <h2 id="plan-others">{t("serving.plan.others")}</h2>
          <p className="muted small">{t("serving.plan.othersIntro")}</p>
          <dl className="serving-plan-page__others">
            {others.map(({ need, names }) => (
              <div key={need.id}>
                <dt>{placeName(need)}</dt>
                <dd>{names.join(", ")}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}
