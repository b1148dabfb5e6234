import { PlanTimes } from "./PlanTimes.tsx";
import { useState } from "react";
import {
  MyServingOpeningsDocument,
  MyServingRequestsDocument,
  useMyServingOpenings,
  useSetServingSwap,
  useSignUpToServe,
  useTakeServingSwap,
  type MyServingOpeningsQuery,
  type ServingRequestCardFragment,
} from "./serving.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../i18n/format.ts";
import { Alert, type Notice } from "../../components/Alert.tsx";
import { handleError } from "../../lib/handleError.ts";

/*
 * Places changing hands on /me/serving (issue 27): a volunteer who accepted asks for someone to take
 * their place (they stay on until someone does); teammates who can fill it see it among the open places,
 * beside the places of teams that let members sign up, and take one with a click.
 */

type Opening = MyServingOpeningsQuery["myServingOpenings"][number];

/** Both lists change together: a place taken leaves the openings and joins the person's own places. */
const REFETCH = [{ query: MyServingRequestsDocument }, { query: MyServingOpeningsDocument }];

/** On an accepted place: ask for a swap, or stop asking. */
export function SwapControl({ request }: { request: ServingRequestCardFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [setSwap, { loading }] = useSetServingSwap({ refetchQueries: REFETCH });
  const [error, setError] = useState<string | null>(null);
  if (!request.can.swap) return null;
  const toggle = (open: boolean) =>
    void setSwap({ variables: { id: request.id, open } }).catch((caught: unknown) =>
      setError(handleError(caught, i18n).message),
    );
  return (
    <div className="serving-swap">
      {error && <Alert kind="error">{error}</Alert>}
      {request.swapOpen ? (
        <>
          <p className="small" role="status">
            {t("serving.swap.asking")}
          </p>
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={loading}
            onClick={() => toggle(false)}
          >
            {t("serving.swap.stop")}
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={loading}
            aria-describedby={`swap-hint-${request.id}`}
            onClick={() => toggle(true)}
          >
            {t("serving.swap.ask")}
          </button>
          <p className="muted small" id={`swap-hint-${request.id}`}>
            {t("serving.swap.hint")}
          </p>
        </>
      )}
    </div>
  );
}

/** Open places the person may take: teammates' swaps and signups. Nothing is shown when there are none. */
export function OpenPlaces() {
  const i18n = useI18n();
  const { t } = i18n;
  const { data } = useMyServingOpenings({ fetchPolicy: "cache-and-network" });
  const [notice, setNotice] = useState<Notice | null>(null);
  const openings = data?.myServingOpenings ?? [];
  if (!openings.length && !notice) return null;
  return (
    <section className="serving-openings" aria-labelledby="serving-openings">
      <h2 id="serving-openings">{t("serving.openings.title")}</h2>
      <p className="muted">{t("serving.openings.intro")}</p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <ul className="serving-list">
        {openings.map((opening) => (
          <OpeningCard
            key={opening.swapRequestId ?? opening.needId}
            opening={opening}
            onTaken={() =>
              setNotice({
                kind: "success",
                text: t("serving.openings.taken", {
                  position: opening.positionName,
                  date: formatCalendarDate(opening.date, i18n.locale, "full"),
                }),
              })
            }
            onFailed={(text) => setNotice({ kind: "error", text })}
          />
        ))}
      </ul>
    </section>
  );
}

function OpeningCard({
  opening,
  onTaken,
  onFailed,
}: {
  opening: Opening;
  onTaken(): void;
  onFailed(message: string): void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [takeSwap, swapState] = useTakeServingSwap({ refetchQueries: REFETCH, awaitRefetchQueries: true });
  const [signUp, signUpState] = useSignUpToServe({ refetchQueries: REFETCH, awaitRefetchQueries: true });
  const busy = swapState.loading || signUpState.loading;
  const take = () => {
    const done = opening.swapRequestId
      ? takeSwap({ variables: { id: opening.swapRequestId } })
      : signUp({ variables: { needId: opening.needId } });
    void done.then(onTaken, (caught: unknown) => onFailed(handleError(caught, i18n).message));
  };
  const heading = t("serving.request.heading", {
    position: opening.positionName,
    date: formatCalendarDate(opening.date, locale, "full"),
  });
  return (
    <li className="card serving-request">
      <h3 className="serving-request__title">{heading}</h3>
      <p className="serving-request__plan">
        {opening.planTitle} · {opening.teamName}{" "}
        <span className="badge badge--info">
          {opening.swapFromName
            ? t("serving.openings.swapFrom", { name: opening.swapFromName })
            : t("serving.openings.left", { count: opening.placesLeft })}
        </span>
      </p>
      <PlanTimes times={opening.times} />
      <button type="button" className="button button--small" disabled={busy} onClick={take}>
        {opening.swapRequestId ? t("serving.openings.takeSwap") : t("serving.openings.signUp")}
        <span className="visually-hidden">: {heading}</span>
      </button>
    </li>
  );
}
