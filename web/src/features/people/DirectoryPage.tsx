import { useDeferredValue, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useDirectoryPage, type DirectoryHouseholdFragment } from "./directory.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { appendEdges } from "../../lib/appendEdges.ts";
import { handleError } from "../../lib/handleError.ts";
import { useDebounced } from "../../lib/useDebounced.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { Avatar } from "./Avatar.tsx";
import { AddressLines } from "./address.tsx";
import { ContactDetails, NotShownBadge } from "./ContactDetails.tsx";
import { LIMITS } from "@flock/shared/limits";

const PAGE_SIZE = 20;

/** Members only: the reason the directory is closed to a signed-in user who isn't an active member yet. */
export function MembersOnlyNotice() {
  const { t } = useI18n();
  const { data } = useAppShell();
  const pending = data?.viewer?.person?.recordStatus === "PENDING";
  return (
    <div className="container narrow page">
      <h1>{t("directory.title")}</h1>
      <Alert kind="info">
        <strong className="block">
          {pending ? t("directory.pendingTitle") : t("directory.membersOnlyTitle")}
        </strong>
        {pending ? t("directory.pendingBody") : t("directory.membersOnlyBody")}
      </Alert>
      <p>
        <Link to="/me">{t("directory.backToAccount")}</Link>
      </p>
    </div>
  );
}

/** The search text lives in the address (?q=) so a search can be shared, bookmarked and gone back to. */
function useSearchParam() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [text, setText] = useState(q);
  const debounced = useDebounced(text.trim(), 300);
  const written = useRef(q);
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    setParams(debounced ? { q: debounced } : {}, { replace: true });
  }, [debounced, setParams]);
  // Back and forward change the address: the box follows.
  useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    setText(q);
  }, [q]);
  return { text, setText, q };
}

export function DirectoryPage() {
  const { t } = useI18n();
  usePageTitle(t("directory.title"));
  const { data: shell } = useAppShell();
  if (!shell?.viewer?.isMember) return <MembersOnlyNotice />;
  return <Directory />;
}

function Directory() {
  const i18n = useI18n();
  const { t } = i18n;
  const { text, setText, q } = useSearchParam();
  const { data, previousData, loading, error, fetchMore } = useDirectoryPage({
    variables: { first: PAGE_SIZE, search: q || null },
  });
  // While a new search runs, the previous results stay (dimmed) rather than flashing away.
  // The cards render as deferred (interruptible) work, so a page of households never blocks input
  // in one long task on a slow phone; until then the previous results or the loading state show.
  const shown = useDeferredValue(data ?? previousData);
  const households = shown?.directory.edges.map((e) => e.node) ?? [];
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);

  async function showMore() {
    if (!data) return;
    const before = data.directory.edges.length;
    setLoadingMore(true);
    setMoreError(null);
    try {
      await fetchMore({
        variables: { after: data.directory.pageInfo.endCursor },
        updateQuery: appendEdges("directory"),
      });
      // Keyboard and screen-reader users continue at the first new household, not at the top.
      requestAnimationFrame(() =>
        list.current?.querySelectorAll<HTMLElement>(".household-card__name")[before]?.focus(),
      );
    } catch (caught) {
      setMoreError(handleError(caught, i18n).message);
    } finally {
      setLoadingMore(false);
    }
  }

  const searching = loading && !!previousData && !data;
  return (
    <div className="container page">
      <h1>{t("directory.title")}</h1>
      <p className="muted directory__intro">
        {t("directory.intro")} <Link to="/me/privacy">{t("directory.myListingLink")}</Link>
      </p>
      <div className="field directory__search" role="search">
        <label htmlFor="directory-search">{t("directory.search")}</label>
        <input
          id="directory-search"
          type="search"
          value={text}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={LIMITS.searchMax}
          aria-describedby="directory-search-hint"
          onChange={(event) => setText(event.target.value)}
        />
        <p className="field__hint" id="directory-search-hint">
          {t("directory.searchHint")}
        </p>
      </div>
      <p className="directory__count muted" role="status">
        {shown && !searching
          ? q
            ? t("directory.matches", { count: shown.directory.totalCount, q })
            : t("directory.count", { count: shown.directory.totalCount })
          : ""}
      </p>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {!shown && (loading || data) ? (
        <Loading />
      ) : shown && households.length === 0 ? (
        <div className="empty">
          <p>{q ? t("directory.noMatch", { q }) : t("directory.empty")}</p>
          {q && (
            <button type="button" className="button button--ghost" onClick={() => setText("")}>
              {t("directory.clearSearch")}
            </button>
          )}
        </div>
      ) : (
        <ul
          className={`household-grid${searching ? " is-stale" : ""}`}
          ref={list}
          aria-busy={searching || undefined}
        >
          {households.map((household) => (
            <li key={household.id}>
              <HouseholdCard household={household} />
            </li>
          ))}
        </ul>
      )}
      {moreError && <Alert kind="error">{moreError}</Alert>}
      {data?.directory.pageInfo.hasNextPage && (
        <p className="directory__more">
          <button
            type="button"
            className="button button--ghost"
            disabled={loadingMore}
            onClick={() => void showMore()}
          >
            {loadingMore ? t("app.loading") : t("directory.showMore")}
          </button>
        </p>
      )}
    </div>
  );
}

function HouseholdCard({ household }: { household: DirectoryHouseholdFragment }) {
  const headingId = `household-${household.id}`;
  const [only] = household.members;
  // Someone living alone: one heading that links to them, not their name twice.
  const solo = household.members.length === 1 && only ? only : null;
  return (
    <article className="household-card card" aria-labelledby={headingId}>
      <div className="household-card__header">
        <Avatar
          name={household.name}
          src={household.photo ?? solo?.thumb}
          size="lg"
          shape={household.photo ? "wide" : "round"}
        />
        <div className="household-card__title">
          <h2 id={headingId} className="household-card__name" tabIndex={-1}>
            {solo ? <Link to={`/directory/${solo.id}`}>{household.name}</Link> : household.name}
          </h2>
          {household.address && (
            <>
              <AddressLines address={household.address} whose={household.name} />{" "}
              <NotShownBadge visibility={household.address.visibility} />
            </>
          )}
        </div>
      </div>
      {solo ? (
        <ContactDetails person={solo} markNotShown />
      ) : (
        <ul className="household-card__members">
          {household.members.map((member) => (
            <li key={member.id} className="member-row">
              <div className="member-row__head">
                <Avatar name={member.displayName} src={member.thumb} size="sm" />
                <Link to={`/directory/${member.id}`} className="member-row__name">
                  {member.displayName}
                </Link>
              </div>
              <ContactDetails person={member} markNotShown />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
