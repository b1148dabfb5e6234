import { useCallback, useRef, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import {
  PrayerCardFragmentDoc,
  PrayerWallDocument,
  usePrayerRequestPage,
  usePrayerWall,
  usePrayerWallEvents,
} from "./prayer.generated.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import type { PrayerWallFilter } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { appendEdges } from "../../lib/appendEdges.ts";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import { PrayerCard } from "./PrayerCard.tsx";
import { PrayerRequestForm } from "./PrayerRequestForm.tsx";
import { wallVariables } from "./wallVariables.ts";
import { AnsweredButton, MyPrayerRequests, STATUS_BADGE } from "./MyPrayerRequests.tsx";
import { applyWallEvent, belongsOnWall } from "./wallEvents.ts";
import "./prayer.css";

const FILTERS: PrayerWallFilter[] = ["ALL", "ANSWERED"];

/**
 * A polite live region for what happens without the reader asking (a new request arrived, the count
 * after "I prayed"). The text is cleared first so the same sentence twice is read twice.
 */
function useAnnouncer() {
  const [message, setMessage] = useState("");
  const announce = useCallback((next: string) => {
    setMessage("");
    requestAnimationFrame(() => setMessage(next));
  }, []);
  const region = (
    <p className="visually-hidden" role="status" aria-live="polite">
      {message}
    </p>
  );
  return { announce, region };
}

/** /prayer: the live wall (all or answered, in the address as ?filter=answered) and the request form. */
export function PrayerPage() {
  const { t } = useI18n();
  usePageTitle(t("prayer.title"));
  const { data: shell } = useAppShell();
  const { announce, region } = useAnnouncer();
  return (
    <div className="container page prayer">
      <div className="prayer__intro">
        <h1>{t("prayer.title")}</h1>
        <p className="lead">{t("prayer.intro", { church: shell?.settings.churchName ?? "" })}</p>
        <a href="#prayer-form" className="button prayer__ask">
          {t("prayer.ask")}
        </a>
      </div>
      {region}
      <div className="prayer__layout">
        {shell && !shell.viewer && !shell.settings.prayerPublicWall ? (
          <MembersOnlyWall />
        ) : (
          <PrayerWall announce={announce} />
        )}
        <aside className="prayer__side" aria-label={t("prayer.sideLabel")}>
          <PrayerRequestForm />
          {shell?.viewer && <MyPrayerRequests announce={announce} />}
        </aside>
      </div>
    </div>
  );
}

/** The church turned the public wall off: visitors are invited to sign in (they may still ask for prayer). */
function MembersOnlyWall() {
  const { t } = useI18n();
  return (
    <section className="prayer__wall card" aria-labelledby="prayer-wall-title">
      <h2 id="prayer-wall-title">{t("prayer.membersOnly.title")}</h2>
      <p>{t("prayer.membersOnly.body")}</p>
      <p>
        <Link className="button" to="/login?next=%2Fprayer">
          {t("prayer.membersOnly.signIn")}
        </Link>
      </p>
    </section>
  );
}

function PrayerWall({ announce }: { announce(message: string): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [params, setParams] = useSearchParams();
  const filter: PrayerWallFilter = params.get("filter") === "answered" ? "ANSWERED" : "ALL";
  const variables = wallVariables(filter);
  const { data, loading, error, fetchMore, refetch } = usePrayerWall({
    variables,
    fetchPolicy: "cache-and-network",
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);

  usePrayerWallEvents({
    onData: ({ client, data: event }) => {
      const change = event.data?.prayerWall;
      if (!change) return;
      // The gateway lost PocketBase's stream for a moment: what we show may be stale.
      if (change.kind === "RESYNC") {
        void refetch();
        return;
      }
      let added = false;
      // What this viewer's cache already knows of the request (from another list, or before it left the wall).
      const cached = change.request
        ? client.cache.readFragment({
            id: client.cache.identify(change.request),
            fragment: PrayerCardFragmentDoc,
            fragmentName: "PrayerCard",
          })
        : null;
      const known = cached
        ? { prayedToday: cached.prayedToday, isMine: cached.isMine, flaggedByMe: cached.flaggedByMe }
        : undefined;
      for (const f of FILTERS) {
        client.cache.updateQuery({ query: PrayerWallDocument, variables: wallVariables(f) }, (wall) => {
          if (!wall) return undefined;
          const result = applyWallEvent(wall, change, f, known);
          if (result.added && f === filter) added = true;
          return result.wall ?? undefined;
        });
      }
      if (added) announce(t("prayer.newRequest"));
    },
  });

  async function showMore() {
    if (!data) return;
    const before = data.prayerWall.edges.length;
    setLoadingMore(true);
    setMoreError(null);
    try {
      await fetchMore({
        variables: { after: data.prayerWall.pageInfo.endCursor },
        updateQuery: appendEdges("prayerWall"),
      });
      // Keyboard and screen-reader users continue at the first new request, not at the top.
      requestAnimationFrame(() =>
        list.current?.querySelectorAll<HTMLElement>(".prayer-card__author")[before]?.focus(),
      );
    } catch (caught) {
      setMoreError(handleError(caught, i18n).message);
    } finally {
      setLoadingMore(false);
    }
  }

  // A request flagged back to moderation (or rejected) leaves at once, before the live event says so.
  const requests = (data?.prayerWall.edges.map((e) => e.node) ?? []).filter((r) => belongsOnWall(r, filter));
  return (
    <section className="prayer__wall" aria-labelledby="prayer-wall-title">
      <h2 id="prayer-wall-title" className="visually-hidden">
        {t("prayer.wallTitle")}
      </h2>
      <div className="prayer-filter" role="group" aria-label={t("prayer.filter")}>
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={filter === f}
            onClick={() => setParams(f === "ALL" ? {} : { filter: "answered" }, { replace: true })}
          >
            {t(`prayer.filter.${f}`)}
          </button>
        ))}
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        // A screen's height while the wall loads: on phones the request form sits below the wall and
        // would otherwise jump down when the requests arrive (CLS).
        <div className="prayer__wall-loading">
          <Loading />
        </div>
      ) : data && requests.length === 0 ? (
        <div className="empty">
          <p>{filter === "ANSWERED" ? t("prayer.emptyAnswered") : t("prayer.empty")}</p>
        </div>
      ) : (
        <ul className="prayer-list" ref={list}>
          {requests.map((request) => (
            <li key={request.id}>
              <PrayerCard request={request} announce={announce} />
            </li>
          ))}
        </ul>
      )}
      {moreError && <Alert kind="error">{moreError}</Alert>}
      {data?.prayerWall.pageInfo.hasNextPage && (
        <p className="prayer__more">
          <button
            type="button"
            className="button button--ghost"
            disabled={loadingMore}
            onClick={() => void showMore()}
          >
            {loadingMore ? t("app.loading") : t("prayer.showMore")}
          </button>
        </p>
      )}
    </section>
  );
}

/** /prayer/:id: one request (where notifications link to), with its state for the requester. */
export function PrayerRequestPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { announce, region } = useAnnouncer();
  const { data, loading, error } = usePrayerRequestPage({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  usePageTitle(t("prayer.requestTitle"));
  if (loading && !data) return <Loading />;
  if (error && !data) {
    return (
      <div className="container narrow page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  }
  const request = data?.prayerRequest;
  if (!request) return <NotFoundPage />;
  const onWall = request.status === "APPROVED" || request.status === "ANSWERED";
  return (
    <div className="container narrow page prayer prayer-single">
      <p>
        <Link to="/prayer">{t("prayer.backToWall")}</Link>
      </p>
      <h1 className="visually-hidden">{t("prayer.requestTitle")}</h1>
      {region}
      {request.isMine && !onWall && (
        <Alert kind={request.status === "REJECTED" ? "warning" : "info"}>
          <span className={`prayer-badge ${STATUS_BADGE[request.status]}`}>
            {t(`prayer.status.${request.status}`)}
          </span>{" "}
          {request.status === "REJECTED" && request.rejectReason
            ? `${t("prayer.mine.reason")} ${request.rejectReason}`
            : t(`prayer.statusHint.${request.status}`)}
        </Alert>
      )}
      <PrayerCard request={request} announce={announce} headingLevel={2} />
      {request.isMine && request.can.markAnswered && (
        <p className="prayer-single__actions">
          <AnsweredButton request={request} announce={announce} />
        </p>
      )}
    </div>
  );
}
