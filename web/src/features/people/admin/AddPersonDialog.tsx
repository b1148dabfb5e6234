import { useId, useRef, useState, type FormEvent } from "react";
import { useAdminCreateHousehold, useAdminCreatePerson } from "./AddPersonDialog.generated.ts";
import type { AdminPersonRowFragment } from "./AdminPeoplePage.generated.ts";
import type { HouseholdRole, MembershipStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { SelectField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { useFocusFirstError } from "../../../lib/useForm.ts";
import { LIMITS } from "@flock/shared/limits";
import { HOUSEHOLD_ROLES, MEMBERSHIP_STATUSES, optional, useChurchToday } from "./common.tsx";
import { HouseholdPicker, type PickedHousehold } from "./Pickers.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

const EMPTY = {
  firstName: "",
  lastName: "",
  preferredName: "",
  birthDate: "",
  householdRole: "HEAD" as HouseholdRole | "",
  membershipStatus: "VISITOR" as MembershipStatus,
  email: "",
  phone: "",
};

/** Fields of this form; errors for any other field are listed at the top. */
const FIELDS = [
  "firstName",
  "lastName",
  "preferredName",
  "birthDate",
  "householdId",
  "householdRole",
  "membershipStatus",
  "email",
  "phone",
  "householdName",
];

/**
 * "Add person" (staff): names, household (a new one, or an existing one found by name), role,
 * membership status and the first email and phone. The household is created first; if the person
 * then fails validation, that household is reused on the next try rather than created twice.
 */
export function AddPersonDialog({
  onCreated,
  household,
  triggerLabel,
}: {
  onCreated(person: AdminPersonRowFragment): void;
  household?: PickedHousehold;
  triggerLabel?: string;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const today = useChurchToday();
  const [values, setValues] = useState({
    ...EMPTY,
    householdRole: (household ? "" : "HEAD") as HouseholdRole | "",
  });
  const [householdMode, setHouseholdMode] = useState<"new" | "existing">(household ? "existing" : "new");
  const [existing, setExisting] = useState<PickedHousehold | null>(household ?? null);
  const [createdHousehold, setCreatedHousehold] = useState<PickedHousehold | null>(null);
  // null: the household's name follows the last name until someone types their own.
  const [customHouseholdName, setCustomHouseholdName] = useState<string | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const formRef = useFocusFirstError(error);
  const [busy, setBusy] = useState(false);
  const [createPerson] = useAdminCreatePerson();
  const [createHousehold] = useAdminCreateHousehold();
  const set = (name: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));
  const fieldError = (name: string) => error?.fieldErrors[name];
  const householdName = customHouseholdName ?? values.lastName.trim();

  function open() {
    setError(null);
    dialog.current?.showModal();
  }

  function reset() {
    setValues({ ...EMPTY, householdRole: household ? "" : "HEAD" });
    setHouseholdMode(household ? "existing" : "new");
    setExisting(household ?? null);
    setCreatedHousehold(null);
    setCustomHouseholdName(null);
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (householdMode === "existing" && !existing) {
      setError({
        code: "BAD_USER_INPUT",
        message: t("error.BAD_USER_INPUT"),
        fieldErrors: { householdId: t("admin.people.add.chooseHousehold") },
      });
      return;
    }
    setBusy(true);
    try {
      let householdId = householdMode === "existing" ? existing?.id : createdHousehold?.id;
      if (householdMode === "new" && !householdId) {
        try {
          const created = await createHousehold({ variables: { input: { name: householdName.trim() } } });
          const made = created.data?.createHousehold;
          if (made) {
            setCreatedHousehold(made);
            householdId = made.id;
          }
        } catch (caught) {
          const failure = handleError(caught, i18n);
          // The household's own "name" field is the household name box here.
          if (failure.fieldErrors.name) failure.fieldErrors = { householdName: failure.fieldErrors.name };
          throw Object.assign(new Error("household"), { ui: failure });
        }
      }
      const result = await createPerson({
        variables: {
          input: {
            firstName: values.firstName.trim(),
            lastName: values.lastName.trim(),
            preferredName: optional(values.preferredName),
            birthDate: values.birthDate || null,
            householdId: householdId ?? null,
            householdRole: values.householdRole || null,
            membershipStatus: values.membershipStatus,
            email: optional(values.email),
            phone: optional(values.phone),
          },
        },
      });
      const person = result.data?.createPerson;
      if (person) {
        dialog.current?.close();
        reset();
        onCreated(person);
      }
    } catch (caught) {
      setError((caught as { ui?: UiError }).ui ?? handleError(caught, i18n));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button" onClick={open}>
        <span aria-hidden="true">+</span> {triggerLabel ?? t("admin.people.add.open")}
      </button>
      <dialog ref={dialog} className="dialog person-dialog" aria-labelledby={titleId}>
        <form ref={formRef} className="form" onSubmit={(e) => void submit(e)} noValidate>
          <h2 id={titleId}>
            {household
              ? t("admin.people.add.titleIn", { household: household.name })
              : t("admin.people.add.title")}
          </h2>
          <FormErrorSummary error={error} fields={FIELDS} />
          <div className="form__row">
            <TextField
              label={t("admin.people.field.firstName")}
              required
              autoComplete="off"
              maxLength={LIMITS.personNameMax}
              value={values.firstName}
              onChange={set("firstName")}
              error={fieldError("firstName")}
            />
            <TextField
              label={t("admin.people.field.lastName")}
              required
              autoComplete="off"
              maxLength={LIMITS.personNameMax}
              value={values.lastName}
              onChange={set("lastName")}
              error={fieldError("lastName")}
            />
          </div>
          <div className="form__row">
            <TextField
              label={t("admin.people.field.preferredName")}
              optionalText={t("common.optional")}
              autoComplete="off"
              maxLength={LIMITS.personNameMax}
              value={values.preferredName}
              onChange={set("preferredName")}
              error={fieldError("preferredName")}
            />
            <TextField
              label={t("admin.people.field.birthDate")}
              optionalText={t("common.optional")}
              type="date"
              max={today}
              value={values.birthDate}
              onChange={set("birthDate")}
              error={fieldError("birthDate")}
            />
          </div>

          {!household && (
            <fieldset className="radio-group">
              <legend>{t("admin.people.field.household")}</legend>
              <label className="field--checkbox">
                <input
                  type="radio"
                  name="household-mode"
                  checked={householdMode === "new"}
                  onChange={() => setHouseholdMode("new")}
                />
                {t("admin.people.add.newHousehold")}
              </label>
              <label className="field--checkbox">
                <input
                  type="radio"
                  name="household-mode"
                  checked={householdMode === "existing"}
                  onChange={() => setHouseholdMode("existing")}
                />
                {t("admin.people.add.existingHousehold")}
              </label>
            </fieldset>
          )}
          {!household && householdMode === "new" && (
            <TextField
              label={t("admin.people.field.householdName")}
              hint={
                createdHousehold
                  ? t("admin.people.add.householdCreated", { name: createdHousehold.name })
                  : t("admin.people.add.householdNameHint")
              }
              maxLength={LIMITS.householdNameMax}
              value={householdName}
              disabled={!!createdHousehold}
              onChange={(e) => setCustomHouseholdName(e.target.value)}
              // A refusal of the household itself (no adult in it, for example) is shown here too.
              error={fieldError("householdName") ?? fieldError("householdId")}
            />
          )}
          {!household && householdMode === "existing" && (
            <HouseholdPicker value={existing} onChange={setExisting} error={fieldError("householdId")} />
          )}

          <div className="form__row">
            <SelectField
              label={t("admin.people.field.householdRole")}
              value={values.householdRole}
              onChange={set("householdRole")}
              error={fieldError("householdRole")}
            >
              <option value="">{t("admin.people.notSet")}</option>
              {HOUSEHOLD_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`admin.people.role.${role}`)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t("admin.people.field.membershipStatus")}
              value={values.membershipStatus}
              onChange={set("membershipStatus")}
              error={fieldError("membershipStatus")}
            >
              {MEMBERSHIP_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`admin.people.membership.${status}`)}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="form__row">
            <TextField
              label={t("admin.people.field.email")}
              optionalText={t("common.optional")}
              type="email"
              autoComplete="off"
              maxLength={LIMITS.emailMax}
              value={values.email}
              onChange={set("email")}
              error={fieldError("email")}
            />
            <TextField
              label={t("admin.people.field.phone")}
              optionalText={t("common.optional")}
              type="tel"
              autoComplete="off"
              maxLength={LIMITS.phoneMax}
              hint={t("admin.people.field.phoneHint")}
              value={values.phone}
              onChange={set("phone")}
              error={fieldError("phone")}
            />
          </div>
          <FormActions
            submitLabel={t("admin.people.add.submit")}
            busy={busy}
            onCancel={() => dialog.current?.close()}
          />
        </form>
      </dialog>
    </>
  );
}
