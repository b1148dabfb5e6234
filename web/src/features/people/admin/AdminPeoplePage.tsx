import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminPeopleCsvDocument,
  useAdminPeoplePage,
  type AdminPersonRowFragment,
} from "./AdminPeoplePage.generated.ts";
import type { AgeGroup, MembershipStatus, PeopleFilter, RecordStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import {
  AGE_GROUPS,
  Avatar,
  MEMBERSHIP_STATUSES,
  MembershipBadge,
  RECORD_STATUSES,
  RecordStatusBadge,
  useChurchToday,
} from "./common.tsx";
import { usePeoplePermissions } from "../../../lib/permissions.ts";
import { FilterChips } from "./FilterChips.tsx";
import { AddPersonDialog } from "./AddPersonDialog.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";

const PAGE_SIZE = 50;

/** `?membership=member,visitor` ⇄ ["MEMBER", "VISITOR"]: lower case in the address, unknown values ignored. */
function listParam<V extends string>(params: URLSearchParams, name: string, allowed: V[]): V[] {
  const raw = (params.get(name) ?? "").split(",").map((v) => v.trim().toUpperCase());
  return allowed.filter((v) => raw.includes(v));
}

export function AdminPeoplePage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.people.title"));
  const { canManage } = usePeoplePermissions();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const membership = listParam(params, "membership", MEMBERSHIP_STATUSES);
  const record = listParam(params, "record", RECORD_STATUSES);
  const age = listParam(params, "age", AGE_GROUPS);
  const urlSearch = params.get("q") ?? "";

  // The box updates at once; the address (and so the query) follows after a pause in typing.
  const [search, setSearch] = useState(urlSearch);
  const debounced = useDebounced(search.trim(), 300);
  const written = useRef(urlSearch);
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (debounced) next.set("q", debounced);
        else next.delete("q");
        return next;
      },
      { replace: true },
    );
  }, [debounced, setParams]);
  // Back/forward to another search: show it in the box.
  useEffect(() => {
    if (urlSearch !== written.current) {
      written.current = urlSearch;
      setSearch(urlSearch);
    }
  }, [urlSearch]);

  const filter = useMemo<PeopleFilter>(
    () => ({
      search: urlSearch || null,
      membershipStatus: membership.length ? membership : null,
      recordStatus: record.length ? record : null,
      ageGroup: age.length ? age : null,
    }),
    // The arrays are rebuilt on each render; their content is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [urlSearch, membership.join(), record.join(), age.join()],
  );
  const filtered = !!(filter.search || filter.membershipStatus || filter.recordStatus || filter.ageGroup);
  const { data, loading, error, fetchMore } = useAdminPeoplePage({
    variables: { first: PAGE_SIZE, filter },
    fetchPolicy: "cache-and-network",
  });
  const people = data?.people.edges.map((e) => e.node) ?? [];
  const pendingCount = data?.pendingSignUps.totalCount ?? 0;
  const pendingOnly = record.length === 1 && record[0] === "PENDING";
  const [exportFailure, setExportFailure] = useState<string | null>(null);

  function setList(name: string, values: string[]) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (values.length) next.set(name, values.map((v) => v.toLowerCase()).join(","));
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  }

  function clearFilters() {
    written.current = "";
    setSearch("");
    setParams({}, { replace: true });
  }

  return (
    <div className="page people-page">
      <div className="page-head">
        <h1>{t("admin.people.title")}</h1>
        <div className="actions">
          <ExportButton filter={filter} onFailure={setExportFailure} />
          {canManage && (
            <AddPersonDialog
              onCreated={(person) =>
                void navigate(`/admin/people/${person.id}`, { state: { created: true } })
              }
            />
          )}
        </div>
      </div>

      <div className="status-filter" role="group" aria-label={t("admin.people.view")}>
        <button type="button" aria-pressed={!pendingOnly} onClick={() => setList("record", [])}>
          {t("admin.people.tab.all")}
        </button>
        <button type="button" aria-pressed={pendingOnly} onClick={() => setList("record", ["PENDING"])}>
          {t("admin.people.tab.pending")}
          {pendingCount > 0 && (
            <span className="count-badge">
              <span className="visually-hidden">: </span>
              {pendingCount}
            </span>
          )}
        </button>
      </div>
      {pendingCount > 0 && !pendingOnly && !filtered && (
        <Alert kind="info">
          {t("admin.people.pendingNotice", { count: pendingCount })}{" "}
          <button type="button" className="link-button" onClick={() => setList("record", ["PENDING"])}>
            {t("admin.people.reviewPending")}
          </button>
        </Alert>
      )}

      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">{t("admin.people.search")}</span>
          <input
            type="search"
            placeholder={t("admin.people.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
      </div>
      <div className="staff-filters">
        <FilterChips
          label={t("admin.people.filter.membership")}
          options={MEMBERSHIP_STATUSES}
          value={membership}
          onChange={(next) => setList("membership", next)}
          optionLabel={(o: MembershipStatus) => t(`admin.people.membership.${o}`)}
        />
        <FilterChips
          label={t("admin.people.filter.record")}
          options={RECORD_STATUSES}
          value={record}
          onChange={(next) => setList("record", next)}
          optionLabel={(o: RecordStatus) => t(`admin.people.record.${o}`)}
        />
        <FilterChips
          label={t("admin.people.filter.age")}
          options={AGE_GROUPS}
          value={age}
          onChange={(next) => setList("age", next)}
          optionLabel={(o: AgeGroup) => t(`admin.people.ageRange.${o}`)}
        />
      </div>
      <div className="people-page__summary">
        {/* Announced politely so a screen reader hears the result of a filter or search. */}
        <p className="muted" role="status">
          {data
            ? filtered
              ? t("admin.people.countFiltered", { count: data.people.totalCount })
              : t("admin.people.count", { count: data.people.totalCount })
            : ""}
        </p>
        {filtered && (
          <button type="button" className="link-button" onClick={clearFilters}>
            {t("admin.people.clearFilters")}
          </button>
        )}
      </div>

      {exportFailure && <Alert kind="error">{exportFailure}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : people.length === 0 ? (
        <div className="empty">
          <p>{filtered ? t("admin.people.noMatch") : t("admin.people.empty")}</p>
          {filtered && (
            <button type="button" className="button button--ghost" onClick={clearFilters}>
              {t("admin.people.clearFilters")}
            </button>
          )}
        </div>
      ) : (
        <PeopleTable people={people} busy={loading} />
      )}
      {data?.people.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.people.pageInfo.endCursor },
              updateQuery: appendEdges("people"),
            })
          }
        >
          {t("admin.people.showMore")}
        </button>
      )}
    </div>
  );
}

/** The list page's table; `busy` while a new search or filter loads (the previous rows stay, dimmed). */
function PeopleTable({ people, busy }: { people: AdminPersonRowFragment[]; busy: boolean }) {
  const { t } = useI18n();
  return (
    // A wide table scrolls sideways inside this region; keyboard users scroll it once it has focus.
    <div
      className={`staff-table-scroll${busy ? " staff-table-scroll--busy" : ""}`}
      role="region"
      aria-label={t("admin.people.tableLabel")}
      aria-busy={busy}
      tabIndex={0}
    >
      <table className="table people-table">
        <thead>
          <tr>
            <th scope="col">{t("admin.people.column.name")}</th>
            <th scope="col">{t("admin.people.column.household")}</th>
            <th scope="col">{t("admin.people.column.status")}</th>
            <th scope="col">{t("admin.people.column.age")}</th>
            <th scope="col">{t("admin.people.column.contact")}</th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => {
            const email = person.emails.find((e) => e.isPrimary) ?? person.emails[0];
            const phone = person.phones.find((p) => p.isPrimary) ?? person.phones[0];
            return (
              <tr key={person.id}>
                <td data-label={t("admin.people.column.name")} className="people-table__name">
                  <div className="person-cell">
                    <Avatar name={person.displayName} url={person.photoUrl} />
                    <div>
                      <Link to={`/admin/people/${person.id}`} className="person-cell__name">
                        {person.lastName
                          ? `${person.lastName}, ${person.preferredName || person.firstName}`
                          : person.displayName}
                      </Link>
                      {person.preferredName && person.preferredName !== person.firstName && (
                        <span className="block muted small">
                          {t("admin.people.legalFirstName", { name: person.firstName })}
                        </span>
                      )}
                      {person.deletionRequestedAt && (
                        <span className="badge badge--danger">
                          {t("admin.people.deletionRequestedBadge")}
                        </span>
                      )}
                    </div>
                  </div>
                </td>
                <td data-label={t("admin.people.column.household")} className="people-table__household">
                  {person.household ? (
                    <Link to={`/admin/households/${person.household.id}`}>{person.household.name}</Link>
                  ) : (
                    <span className="muted">{t("admin.people.noHousehold")}</span>
                  )}
                </td>
                <td data-label={t("admin.people.column.status")} className="people-table__status">
                  <span className="staff-badges">
                    {/* Active is the usual case: only the exceptions get a record badge. */}
                    {person.recordStatus !== "ACTIVE" && <RecordStatusBadge status={person.recordStatus} />}
                    <MembershipBadge status={person.membershipStatus} />
                  </span>
                </td>
                <td data-label={t("admin.people.column.age")} className="people-table__age">
                  {t(`admin.people.age.${person.ageGroup}`)}
                </td>
                <td data-label={t("admin.people.column.contact")} className="people-table__contact">
                  {email && (
                    <a className="block" href={`mailto:${email.email}`}>
                      {/* A long address may break before the @ rather than mid-word. */}
                      {email.email.split("@")[0]}
                      <wbr />@{email.email.split("@").slice(1).join("@")}
                    </a>
                  )}
                  {phone && <span className="block">{phone.formatted}</span>}
                  {!email && !phone && <span className="muted people-table__none">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Downloads the filtered list as `people-YYYY-MM-DD.csv` (the server builds it; cells are formula-safe). */
function ExportButton({
  filter,
  onFailure,
}: {
  filter: PeopleFilter;
  onFailure(message: string | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const today = useChurchToday();
  const [busy, setBusy] = useState(false);

  async function exportCsv() {
    setBusy(true);
    onFailure(null);
    try {
      const { data } = await client.query({
        query: AdminPeopleCsvDocument,
        variables: { filter },
        fetchPolicy: "network-only",
      });
      if (!data) throw new Error("No CSV");
      // A byte-order mark so spreadsheet programs read the UTF-8 names (é, ñ…) correctly.
      const blob = new Blob(["\uFEFF", data.peopleCsv.replace(/^\uFEFF/, "")], {
        type: "text/csv;charset=utf-8",
      });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = `people-${today}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // Revoke later: some browsers start the download after the click handler returns.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (caught) {
      onFailure(handleError(caught, i18n).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="button button--ghost" disabled={busy} onClick={() => void exportCsv()}>
      {busy ? t("admin.people.exporting") : t("admin.people.export")}
    </button>
  );
}
