import { useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useAdminUpdatePerson, type AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import type { HouseholdRole } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { SelectField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { HOUSEHOLD_ROLES } from "./common.tsx";
import { HouseholdPicker, type PickedHousehold } from "./Pickers.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";
import type { Notice } from "../../../components/Alert.tsx";

/** The person's household and its people, with "Move to another household" for people managers. */
export function HouseholdCard({
  person,
  canManage,
  onNotice,
}: {
  person: AdminPersonDetailsFragment;
  canManage: boolean;
  onNotice(notice: Notice | null): void;
}) {
  const { t } = useI18n();
  const household = person.household;
  const others = household?.members.filter((m) => m.id !== person.id) ?? [];
  return (
    <section className="card staff-side-card" aria-labelledby="household-title">
      <h2 id="household-title">{t("admin.people.household.title")}</h2>
      {household ? (
        <>
          <p className="staff-side-card__lead">
            <Link to={`/admin/households/${household.id}`}>{household.name}</Link>
          </p>
          {others.length > 0 && (
            <ul className="staff-plain-list">
              {others.map((member) => (
                <li key={member.id}>
                  <Link to={`/admin/people/${member.id}`}>{member.displayName}</Link>
                  {member.householdRole && (
                    <span className="muted small"> · {t(`admin.people.role.${member.householdRole}`)}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="muted">{t("admin.people.household.none")}</p>
      )}
      {canManage && <MoveDialog person={person} onNotice={onNotice} />}
    </section>
  );
}

function MoveDialog({
  person,
  onNotice,
}: {
  person: AdminPersonDetailsFragment;
  onNotice(notice: Notice | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<PickedHousehold | null>(null);
  const [role, setRole] = useState<HouseholdRole | "">(person.householdRole ?? "");
  const [error, setError] = useState<UiError | null>(null);
  const [updatePerson, { loading }] = useAdminUpdatePerson({ refetchQueries: ["AdminPersonPage"] });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!target) {
      setError({
        code: "BAD_USER_INPUT",
        message: t("error.BAD_USER_INPUT"),
        fieldErrors: { householdId: t("admin.people.add.chooseHousehold") },
      });
      return;
    }
    try {
      await updatePerson({
        variables: {
          id: person.id,
          input: { householdId: target.id, ...(role ? { householdRole: role } : {}) },
        },
      });
      dialog.current?.close();
      onNotice({
        kind: "success",
        text: t("admin.people.household.moved", { name: person.displayName, household: target.name }),
      });
      setTarget(null);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {person.household ? t("admin.people.household.move") : t("admin.people.household.add")}
      </button>
      <dialog ref={dialog} className="dialog person-dialog" aria-labelledby={titleId}>
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <h2 id={titleId}>{t("admin.people.household.moveTitle", { name: person.displayName })}</h2>
          {person.household && (
            <p className="muted">
              {t("admin.people.household.current", { household: person.household.name })}
            </p>
          )}
          <FormErrorSummary error={error} fields={["householdId", "householdRole"]} />
          <HouseholdPicker value={target} onChange={setTarget} error={error?.fieldErrors.householdId} />
          <SelectField
            label={t("admin.people.field.householdRole")}
            value={role}
            onChange={(e) => setRole(e.target.value as HouseholdRole)}
            error={error?.fieldErrors.householdRole}
          >
            {!role && <option value="">{t("admin.people.notSet")}</option>}
            {HOUSEHOLD_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.people.role.${r}`)}
              </option>
            ))}
          </SelectField>
          <FormActions
            submitLabel={t("admin.people.household.moveSubmit")}
            busy={loading}
            onCancel={() => dialog.current?.close()}
          />
        </form>
      </dialog>
    </>
  );
}
