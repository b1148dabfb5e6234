import { useId, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  useAdminAddServingMember,
  useAdminRemoveServingMember,
  useAdminServingPersonSearch,
  useAdminUpdateServingMember,
  type AdminServingMemberFragment,
  type AdminServingTeamDetailFragment,
} from "./AdminServing.generated.ts";
import type { ServingRole } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { useAbilities } from "../../../lib/abilities.ts";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { RoleBadge } from "./common.tsx";
import { Clearances } from "./Clearances.tsx";

const ROLES: ServingRole[] = ["MEMBER", "LEADER"];
/** People the search shows at once: enough to find one by name. */
const RESULTS = 8;
// Adding or removing someone changes the roster: the team is read again, and the button waits for it.
const REFETCH_TEAM = { refetchQueries: ["AdminServingTeam"], awaitRefetchQueries: true };

type Team = AdminServingTeamDetailFragment;
type Member = AdminServingMemberFragment;

/**
 * The team's roster on the staff table; "Add member" and a member's changes open in the drawer, the
 * open member's id in the address (?member=…) so Back closes it.
 */
export function Roster({ team }: { team: Team }) {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const manage = team.can.manageMembers;
  // The person picker searches the church's people list (viewPeople): a leader who is not staff keeps
  // their members' positions and roles, and asks the office to add someone new.
  const canPick = useAbilities().viewPeople;
  const open = team.members.find((m) => m.id === params.get("member")) ?? null;
  const positionName = new Map(team.positions.map((p) => [p.id, p.name]));

  const openMember = (member: Member) => {
    setNotice(null);
    setParams({ member: member.id });
  };
  const closeMember = () => setParams({}, { replace: true });

  const columns: Column<Member>[] = [
    {
      key: "name",
      header: t("admin.serving.roster.name"),
      sort: (m) => m.name,
      cell: (m) =>
        manage ? (
          <button type="button" className="link-button serving-roster__open" onClick={() => openMember(m)}>
            {m.name}
          </button>
        ) : (
          m.name
        ),
    },
    {
      key: "role",
      header: t("admin.serving.roster.role"),
      sort: (m) => m.role,
      cell: (m) => <RoleBadge role={m.role} />,
    },
    {
      key: "positions",
      header: t("admin.serving.positions"),
      cell: (m) => {
        const names = m.positionIds.map((id) => positionName.get(id)).filter(Boolean);
        return names.length ? (
          names.join(", ")
        ) : (
          <span className="muted">{t("admin.serving.roster.noPositions")}</span>
        );
      },
    },
    {
      key: "active",
      header: t("admin.serving.roster.active"),
      sort: (m) => (m.active ? 0 : 1),
      cell: (m) => (
        <span className={`badge ${m.active ? "badge--ok" : "badge--muted"}`}>
          {m.active ? t("admin.serving.roster.serving") : t("admin.serving.roster.notServing")}
        </span>
      ),
    },
  ];

  return (
    <section className="card staff-card" aria-labelledby="serving-roster-title">
      <div className="section-heading">
        <h2 id="serving-roster-title">
          {t("admin.serving.roster")} <span className="muted">({team.members.length})</span>
        </h2>
        {manage && canPick && (
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              setNotice(null);
              setAdding(true);
            }}
          >
            {t("admin.serving.roster.add")}
          </button>
        )}
      </div>
      {manage && !canPick && <p className="muted small">{t("admin.serving.roster.addViaOffice")}</p>}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <DataTable
        caption={t("admin.serving.roster.caption", { team: team.name })}
        rows={team.members}
        rowKey={(m) => m.id}
        rowLabel={(m) => m.name}
        columns={columns}
        empty={<p>{t("admin.serving.roster.empty")}</p>}
      />
      <Drawer open={adding} title={t("admin.serving.roster.addTitle")} onClose={() => setAdding(false)}>
        <AddMemberForm
          team={team}
          onCancel={() => setAdding(false)}
          onAdded={(name) => {
            setAdding(false);
            setNotice({ kind: "success", text: t("admin.serving.roster.added", { name }) });
          }}
        />
      </Drawer>
      <Drawer open={!!open} title={open?.name ?? ""} onClose={closeMember}>
        {open && (
          <MemberForm
            key={open.id}
            team={team}
            member={open}
            onClose={closeMember}
            onRemoved={() => {
              closeMember();
              setNotice({ kind: "success", text: t("admin.serving.roster.removed", { name: open.name }) });
            }}
          />
        )}
      </Drawer>
    </section>
  );
}

/** Checkboxes for the team's positions (the ones a member can fill). */
function PositionChoices({
  team,
  value,
  onChange,
  error,
}: {
  team: Team;
  value: string[];
  onChange(next: string[]): void;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="serving-choices">
      <legend>{t("admin.serving.roster.canFill")}</legend>
      {team.positions.length === 0 ? (
        <p className="muted small">{t("admin.serving.roster.noTeamPositions")}</p>
      ) : (
        team.positions.map((position) => (
          <CheckboxField
            key={position.id}
            label={position.name}
            checked={value.includes(position.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, position.id] : value.filter((id) => id !== position.id))
            }
          />
        ))
      )}
      {error && <p className="field__error">{error}</p>}
    </fieldset>
  );
}

function RoleChoice({ value, onChange }: { value: ServingRole; onChange(next: ServingRole): void }) {
  const { t } = useI18n();
  return (
    <SelectField
      label={t("admin.serving.roster.role")}
      hint={t("admin.serving.roster.roleHint")}
      value={value}
      onChange={(e) => onChange(e.target.value as ServingRole)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`admin.serving.role.${role}`)}
        </option>
      ))}
    </SelectField>
  );
}

interface Picked {
  id: string;
  name: string;
}

/** Choose a person (search by name or email), their role and positions, and put them on the team. */
function AddMemberForm({
  team,
  onCancel,
  onAdded,
}: {
  team: Team;
  onCancel(): void;
  onAdded(name: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [person, setPerson] = useState<Picked | null>(null);
  const [role, setRole] = useState<ServingRole>("MEMBER");
  const [positionIds, setPositionIds] = useState<string[]>([]);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [add, { loading }] = useAdminAddServingMember(REFETCH_TEAM);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!person) {
      setProblem({
        code: "BAD_USER_INPUT",
        message: t("admin.serving.roster.choosePerson"),
        fieldErrors: {},
      });
      return;
    }
    try {
      await add({ variables: { teamId: team.id, personId: person.id, role, positionIds } });
      onAdded(person.name);
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  return (
    <form
      className="form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t("admin.serving.roster.addTo", { team: team.name })}
    >
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <PersonSearch team={team} value={person} onChange={setPerson} />
      <RoleChoice value={role} onChange={setRole} />
      <PositionChoices
        team={team}
        value={positionIds}
        onChange={setPositionIds}
        error={problem?.fieldErrors.positionIds}
      />
      <FormActions
        submitLabel={t("admin.serving.roster.addSubmit")}
        busyLabel={t("admin.serving.roster.adding")}
        busy={loading}
        onCancel={onCancel}
      />
    </form>
  );
}

/**
 * Search the church's people (the staff people list) and choose one: a search box with the matches
 * as radio buttons, plain controls every screen reader and keyboard handles. People already on the
 * team are shown but cannot be chosen again.
 */
function PersonSearch({
  team,
  value,
  onChange,
}: {
  team: Team;
  value: Picked | null;
  onChange(next: Picked | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const can = useAbilities();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const { data, loading, error } = useAdminServingPersonSearch({
    variables: { search: query, first: RESULTS },
    skip: !query || !can.viewPeople,
  });
  const onTeam = new Set(team.members.map((m) => m.personId));
  const people = query ? (data?.people.edges.map((e) => e.node) ?? []) : [];
  // The chosen one stays listed while the search changes, so the choice never silently disappears.
  const shown =
    value && !people.some((p) => p.id === value.id)
      ? [{ id: value.id, displayName: value.name, household: null }, ...people]
      : people;
  // Finding people reads the people list, which some roles that run serving cannot see.
  if (!can.viewPeople) return <Alert kind="info">{t("admin.serving.roster.cannotSearch")}</Alert>;
  return (
    <div className="picker-field">
      <div className="field">
        <label htmlFor={`${id}-search`}>{t("admin.serving.roster.search")}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          autoComplete="off"
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <fieldset className="picker-results" aria-busy={loading}>
        <legend className="visually-hidden">{t("admin.serving.roster.people")}</legend>
        {error ? (
          <p className="field__error">{handleError(error, i18n).message}</p>
        ) : shown.length === 0 ? (
          <p className="muted small">
            {!query
              ? t("admin.serving.roster.typeToSearch")
              : loading
                ? t("app.loading")
                : t("admin.serving.roster.noPeople")}
          </p>
        ) : (
          shown.map((person) => {
            const already = onTeam.has(person.id);
            return (
              <label key={person.id} className={`picker-option${already ? " picker-option--taken" : ""}`}>
                <input
                  type="radio"
                  name={`${id}-person`}
                  checked={value?.id === person.id}
                  disabled={already}
                  onChange={() => onChange({ id: person.id, name: person.displayName })}
                />
                <span>
                  <span className="picker-option__name">{person.displayName}</span>
                  <span className="block muted small">
                    {already ? t("admin.serving.roster.alreadyOn") : (person.household?.name ?? "")}
                  </span>
                </span>
              </label>
            );
          })
        )}
      </fieldset>
    </div>
  );
}

/** One member in the drawer: role, positions, whether they still serve; or off the team altogether. */
function MemberForm({
  team,
  member,
  onClose,
  onRemoved,
}: {
  team: Team;
  member: Member;
  onClose(): void;
  onRemoved(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [role, setRole] = useState<ServingRole>(member.role);
  const [positionIds, setPositionIds] = useState<string[]>(member.positionIds);
  const [active, setActive] = useState(member.active);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [update, updating] = useAdminUpdateServingMember();
  const [remove, removing] = useAdminRemoveServingMember(REFETCH_TEAM);

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await update({ variables: { id: member.id, role, positionIds, active } });
      onClose();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  async function removeFromTeam() {
    if (!window.confirm(t("admin.serving.roster.confirmRemove", { name: member.name, team: team.name })))
      return;
    setProblem(null);
    try {
      await remove({ variables: { id: member.id } });
      onRemoved();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  return (
    <div className="serving-member">
      <form
        className="form"
        onSubmit={(e) => void save(e)}
        noValidate
        aria-label={t("admin.serving.roster.change", { name: member.name })}
      >
        {problem && <Alert kind="error">{problem.message}</Alert>}
        <RoleChoice value={role} onChange={setRole} />
        <PositionChoices
          team={team}
          value={positionIds}
          onChange={setPositionIds}
          error={problem?.fieldErrors.positionIds}
        />
        <CheckboxField
          label={t("admin.serving.roster.stillServing")}
          hint={t("admin.serving.roster.stillServingHint")}
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
        />
        <FormActions
          submitLabel={t("admin.serving.roster.save")}
          busy={updating.loading}
          disabled={removing.loading}
          onCancel={onClose}
        />
      </form>
      <Clearances personId={member.personId} name={member.name} clearances={member.clearances} />
      <div className="serving-member__remove">
        <h3>{t("admin.serving.roster.removeTitle")}</h3>
        <p className="muted small">{t("admin.serving.roster.removeHint")}</p>
        <button
          type="button"
          className="button button--danger-ghost button--small"
          disabled={removing.loading || updating.loading}
          onClick={() => void removeFromTeam()}
        >
          {removing.loading ? t("admin.serving.deleting") : t("admin.serving.roster.remove")}
        </button>
      </div>
    </div>
  );
}
