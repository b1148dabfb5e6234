import { useEffect, useId, useState, type FormEvent } from "react";
import { useAdminUpdatePerson, type AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import type { HouseholdRole, MembershipStatus, PersonInput, Visibility } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { useUnsavedChangesWarning } from "../../../lib/useUnsavedChangesWarning.ts";
import { useFocusFirstError } from "../../../lib/useForm.ts";
import { LIMITS } from "@flock/shared/limits";
import {
  HOUSEHOLD_ROLES,
  MEMBERSHIP_STATUSES,
  VISIBILITIES,
  VisibilityBadge,
  useChurchToday,
} from "./common.tsx";
import { useCalendarDates } from "../../../lib/dates.ts";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

interface Draft {
  firstName: string;
  lastName: string;
  preferredName: string;
  birthDate: string;
  birthdayVisibility: Visibility | "";
  householdRole: HouseholdRole | "";
  membershipStatus: MembershipStatus | "";
  directoryOptOut: boolean;
}

const FIELDS = [
  "firstName",
  "lastName",
  "preferredName",
  "birthDate",
  "birthdayVisibility",
  "householdRole",
  "membershipStatus",
  "directoryOptOut",
];

function draftFrom(person: AdminPersonDetailsFragment): Draft {
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    preferredName: person.preferredName ?? "",
    birthDate: person.birthDate ?? "",
    birthdayVisibility: person.birthday?.visibility ?? "",
    householdRole: person.householdRole ?? "",
    membershipStatus: person.membershipStatus ?? "",
    directoryOptOut: person.directoryOptOut,
  };
}

/** Only what changed, so a save never overwrites a field someone else changed meanwhile. */
function changes(draft: Draft, saved: Draft): PersonInput {
  const input: PersonInput = {};
  if (draft.firstName !== saved.firstName) input.firstName = draft.firstName.trim();
  if (draft.lastName !== saved.lastName) input.lastName = draft.lastName.trim();
  if (draft.preferredName !== saved.preferredName) input.preferredName = draft.preferredName.trim();
  if (draft.birthDate !== saved.birthDate) input.birthDate = draft.birthDate || null;
  if (draft.birthdayVisibility !== saved.birthdayVisibility && draft.birthdayVisibility)
    input.birthdayVisibility = draft.birthdayVisibility;
  if (draft.householdRole !== saved.householdRole && draft.householdRole)
    input.householdRole = draft.householdRole;
  if (draft.membershipStatus !== saved.membershipStatus && draft.membershipStatus)
    input.membershipStatus = draft.membershipStatus;
  if (draft.directoryOptOut !== saved.directoryOptOut) input.directoryOptOut = draft.directoryOptOut;
  return input;
}

/** Names, birth date, role, membership and directory choice, saved together (staff with people.manage). */
export function PersonDetailsForm({ person }: { person: AdminPersonDetailsFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const today = useChurchToday();
  const [saved, setSaved] = useState<Draft>(() => draftFrom(person));
  const [draft, setDraft] = useState<Draft>(saved);
  const [error, setError] = useState<UiError | null>(null);
  const formRef = useFocusFirstError(error);
  const [done, setDone] = useState(false);
  const [updatePerson, { loading }] = useAdminUpdatePerson();
  const input = changes(draft, saved);
  const dirty = Object.keys(input).length > 0;

  // Changes made elsewhere (approval, another tab) show up here unless this form has unsaved edits.
  const fresh = draftFrom(person);
  const freshKey = JSON.stringify(fresh);
  useEffect(() => {
    if (dirty) return;
    setSaved(fresh);
    setDraft(fresh);
    // Only when the record itself changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [freshKey]);

  useUnsavedChangesWarning(dirty);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDone(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const fieldError = (name: string) => error?.fieldErrors[name];

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(false);
    try {
      const result = await updatePerson({ variables: { id: person.id, input } });
      const updated = result.data?.updatePerson;
      if (updated) {
        const next = draftFrom(updated);
        setSaved(next);
        setDraft(next);
      }
      setDone(true);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <section className="card staff-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t("admin.people.details")}</h2>
      <form ref={formRef} className="form" onSubmit={(e) => void save(e)} noValidate>
        <FormErrorSummary error={error} fields={FIELDS} />
        <div className="form__row">
          <TextField
            label={t("admin.people.field.firstName")}
            required
            maxLength={LIMITS.personNameMax}
            value={draft.firstName}
            onChange={(e) => set("firstName", e.target.value)}
            error={fieldError("firstName")}
          />
          <TextField
            label={t("admin.people.field.lastName")}
            required
            maxLength={LIMITS.personNameMax}
            value={draft.lastName}
            onChange={(e) => set("lastName", e.target.value)}
            error={fieldError("lastName")}
          />
        </div>
        <TextField
          label={t("admin.people.field.preferredName")}
          optionalText={t("common.optional")}
          hint={t("admin.people.field.preferredNameHint")}
          maxLength={LIMITS.personNameMax}
          value={draft.preferredName}
          onChange={(e) => set("preferredName", e.target.value)}
          error={fieldError("preferredName")}
        />
        <div className="form__row">
          <TextField
            label={t("admin.people.field.birthDate")}
            optionalText={t("common.optional")}
            type="date"
            max={today}
            hint={t("admin.people.field.birthDateHint")}
            value={draft.birthDate}
            onChange={(e) => set("birthDate", e.target.value)}
            error={fieldError("birthDate")}
          />
          {(draft.birthDate || draft.birthdayVisibility) && (
            <SelectField
              label={t("admin.people.field.birthdayVisibility")}
              hint={t("admin.people.field.birthdayVisibilityHint")}
              value={draft.birthdayVisibility}
              onChange={(e) => set("birthdayVisibility", e.target.value as Visibility)}
              error={fieldError("birthdayVisibility")}
            >
              {!draft.birthdayVisibility && <option value="">{t("admin.people.visibility.default")}</option>}
              {VISIBILITIES.map((v) => (
                <option key={v} value={v}>
                  {t(`admin.people.visibility.${v}`)}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="form__row">
          <SelectField
            label={t("admin.people.field.membershipStatus")}
            value={draft.membershipStatus}
            onChange={(e) => set("membershipStatus", e.target.value as MembershipStatus)}
            error={fieldError("membershipStatus")}
          >
            {!draft.membershipStatus && <option value="">{t("admin.people.notSet")}</option>}
            {MEMBERSHIP_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.people.membership.${s}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("admin.people.field.householdRole")}
            value={draft.householdRole}
            onChange={(e) => set("householdRole", e.target.value as HouseholdRole)}
            error={fieldError("householdRole")}
          >
            {!draft.householdRole && <option value="">{t("admin.people.notSet")}</option>}
            {HOUSEHOLD_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.people.role.${r}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <CheckboxField
          label={t("admin.people.field.directoryOptOut")}
          hint={t("admin.people.field.directoryOptOutHint")}
          checked={draft.directoryOptOut}
          onChange={(e) => set("directoryOptOut", e.target.checked)}
        />
        {fieldError("directoryOptOut") && <p className="field__error">{fieldError("directoryOptOut")}</p>}
        <div className="form__footer">
          <button type="submit" className="button" disabled={loading || !dirty}>
            {loading ? t("common.saving") : t("admin.people.saveDetails")}
          </button>
          {dirty && !loading && <span className="muted small">{t("admin.people.unsaved")}</span>}
          {done && !dirty && <Alert kind="success">{t("admin.people.saved")}</Alert>}
        </div>
      </form>
    </section>
  );
}

/** The same details, read-only (staff with people.view only). */
export function PersonDetailsSummary({ person }: { person: AdminPersonDetailsFragment }) {
  const { t } = useI18n();
  const dates = useCalendarDates();
  const titleId = useId();
  return (
    <section className="card staff-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t("admin.people.details")}</h2>
      <dl className="staff-facts staff-facts--wide">
        <dt>{t("admin.people.field.firstName")}</dt>
        <dd>{person.firstName || "—"}</dd>
        <dt>{t("admin.people.field.lastName")}</dt>
        <dd>{person.lastName || "—"}</dd>
        <dt>{t("admin.people.field.preferredName")}</dt>
        <dd>{person.preferredName || "—"}</dd>
        <dt>{t("admin.people.field.birthDate")}</dt>
        <dd>
          {person.birthDate
            ? dates.date(person.birthDate)
            : person.birthday
              ? dates.monthDay(person.birthday.month, person.birthday.day)
              : "—"}
          {person.birthday && (
            <>
              {" "}
              <VisibilityBadge visibility={person.birthday.visibility} />
            </>
          )}
        </dd>
        <dt>{t("admin.people.field.membershipStatus")}</dt>
        <dd>{person.membershipStatus ? t(`admin.people.membership.${person.membershipStatus}`) : "—"}</dd>
        <dt>{t("admin.people.field.householdRole")}</dt>
        <dd>{person.householdRole ? t(`admin.people.role.${person.householdRole}`) : "—"}</dd>
        <dt>{t("admin.people.directory")}</dt>
        <dd>
          {person.directoryOptOut
            ? t("admin.people.optedOut")
            : person.inDirectory
              ? t("admin.people.inDirectory")
              : t("admin.people.notInDirectory")}
        </dd>
      </dl>
    </section>
  );
}
