import { useEffect, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../i18n/format.ts";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { SelectField, TextField } from "../../components/Field.tsx";
import { LIMITS } from "@flock/shared/limits";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import {
  useCancelRegistrationByToken,
  useEventOccurrencePage,
  useOccurrenceSeatsLive,
  useRegisterForEvent,
  useRegistrationByToken,
  useRsvpByToken,
  useRsvpToEvent,
  useWithdrawRsvpByToken,
} from "./events.generated.ts";
import { occurrenceWhen } from "../../lib/occurrenceWhen.ts";
import "./events.css";

// One event's pages, a chunk of their own (the calendar's list does not carry the sign-up forms):
// /events/:slug (an occurrence, RSVP or registration) and /events/registration/:token (a mail link).

/** /events/:slug?date=: one occurrence with its details, add-to-calendar, and RSVP or registration. */
export function EventPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const [params] = useSearchParams();
  const date = params.get("date");
  const { data, loading, error } = useEventOccurrencePage({
    variables: { slug, date, locale },
    fetchPolicy: "cache-and-network",
  });
  const o = data?.occurrence;
  usePageTitle(o?.event.title ?? t("events.title"));
  const [live, setLive] = useState<{
    originalStart: string;
    seatsLeft: number | null | undefined;
    goingCount: number;
  } | null>(null);
  useOccurrenceSeatsLive({
    skip: !o || o.event.registrationMode === "NONE",
    variables: { eventId: o?.event.id ?? "", originalStart: o?.originalStart ?? "" },
    onData: ({ data: event }) => {
      const seats = event.data?.occurrenceSeats;
      if (seats)
        setLive({
          originalStart: seats.originalStart,
          seatsLeft: seats.seatsLeft,
          goingCount: seats.goingCount,
        });
    },
  });
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!o) return <NotFoundPage />;
  const current = live && live.originalStart === o.originalStart ? live : null;
  const seatsLeft = current ? current.seatsLeft : o.seatsLeft;
  const going = current ? current.goingCount : o.goingCount;
  const e = o.event;
  const cancelled = o.status === "CANCELLED";
  return (
    <div className="container page event-page">
      <p className="small">
        <Link to="/events">{t("events.all")}</Link>
      </p>
      <h1>{e.title}</h1>
      {e.imageUrl && <img className="event-cover-hero" src={e.imageUrl} alt="" width={1200} height={630} />}
      {cancelled && (
        <Alert kind="error">
          {o.note ? t("events.cancelledWithNote", { note: o.note }) : t("events.cancelledThisDate")}
        </Alert>
      )}
      {o.status === "MOVED" && (
        <Alert kind="info">
          {o.note ? t("events.movedWithNote", { note: o.note }) : t("events.movedThisDate")}
        </Alert>
      )}
      <dl className="event-facts">
        <dt>{t("events.when")}</dt>
        <dd>
          {occurrenceWhen(o, locale)}
          {e.recurrenceText && <span className="event-facts__repeat"> · {e.recurrenceText}</span>}
        </dd>
        {(e.locationName || e.locationAddress) && (
          <>
            <dt>{t("events.where")}</dt>
            <dd>
              {[e.locationName, e.locationAddress].filter(Boolean).join(", ")}
              {e.mapUrl && (
                <>
                  {" · "}
                  <a href={e.mapUrl} target="_blank" rel="noopener noreferrer">
                    {t("events.map")}
                  </a>
                </>
              )}
            </dd>
          </>
        )}
        {e.registrationMode === "REGISTRATION" && seatsLeft !== null && seatsLeft !== undefined && (
          <>
            <dt>{t("events.seats")}</dt>
            <dd aria-live="polite" data-testid="seats-left">
              {seatsLeft > 0
                ? t("events.seatsLeft", { count: seatsLeft })
                : e.waitlistEnabled
                  ? t("events.fullWaitlist")
                  : t("events.full")}
            </dd>
          </>
        )}
        {e.registrationMode !== "NONE" && !cancelled && (e.registrationOpensAt || e.registrationClosesAt) && (
          <>
            <dt>{t("events.window")}</dt>
            <dd data-testid="registration-window">
              {e.registrationOpensAt && new Date(e.registrationOpensAt).getTime() > Date.now()
                ? t("events.opensOn", {
                    date: formatWhen(e.registrationOpensAt, locale, { timeZone: e.timezone }),
                  })
                : e.registrationClosesAt
                  ? t(
                      new Date(e.registrationClosesAt).getTime() > Date.now()
                        ? "events.closesOn"
                        : "events.closedOn",
                      {
                        date: formatWhen(e.registrationClosesAt, locale, { timeZone: e.timezone }),
                      },
                    )
                  : t("events.openNow")}
            </dd>
          </>
        )}
        {e.registrationMode === "RSVP" && !cancelled && (
          <>
            <dt>{t("events.going")}</dt>
            <dd aria-live="polite">{t("events.goingCount", { count: going })}</dd>
          </>
        )}
      </dl>
      {/* Nothing to add to a calendar on a cancelled date. */}
      {!cancelled && (
        <p className="event-actions">
          <a className="button button--ghost" href={o.icsUrl} download>
            {t("events.downloadIcs")}
          </a>
          <a
            className="button button--ghost"
            href={o.googleCalendarUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t("events.googleCalendar")}
          </a>
        </p>
      )}
      {e.descriptionHtml && <RichText html={e.descriptionHtml} />}
      {!cancelled && e.registrationMode === "REGISTRATION" && (
        <RegistrationForm o={o} open={o.can.register} />
      )}
      {!cancelled && e.registrationMode === "RSVP" && (
        <RsvpForm o={o} open={o.can.rsvp} current={o.myRsvp ?? null} linkToken={params.get("rsvp")} />
      )}
      {e.nextOccurrences.length > 1 && (
        <section className="event-more">
          <h2>{t("events.otherDates")}</h2>
          <ul>
            {e.nextOccurrences.map((n) => (
              <li key={n.id}>
                <Link to={n.path} aria-current={n.date === o.date ? "page" : undefined}>
                  {formatWhen(n.start, locale, { date: "short", time: false, timeZone: e.timezone })}
                </Link>
                {n.status === "CANCELLED" && ` (${t("events.cancelled")})`}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

type PageOccurrence = NonNullable<ReturnType<typeof useEventOccurrencePage>["data"]>["occurrence"] & object;

function RegistrationForm({ o, open }: { o: PageOccurrence; open: boolean }) {
  const i18n = useI18n();
  const { t } = i18n;
  const shell = useAppShell();
  const viewer = shell.data?.viewer;
  const [form, setForm] = useState({
    name: viewer?.user.name ?? "",
    email: viewer?.user.email ?? "",
    attendees: "1",
    website: "",
  });
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [register, { loading }] = useRegisterForEvent();
  const [problem, setProblem] = useState<UiError | null>(null);
  const [done, setDone] = useState<{ code: string; confirmed: number; waitlisted: number } | null>(null);
  if (o.myRegistrations.length) {
    const r = o.myRegistrations;
    return (
      <section className="event-signup">
        <h2>{t("events.register")}</h2>
        <p>{t("events.alreadyRegistered", { code: r[0]!.confirmationCode })}</p>
      </section>
    );
  }
  if (done) {
    return (
      <section className="event-signup" aria-live="polite">
        <h2>{t("events.register")}</h2>
        <Alert kind="success">
          {done.confirmed > 0 && <span>{t("events.registeredConfirmed", { count: done.confirmed })} </span>}
          {done.waitlisted > 0 && (
            <span>{t("events.registeredWaitlisted", { count: done.waitlisted })} </span>
          )}
          <span>{t("events.confirmationCode", { code: done.code })}</span>
        </Alert>
      </section>
    );
  }
  if (!open) {
    return (
      <section className="event-signup">
        <h2>{t("events.register")}</h2>
        <p>{t("events.registrationClosed")}</p>
      </section>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const result = await register({
        variables: {
          input: {
            eventId: o.event.id,
            originalStart: o.originalStart,
            name: form.name,
            email: form.email,
            attendees: Number(form.attendees),
            answers: o.event.questions.map((q) => ({ questionId: q.id, value: answers[q.id] ?? "" })),
            website: form.website,
          },
        },
      });
      const r = result.data!.register;
      setDone({ code: r.confirmationCode, confirmed: r.confirmed, waitlisted: r.waitlisted });
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  return (
    <section className="event-signup">
      <h2>{t("events.register")}</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        {problem && <Alert kind="error">{problem.fieldErrors.originalStart ?? problem.message}</Alert>}
        <TextField
          label={t("events.name")}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={problem?.fieldErrors.name}
          autoComplete="name"
          required
        />
        <TextField
          label={t("events.email")}
          type="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={problem?.fieldErrors.email}
          autoComplete="email"
          required
        />
        <TextField
          label={t("events.partySize")}
          type="number"
          min={1}
          max={LIMITS.partySizeMax}
          value={form.attendees}
          onChange={(e) => setForm({ ...form, attendees: e.target.value })}
          error={problem?.fieldErrors.attendees}
          hint={t("events.partySizeHint")}
        />
        {o.event.questions.map((q) => {
          const common = {
            label: q.label,
            value: answers[q.id] ?? "",
            error: problem?.fieldErrors[`answers.${q.id}`],
            required: q.required,
            optionalText: q.required ? undefined : t("common.optional"),
          };
          const answer = (value: string) => setAnswers((current) => ({ ...current, [q.id]: value }));
          return q.kind === "TEXT" ? (
            <TextField
              key={q.id}
              {...common}
              maxLength={LIMITS.answerMax}
              onChange={(e) => answer(e.target.value)}
            />
          ) : (
            <SelectField key={q.id} {...common} onChange={(e) => answer(e.target.value)}>
              <option value="">{t("events.choose")}</option>
              {(q.kind === "CHOICE" ? q.options : ["YES", "NO"]).map((option) => (
                <option key={option} value={option}>
                  {q.kind === "CHOICE"
                    ? option
                    : t(option === "YES" ? "events.answerYes" : "events.answerNo")}
                </option>
              ))}
            </SelectField>
          );
        })}
        <div className="honeypot" aria-hidden="true">
          <label>
            Website
            <input
              tabIndex={-1}
              autoComplete="off"
              value={form.website}
              onChange={(e) => setForm({ ...form, website: e.target.value })}
            />
          </label>
        </div>
        <button type="submit" className="button" disabled={loading}>
          {t("events.registerButton")}
        </button>
      </form>
    </section>
  );
}

const RSVP_KEY = (id: string) => `flock.rsvp.${id}`;

/**
 * RSVP yes, maybe or no. A visitor's answer is found again by its secret token: kept by the browser
 * that answered, or brought by the confirmation mail's link (`?rsvp=`) to any other browser, which
 * then keeps it too; with it the visitor sees their answer, changes it or withdraws it.
 */
function RsvpForm({
  o,
  open,
  current,
  linkToken,
}: {
  o: PageOccurrence;
  open: boolean;
  current: { response: string; guests: number } | null;
  linkToken: string | null;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const shell = useAppShell();
  const viewer = shell.data?.viewer;
  const key = RSVP_KEY(o.id);
  const [token, setToken] = useState(() => linkToken ?? localStorage.getItem(key));
  const [, setParams] = useSearchParams();
  // The mail link's token is kept like one this browser made, and taken out of the address bar (a
  // secret should not stay in the history or be shared with a copied link).
  useEffect(() => {
    if (!linkToken) return;
    localStorage.setItem(key, linkToken);
    setParams(
      (params) => {
        params.delete("rsvp");
        return params;
      },
      { replace: true },
    );
  }, [linkToken, key, setParams]);
  const [form, setForm] = useState({
    name: "",
    email: "",
    guests: String(current?.guests ?? 0),
    website: "",
  });
  const [answer, setAnswer] = useState<string | null>(current?.response ?? null);
  const stored = useRsvpByToken({
    variables: { token: token ?? "" },
    skip: !token || !!viewer,
    fetchPolicy: "network-only",
  });
  const mine = stored.data?.rsvpByToken;
  useEffect(() => {
    if (!mine) return;
    setAnswer(mine.response);
    setForm((f) => ({ ...f, name: mine.name, email: mine.email ?? f.email, guests: String(mine.guests) }));
  }, [mine]);
  const [rsvp, { loading }] = useRsvpToEvent();
  const [withdraw, withdrawing] = useWithdrawRsvpByToken();
  const [problem, setProblem] = useState<UiError | null>(null);
  if (!open) return <p>{t("events.rsvpClosed")}</p>;
  const forget = () => {
    localStorage.removeItem(key);
    setToken(null);
    setAnswer(null);
  };
  const withdrawAnswer = async () => {
    if (!mine || !token) return;
    setProblem(null);
    try {
      await withdraw({ variables: { id: mine.id, token } });
      forget();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  const send = async (response: "YES" | "NO" | "MAYBE") => {
    setProblem(null);
    try {
      const result = await rsvp({
        variables: {
          input: {
            eventId: o.event.id,
            originalStart: o.originalStart,
            response,
            guests: Number(form.guests) || 0,
            ...(viewer
              ? {}
              : {
                  name: form.name,
                  email: form.email,
                  token,
                  website: form.website,
                }),
          },
        },
      });
      const kept = result.data?.rsvp.token;
      if (kept) {
        localStorage.setItem(key, kept);
        setToken(kept);
      }
      setAnswer(response);
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  };
  return (
    <section className="event-signup">
      <h2>{t("events.rsvp")}</h2>
      {answer && (
        <p aria-live="polite">
          {t("events.yourAnswer", {
            answer: t(`events.rsvp.${answer.toLowerCase() as "yes" | "no" | "maybe"}`),
          })}
        </p>
      )}
      {problem && <Alert kind="error">{problem.message}</Alert>}
      {!viewer && (
        <>
          <TextField
            label={t("events.name")}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={problem?.fieldErrors.name}
            autoComplete="name"
          />
          <TextField
            label={t("events.email")}
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            error={problem?.fieldErrors.email}
            autoComplete="email"
          />
        </>
      )}
      <TextField
        label={t("events.guests")}
        type="number"
        min={0}
        max={LIMITS.rsvpGuestsMax}
        value={form.guests}
        onChange={(e) => setForm({ ...form, guests: e.target.value })}
        error={problem?.fieldErrors.guests}
      />
      <p className="event-actions">
        {(["YES", "MAYBE", "NO"] as const).map((r) => (
          <button
            key={r}
            type="button"
            className={`button${answer === r ? "" : " button--ghost"}`}
            disabled={loading}
            onClick={() => void send(r)}
            aria-pressed={answer === r}
          >
            {t(`events.rsvp.${r.toLowerCase() as "yes" | "no" | "maybe"}`)}
          </button>
        ))}
      </p>
      {!viewer && mine && (
        <p>
          <button
            type="button"
            className="link-button"
            disabled={withdrawing.loading}
            onClick={() => void withdrawAnswer()}
          >
            {t("events.rsvpWithdraw")}
          </button>
        </p>
      )}
      {withdrawing.data && !answer && <p aria-live="polite">{t("events.rsvpWithdrawn")}</p>}
    </section>
  );
}

/** /events/registration/:token: the mail link; shows the registration and cancels it, signed out. */
export function RegistrationLinkPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("events.myRegistration"));
  const { token = "" } = useParams();
  const { data, loading, error } = useRegistrationByToken({ variables: { token } });
  const [cancel, cancelState] = useCancelRegistrationByToken();
  const [problem, setProblem] = useState<string | null>(null);
  if (loading && !data) return <Loading />;
  const r = data?.registrationByToken;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!r || !r.event) return <NotFoundPage />;
  const current = cancelState.data?.cancelRegistration ?? r;
  const status = current.status;
  const when = formatWhen(r.originalStart, locale, { date: "full", timeZone: r.event.timezone });
  return (
    <div className="container page narrow">
      <h1>{t("events.myRegistration")}</h1>
      <p>
        <Link to={`/events/${r.event.slug}`}>{r.event.title}</Link> — {when}
      </p>
      <p>{t("events.confirmationCode", { code: r.confirmationCode })}</p>
      {r.answers.length > 0 && (
        <dl className="registration-answers">
          {r.answers.map((a) => (
            <div key={a.questionId}>
              <dt>{a.question}</dt>
              <dd>
                {a.value === "YES"
                  ? t("events.answerYes")
                  : a.value === "NO"
                    ? t("events.answerNo")
                    : a.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p aria-live="polite" data-testid="registration-status">
        {status === "CONFIRMED"
          ? t("events.statusConfirmed", { count: r.attendees })
          : status === "WAITLISTED"
            ? t("events.statusWaitlisted", { position: r.waitlistPosition ?? 1 })
            : t("events.statusCancelled")}
      </p>
      {problem && <Alert kind="error">{problem}</Alert>}
      {current.can.cancel && (
        <button
          type="button"
          className="button"
          disabled={cancelState.loading}
          onClick={() =>
            void cancel({ variables: { token } }).catch((e: unknown) =>
              setProblem(handleError(e, i18n).message),
            )
          }
        >
          {t("events.cancelRegistration")}
        </button>
      )}
    </div>
  );
}
