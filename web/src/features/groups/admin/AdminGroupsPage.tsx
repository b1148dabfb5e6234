import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { LIMITS } from "@flock/shared/limits";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import type {
  GroupInput,
  GroupType,
  GroupVisibility,
  JoinPolicy,
  LocationDisplay,
  RosterVisibility,
  Weekday,
} from "../../../gql/types.ts";
import { useAdminGroups, useCreateGroup, useSetGroupArchived } from "./AdminGroups.generated.ts";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import "../../../styles/staff.css";

const TYPES: GroupType[] = ["SMALL_GROUP", "CLASS", "MINISTRY", "TEAM"];
const VISIBILITIES: GroupVisibility[] = ["PUBLIC", "MEMBERS", "HIDDEN"];
const POLICIES: JoinPolicy[] = ["OPEN", "REQUEST", "CLOSED"];
const DISPLAYS: LocationDisplay[] = ["HIDDEN", "APPROXIMATE", "EXACT"];
const ROSTERS: RosterVisibility[] = ["LEADERS", "MEMBERS"];
const DAYS: Weekday[] = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

const EMPTY: GroupInput = {
  name: "",
  type: "SMALL_GROUP",
  description: "",
  schedule: "",
  meetingDay: null,
  area: "",
  address: "",
  locationDisplay: "APPROXIMATE",
  visibility: "PUBLIC",
  joinPolicy: "REQUEST",
  capacity: 0,
  rosterVisibility: "MEMBERS",
  chatEnabled: true,
};

/** /admin/groups: every group (hidden and archived too), a new group, archive and restore. */
export function AdminGroupsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.groups.title"));
  const { data, loading, error, refetch } = useAdminGroups({ fetchPolicy: "cache-and-network" });
  const [create, creating] = useCreateGroup();
  const [archive] = useSetGroupArchived();
  const [draft, setDraft] = useState<GroupInput>(EMPTY);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [created, setCreated] = useState<{ path: string } | null>(null);
  // The new-group form opens from the "New group" button, above nothing else (it was always open below the table).
  const [creatingOpen, setCreatingOpen] = useState(false);
  const set = <K extends keyof GroupInput>(key: K, value: GroupInput[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      const result = await create({
        variables: { input: { ...draft, capacity: Number(draft.capacity) || 0 } },
      });
      setCreated(result.data?.createGroup ?? null);
      setDraft(EMPTY);
      setCreatingOpen(false);
      await refetch();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  const fe = problem?.fieldErrors ?? {};
  const groups = data?.adminGroups ?? [];
  type Row = (typeof groups)[number];
  const setArchived = async (rows: Row[], archived: boolean) => {
    setProblem(null);
    try {
      for (const g of rows) await archive({ variables: { id: g.id, archived } });
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  };
  const columns: Column<Row>[] = [
    {
      key: "name",
      header: t("admin.groups.name"),
      sort: (g) => g.name,
      cell: (g) => (
        <>
          <Link to={g.path}>{g.name}</Link>
          <span className="list-meta">{t(`groups.type.${g.type}`)}</span>
        </>
      ),
    },
    {
      key: "visibility",
      header: t("admin.groups.visibility"),
      sort: (g) => g.visibility,
      cell: (g) => (
        <>
          {t(`admin.groups.visibility.${g.visibility}`)}
          <span className="list-meta">{t(`admin.groups.join.${g.joinPolicy}`)}</span>
        </>
      ),
    },
    {
      key: "members",
      header: t("admin.groups.members"),
      sort: (g) => g.memberCount,
      cell: (g) => (g.capacity > 0 ? `${g.memberCount} / ${g.capacity}` : g.memberCount),
    },
    {
      key: "requests",
      header: t("admin.groups.requests"),
      sort: (g) => g.pendingRequests.length,
      cell: (g) =>
        g.pendingRequests.length ? (
          <Link className="badge badge--warn" to={g.path}>
            {t("admin.groups.waiting", { count: g.pendingRequests.length })}
          </Link>
        ) : (
          <span className="list-meta">{t("admin.groups.noRequests")}</span>
        ),
    },
    {
      key: "status",
      header: t("admin.groups.status"),
      sort: (g) => g.status,
      cell: (g) => (
        <>
          <span className={`badge ${g.status === "ARCHIVED" ? "badge--muted" : "badge--ok"}`}>
            {g.status === "ARCHIVED" ? t("admin.groups.archived") : t("admin.groups.active")}
          </span>{" "}
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => void setArchived([g], g.status !== "ARCHIVED")}
          >
            {g.status === "ARCHIVED" ? t("admin.groups.restore") : t("admin.groups.archive")}
          </button>
        </>
      ),
    },
  ];
  return (
    <div className="admin-page">
      <div className="section-heading">
        <h1>{t("admin.groups.title")}</h1>
        <button
          type="button"
          className="button"
          aria-expanded={creatingOpen}
          aria-controls="new-group"
          onClick={() => setCreatingOpen((open) => !open)}
        >
          {t("admin.groups.new")}
        </button>
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {created && (
        <Alert kind="success">
          {t("admin.groups.created")} <Link to={created.path}>{t("admin.groups.open")}</Link>
        </Alert>
      )}
      {problem && !creatingOpen && <Alert kind="error">{problem.message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.groups.title")}
          rows={groups}
          rowKey={(g) => g.id}
          rowLabel={(g) => g.name}
          columns={columns}
          initialSort={{ key: "name", direction: "ascending" }}
          bulkActions={[
            { label: t("admin.groups.archive"), run: (rows) => setArchived(rows, true) },
            { label: t("admin.groups.restore"), run: (rows) => setArchived(rows, false) },
          ]}
          empty={<p>{t("admin.groups.empty")}</p>}
        />
      )}
      {creatingOpen && (
        <section id="new-group" className="card" aria-labelledby="new-group-title">
          <h2 id="new-group-title">{t("admin.groups.new")}</h2>
          {problem && <Alert kind="error">{problem.message}</Alert>}
          <form className="admin-form" onSubmit={(e) => void submit(e)}>
            <TextField
              label={t("admin.groups.name")}
              value={draft.name}
              required
              maxLength={LIMITS.groupNameMax}
              error={fe.name}
              onChange={(e) => set("name", e.target.value)}
            />
            <SelectField
              label={t("admin.groups.type")}
              value={draft.type}
              onChange={(e) => set("type", e.target.value as GroupType)}
            >
              {TYPES.map((v) => (
                <option key={v} value={v}>
                  {t(`groups.type.${v}`)}
                </option>
              ))}
            </SelectField>
            <TextAreaField
              label={t("admin.groups.description")}
              value={draft.description ?? ""}
              maxLength={LIMITS.markdownMax}
              error={fe.description}
              onChange={(e) => set("description", e.target.value)}
            />
            <TextField
              label={t("admin.groups.schedule")}
              value={draft.schedule ?? ""}
              maxLength={LIMITS.groupScheduleMax}
              error={fe.schedule}
              onChange={(e) => set("schedule", e.target.value)}
            />
            <SelectField
              label={t("admin.groups.day")}
              value={draft.meetingDay ?? ""}
              onChange={(e) => set("meetingDay", (e.target.value || null) as Weekday | null)}
            >
              <option value="">{t("groups.filter.any")}</option>
              {DAYS.map((v) => (
                <option key={v} value={v}>
                  {t(`groups.day.${v}`)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t("admin.groups.locationDisplay")}
              value={draft.locationDisplay}
              onChange={(e) => set("locationDisplay", e.target.value as LocationDisplay)}
            >
              {DISPLAYS.map((v) => (
                <option key={v} value={v}>
                  {t(`admin.groups.location.${v}`)}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t("admin.groups.area")}
              value={draft.area ?? ""}
              maxLength={LIMITS.groupAreaMax}
              error={fe.area}
              onChange={(e) => set("area", e.target.value)}
            />
            <TextField
              label={t("admin.groups.address")}
              value={draft.address ?? ""}
              maxLength={LIMITS.groupLocationMax}
              error={fe.address}
              onChange={(e) => set("address", e.target.value)}
            />
            <SelectField
              label={t("admin.groups.visibility")}
              value={draft.visibility}
              onChange={(e) => set("visibility", e.target.value as GroupVisibility)}
            >
              {VISIBILITIES.map((v) => (
                <option key={v} value={v}>
                  {t(`admin.groups.visibility.${v}`)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t("admin.groups.joinPolicy")}
              value={draft.joinPolicy}
              onChange={(e) => set("joinPolicy", e.target.value as JoinPolicy)}
            >
              {POLICIES.map((v) => (
                <option key={v} value={v}>
                  {t(`admin.groups.join.${v}`)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t("admin.groups.roster")}
              value={draft.rosterVisibility}
              onChange={(e) => set("rosterVisibility", e.target.value as RosterVisibility)}
            >
              {ROSTERS.map((v) => (
                <option key={v} value={v}>
                  {t(`admin.groups.roster.${v}`)}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t("admin.groups.capacity")}
              type="number"
              min={0}
              max={LIMITS.groupCapacityMax}
              value={String(draft.capacity ?? 0)}
              error={fe.capacity}
              onChange={(e) => set("capacity", Number(e.target.value))}
            />
            <CheckboxField
              label={t("admin.groups.chat")}
              checked={draft.chatEnabled}
              onChange={(e) => set("chatEnabled", e.target.checked)}
            />
            <button type="submit" className="button" disabled={creating.loading}>
              {t("admin.groups.create")}
            </button>{" "}
            <button type="button" className="button button--ghost" onClick={() => setCreatingOpen(false)}>
              {t("admin.groups.cancel")}
            </button>
          </form>
        </section>
      )}
    </div>
  );
}
