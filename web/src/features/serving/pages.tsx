import { PlanTimes } from "./PlanTimes.tsx";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import {
  useAnswerServingRequest,
  useMyServingRequests,
  useServingRequestByToken,
  type ServingRequestCardFragment,
} from "./serving.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { TextAreaField } from "../../components/Field.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import { Availability } from "./Availability.tsx";
import { OpenPlaces, SwapControl } from "./Places.tsx";
import { LedTeams } from "./LedTeams.tsx";
import { ServingHistory } from "./History.tsx";
import "./serving.css";

/*
 * Serving for the volunteer (issue 27): a request to serve answered from the mail's link without
 * signing in (/serving/answer/:id?token=…), and "My serving" (/me/serving): every request from today on,
 * to answer or to change one's mind while the plan is open.
 */

const STATUS_BADGE: Record<string, string> = {
  PENDING: "badge--warn",
  ACCEPTED: "badge--ok",
  DECLINED: "badge--muted",
  CANCELLED: "badge--muted",
  REPLACED: "badge--muted",
};

/** What a request is for: the plan's day, its title, the position and the plan's times. */
function RequestSummary({
  request,
  headingLevel,
}: {
  request: ServingRequestCardFragment;
  headingLevel: 2 | 3;
}) {
  const { t, locale } = useI18n();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const plan = request.plan;
  return (
    <>
      <Heading className="serving-request__title">
        {t("serving.request.heading", {
          position: request.position?.name ?? "",
          date: plan ? formatCalendarDate(plan.date, locale, "full") : "",
        })}
      </Heading>
      <p className="serving-request__plan">
        {plan?.title}{" "}
        <span className={`badge ${STATUS_BADGE[request.status] ?? "badge--muted"}`}>
          {t(`serving.status.${request.status}`)}
        </span>
      </p>
      {plan && <PlanTimes times={plan.times} />}
      {request.status === "DECLINED" && request.declineReason && (
        <p className="muted small">{t("serving.request.yourReason", { reason: request.declineReason })}</p>
      )}
    </>
  );
}

/**
 * Yes or no, with an optional reason for a no. `onAnswered` gets the request as the server has it now.
 * The buttons say what each does; the reason box opens only for a no (nothing typed is asked for a yes).
 */
export function AnswerForm({
  request,
  token,
  onAnswered,
}: {
  request: ServingRequestCardFragment;
  token?: string;
  onAnswered?(request: ServingRequestCardFragment): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [answer, { loading }] = useAnswerServingRequest();
  const formId = useId();

  async function send(accept: boolean, event?: FormEvent) {
    event?.preventDefault();
    setError(null);
    try {
      const result = await answer({
        variables: {
          id: request.id,
          accept,
          reason: accept ? null : reason.trim() || null,
          token: token ?? null,
        },
      });
      setDeclining(false);
      if (result.data) onAnswered?.(result.data.answerServingRequest);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  if (declining)
    return (
      <form
        className="form serving-answer"
        onSubmit={(e) => void send(false, e)}
        noValidate
        aria-labelledby={formId}
      >
        <p id={formId}>{t("serving.answer.declineIntro")}</p>
        {error && <Alert kind="error">{error.message}</Alert>}
        <TextAreaField
          label={t("serving.answer.reason")}
          optionalText={t("common.optional")}
          hint={t("serving.answer.reasonHint")}
          rows={2}
          maxLength={LIMITS.servingDeclineReasonMax}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={error?.fieldErrors.reason}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={loading}>
            {t("serving.answer.sendDecline")}
          </button>
          <button type="button" className="button button--ghost" onClick={() => setDeclining(false)}>
            {t("common.cancel")}
          </button>
        </div>
      </form>
    );
  return (
    <div className="serving-answer">
      {error && <Alert kind="error">{error.message}</Alert>}
      <div className="actions">
        {request.status !== "ACCEPTED" && (
          <button type="button" className="button" disabled={loading} onClick={() => void send(true)}>
            {t("serving.answer.accept")}
          </button>
        )}
        {request.status !== "DECLINED" && (
          <button
            type="button"
            className="button button--ghost"
            disabled={loading}
            onClick={() => setDeclining(true)}
          >
            {t("serving.answer.decline")}
          </button>
        )}
      </div>
    </div>
  );
}

/** /serving/answer/:id?token=… — the mail's button: answer once, without signing in. */
export function ServingAnswerPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("serving.answer.title"));
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  // The secret is kept for this page and taken out of the address bar (not left in the history).
  const [token] = useState(() => params.get("token") ?? "");
  useEffect(() => {
    if (!params.has("token")) return;
    setParams(
      (next) => {
        next.delete("token");
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);
  const { data, loading, error } = useServingRequestByToken({
    variables: { id, token },
    skip: !token,
    fetchPolicy: "network-only",
  });
  const [answered, setAnswered] = useState<ServingRequestCardFragment | null>(null);

  if (loading && !data) return <Loading />;
  const request = data?.servingRequestByToken ?? null;
  return (
    <div className="container page serving-page">
      <h1>{t("serving.answer.title")}</h1>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {answered ? (
        <section className="card serving-request" aria-live="polite">
          <RequestSummary request={answered} headingLevel={2} />
          <Alert kind="success">
            {answered.status === "ACCEPTED" ? t("serving.answer.thanksYes") : t("serving.answer.thanksNo")}
          </Alert>
          <p className="small">
            {t("serving.answer.changeLater")} <Link to="/me/serving">{t("serving.mine.title")}</Link>
          </p>
        </section>
      ) : request ? (
        <section className="card serving-request">
          <p className="muted">{t("serving.answer.hello", { name: request.name })}</p>
          <RequestSummary request={request} headingLevel={2} />
          <AnswerForm request={request} token={token} onAnswered={setAnswered} />
        </section>
      ) : (
        !error && (
          <div className="empty">
            <p>{t("serving.answer.spent")}</p>
            <p>
              <Link to="/me/serving">{t("serving.mine.title")}</Link>
            </p>
          </div>
        )
      )}
    </div>
  );
}

/** /me/serving — the signed-in person's requests from today on: those to answer first, then the rest. */
export function MyServingPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("serving.mine.title"));
  const { data, loading, error } = useMyServingRequests({ fetchPolicy: "cache-and-network" });
  const requests = data?.myServingRequests ?? [];
  const waiting = requests.filter((r) => r.status === "PENDING");
  const answered = requests.filter((r) => r.status !== "PENDING");
  return (
    <section className="serving-page" aria-labelledby="my-serving">
      <h1 id="my-serving">{t("serving.mine.title")}</h1>
      <p className="muted">{t("serving.mine.intro")}</p>
      <LedTeams />
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : requests.length === 0 ? (
        <div className="empty">
          <p>{t("serving.mine.empty")}</p>
          <OpenPlaces />
        </div>
      ) : (
        <>
          {waiting.length > 0 && (
            <>
              <h2>{t("serving.mine.waiting", { count: waiting.length })}</h2>
              <RequestList requests={waiting} />
            </>
          )}
          <OpenPlaces />
          {answered.length > 0 && (
            <>
              <h2>{t("serving.mine.upcoming")}</h2>
              <RequestList requests={answered} />
            </>
          )}
        </>
      )}
      <ServingHistory />
      <Availability />
    </section>
  );
}

function RequestList({ requests }: { requests: readonly ServingRequestCardFragment[] }) {
  const { t } = useI18n();
  return (
    <ul className="serving-list">
      {requests.map((request) => (
        <li key={request.id} className="card serving-request">
          <RequestSummary request={request} headingLevel={3} />
          {request.plan && (
            <p className="small">
              <Link to={`/serving/plans/${request.plan.id}`}>{t("serving.mine.openPlan")}</Link>
            </p>
          )}
          {request.can.answer && <AnswerForm request={request} />}
          <SwapControl request={request} />
        </li>
      ))}
    </ul>
  );
}
