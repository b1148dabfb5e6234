import { useId, useState, type FormEvent, type ReactNode } from "react";
import {
  useAdminAddEmail,
  useAdminAddPhone,
  useAdminRemoveEmail,
  useAdminRemovePhone,
  useAdminUpdateEmail,
  useAdminUpdatePhone,
} from "./ContactDetails.generated.ts";
import type { AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import type { PhoneKind, Visibility } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { telLink } from "../../../components/PostalAddress.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { LIMITS } from "@flock/shared/limits";
import { PHONE_KINDS, VISIBILITIES, VisibilityBadge } from "./common.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

type Email = AdminPersonDetailsFragment["emails"][number];
type Phone = AdminPersonDetailsFragment["phones"][number];

// Adding, removing or making one primary changes the others too: reload the person's rows.
const REFRESH = { refetchQueries: ["AdminPersonPage"], awaitRefetchQueries: true };

/** Every email and phone of the person, with who may see each; staff with people.manage edit them. */
export function ContactDetails({
  person,
  canManage,
}: {
  person: AdminPersonDetailsFragment;
  canManage: boolean;
}) {
  const { t } = useI18n();
  const titleId = useId();
  return (
    <section className="card staff-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t("admin.people.contact.title")}</h2>
      <p className="muted small">{t("admin.people.contact.intro")}</p>
      <EmailList person={person} canManage={canManage} />
      <PhoneList person={person} canManage={canManage} />
    </section>
  );
}

function EmailList({ person, canManage }: { person: AdminPersonDetailsFragment; canManage: boolean }) {
  const { t } = useI18n();
  const [removeEmail] = useAdminRemoveEmail(REFRESH);
  return (
    <ContactList
      title={t("admin.people.contact.emails")}
      emptyText={t("admin.people.contact.noEmails")}
      addLabel={t("admin.people.contact.addEmail")}
      rows={person.emails}
      canManage={canManage}
      nameOf={(email) => email.email}
      renderValue={(email) => <a href={`mailto:${email.email}`}>{email.email}</a>}
      remove={(email) => removeEmail({ variables: { id: email.id } })}
      renderForm={(email, onDone) => <EmailForm personId={person.id} email={email} onDone={onDone} />}
    />
  );
}

function PhoneList({ person, canManage }: { person: AdminPersonDetailsFragment; canManage: boolean }) {
  const { t } = useI18n();
  const [removePhone] = useAdminRemovePhone(REFRESH);
  return (
    <ContactList
      title={t("admin.people.contact.phones")}
      emptyText={t("admin.people.contact.noPhones")}
      addLabel={t("admin.people.contact.addPhone")}
      rows={person.phones}
      canManage={canManage}
      nameOf={(phone) => phone.formatted}
      renderValue={(phone) => (
        <>
          <a href={telLink(phone.number)}>{phone.formatted}</a>
          {phone.kind && <span className="muted"> · {t(`admin.people.phoneKind.${phone.kind}`)}</span>}
        </>
      )}
      remove={(phone) => removePhone({ variables: { id: phone.id } })}
      renderForm={(phone, onDone) => <PhoneForm personId={person.id} phone={phone} onDone={onDone} />}
    />
  );
}

/**
 * One kind of contact row (emails or phones): the rows with who may see each, one of them (or a new
 * one) open in its form at a time. What differs between the kinds comes in as props.
 */
function ContactList<Row extends { id: string; isPrimary: boolean; visibility: Visibility }>({
  title,
  emptyText,
  addLabel,
  rows,
  canManage,
  nameOf,
  renderValue,
  remove,
  renderForm,
}: {
  title: string;
  emptyText: string;
  addLabel: string;
  rows: readonly Row[];
  canManage: boolean;
  /** The row as named in buttons and the removal question. */
  nameOf(row: Row): string;
  renderValue(row: Row): ReactNode;
  remove(row: Row): Promise<unknown>;
  /** The row's form (null: a new row); it calls `onDone` once saved or cancelled. */
  renderForm(row: Row | null, onDone: () => void): ReactNode;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  // The id of the row open in its form, or "new".
  const [editing, setEditing] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const done = () => setEditing(null);
  return (
    <div className="contact-group">
      <h3>{title}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      {rows.length === 0 && <p className="muted">{emptyText}</p>}
      <ul className="staff-contacts">
        {rows.map((row) =>
          editing === row.id ? (
            <li key={row.id} className="staff-contacts__item staff-contacts__item--editing">
              {renderForm(row, done)}
            </li>
          ) : (
            <ContactRow
              key={row.id}
              main={renderValue(row)}
              primary={row.isPrimary}
              visibility={row.visibility}
              canManage={canManage}
              name={nameOf(row)}
              onEdit={() => setEditing(row.id)}
              onRemove={() => {
                if (!window.confirm(t("admin.people.contact.confirmRemove", { value: nameOf(row) }))) return;
                setFailure(null);
                remove(row).catch((caught: unknown) => setFailure(handleError(caught, i18n).message));
              }}
            />
          ),
        )}
      </ul>
      {canManage &&
        (editing === "new" ? (
          renderForm(null, done)
        ) : (
          <AddButton label={addLabel} onClick={() => setEditing("new")} />
        ))}
    </div>
  );
}

function AddButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <button type="button" className="button button--ghost button--small" onClick={onClick}>
      <span aria-hidden="true">+</span> {label}
    </button>
  );
}

function ContactRow({
  main,
  primary,
  visibility,
  canManage,
  name,
  onEdit,
  onRemove,
}: {
  main: ReactNode;
  primary: boolean;
  visibility: Visibility;
  canManage: boolean;
  name: string;
  onEdit(): void;
  onRemove(): void;
}) {
  const { t } = useI18n();
  return (
    <li className="staff-contacts__item">
      <span className="staff-contacts__value">{main}</span>
      <span className="staff-badges">
        {primary && <span className="badge badge--ok">{t("admin.people.contact.primary")}</span>}
        <VisibilityBadge visibility={visibility} />
      </span>
      {canManage && (
        <span className="staff-contacts__actions">
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={t("admin.people.contact.editNamed", { value: name })}
            onClick={onEdit}
          >
            {t("admin.people.contact.edit")}
          </button>
          <button
            type="button"
            className="button button--danger-ghost button--small"
            aria-label={t("admin.people.contact.removeNamed", { value: name })}
            onClick={onRemove}
          >
            {t("admin.people.contact.remove")}
          </button>
        </span>
      )}
    </li>
  );
}

/** Who may see the row; "" (new rows only) leaves it to the church's default from settings. */
function VisibilitySelect({
  value,
  onChange,
  error,
}: {
  value: Visibility | "";
  onChange(v: Visibility | ""): void;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <SelectField
      label={t("admin.people.contact.visibility")}
      value={value}
      onChange={(e) => onChange(e.target.value as Visibility | "")}
      error={error}
    >
      {value === "" && <option value="">{t("admin.people.visibility.default")}</option>}
      {VISIBILITIES.map((v) => (
        <option key={v} value={v}>
          {t(`admin.people.visibility.${v}`)}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * The parts every contact row's form shares: who may see it, "primary", the errors and the buttons.
 * `save` gets those two choices and sends them with the kind's own fields (`children`).
 */
function ContactRowForm({
  label,
  row,
  fields,
  saving,
  save,
  onDone,
  children,
}: {
  label: string;
  row: { visibility: Visibility; isPrimary: boolean } | null;
  /** The kind's own fields, whose errors show beside them rather than in the summary. */
  fields: string[];
  saving: boolean;
  save(choices: { isPrimary: boolean; visibility?: Visibility }): Promise<unknown>;
  onDone(): void;
  children(error: UiError | null): ReactNode;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [visibility, setVisibility] = useState<Visibility | "">(row?.visibility ?? "");
  const [isPrimary, setIsPrimary] = useState(row?.isPrimary ?? false);
  const [error, setError] = useState<UiError | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await save({ isPrimary, ...(visibility ? { visibility } : {}) });
      onDone();
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <form className="form contact-form" onSubmit={(e) => void submit(e)} noValidate aria-label={label}>
      <FormErrorSummary error={error} fields={[...fields, "visibility", "isPrimary"]} />
      {children(error)}
      <VisibilitySelect value={visibility} onChange={setVisibility} error={error?.fieldErrors.visibility} />
      <CheckboxField
        label={t("admin.people.contact.makePrimary")}
        checked={isPrimary}
        onChange={(e) => setIsPrimary(e.target.checked)}
      />
      {error?.fieldErrors.isPrimary && <p className="field__error">{error.fieldErrors.isPrimary}</p>}
      <FormActions submitLabel={t("common.save")} busy={saving} onCancel={onDone} small />
    </form>
  );
}

function EmailForm({ personId, email, onDone }: { personId: string; email: Email | null; onDone(): void }) {
  const { t } = useI18n();
  const [value, setValue] = useState(email?.email ?? "");
  const [addEmail, { loading: adding }] = useAdminAddEmail(REFRESH);
  const [updateEmail, { loading: updating }] = useAdminUpdateEmail(REFRESH);
  return (
    <ContactRowForm
      label={
        email
          ? t("admin.people.contact.editNamed", { value: email.email })
          : t("admin.people.contact.addEmail")
      }
      row={email}
      fields={["email"]}
      saving={adding || updating}
      onDone={onDone}
      save={(choices) => {
        const input = { email: value.trim(), ...choices };
        return email
          ? updateEmail({ variables: { id: email.id, input } })
          : addEmail({ variables: { personId, input } });
      }}
    >
      {(error) => (
        <TextField
          label={t("admin.people.field.email")}
          type="email"
          required
          autoFocus
          maxLength={LIMITS.emailMax}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error?.fieldErrors.email}
        />
      )}
    </ContactRowForm>
  );
}

function PhoneForm({ personId, phone, onDone }: { personId: string; phone: Phone | null; onDone(): void }) {
  const { t } = useI18n();
  const [number, setNumber] = useState(phone?.formatted ?? "");
  const [kind, setKind] = useState<PhoneKind | "">(phone?.kind ?? "MOBILE");
  const [addPhone, { loading: adding }] = useAdminAddPhone(REFRESH);
  const [updatePhone, { loading: updating }] = useAdminUpdatePhone(REFRESH);
  return (
    <ContactRowForm
      label={
        phone
          ? t("admin.people.contact.editNamed", { value: phone.formatted })
          : t("admin.people.contact.addPhone")
      }
      row={phone}
      fields={["number", "kind"]}
      saving={adding || updating}
      onDone={onDone}
      save={(choices) => {
        const input = { number: number.trim(), kind: kind || null, ...choices };
        return phone
          ? updatePhone({ variables: { id: phone.id, input } })
          : addPhone({ variables: { personId, input } });
      }}
    >
      {(error) => (
        <div className="form__row">
          <TextField
            label={t("admin.people.field.phone")}
            type="tel"
            required
            autoFocus
            maxLength={LIMITS.phoneMax}
            hint={t("admin.people.field.phoneHint")}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            error={error?.fieldErrors.number}
          />
          <SelectField
            label={t("admin.people.contact.kind")}
            value={kind}
            onChange={(e) => setKind(e.target.value as PhoneKind)}
            error={error?.fieldErrors.kind}
          >
            {PHONE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.people.phoneKind.${k}`)}
              </option>
            ))}
          </SelectField>
        </div>
      )}
    </ContactRowForm>
  );
}
