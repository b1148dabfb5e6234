import { useId, useState, type FormEvent, type ReactNode } from "react";
import {
  useAdminAddEmail,
  useAdminAddPhone,
  useAdminRemoveEmail,
  useAdminRemovePhone,
  useAdminUpdateEmail,
  useAdminUpdatePhone,
  type AdminPersonDetailsFragment,
  type PhoneKind,
  type Visibility,
} from "../../../gql/generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextField } from "../../../components/Field.tsx";
import { telLink } from "../../../components/PostalAddress.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { LIMITS } from "../../../../../gateway/src/validation/limits.ts";
import { PHONE_KINDS, VISIBILITIES, VisibilityBadge } from "./common.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

type Email = AdminPersonDetailsFragment["emails"][number];
type Phone = AdminPersonDetailsFragment["phones"][number];

// Adding, removing or making one primary changes the others too: reload the person's rows.
const REFRESH = { refetchQueries: ["AdminPersonPage"], awaitRefetchQueries: true };

/** Every email and phone of the person, with who may see each; staff with people.manage edit them. */
export function ContactDetails({ person, canManage }: { person: AdminPersonDetailsFragment; canManage: boolean }) {
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
  const i18n = useI18n();
  const { t } = i18n;
  const [editing, setEditing] = useState<string | null>(null);
  const [removeEmail] = useAdminRemoveEmail(REFRESH);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div className="contact-group">
      <h3>{t("admin.people.contact.emails")}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      {person.emails.length === 0 && <p className="muted">{t("admin.people.contact.noEmails")}</p>}
      <ul className="staff-contacts">
        {person.emails.map((email) =>
          editing === email.id ? (
            <li key={email.id} className="staff-contacts__item staff-contacts__item--editing">
              <EmailForm personId={person.id} email={email} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <ContactRow
              key={email.id}
              main={<a href={`mailto:${email.email}`}>{email.email}</a>}
              primary={email.isPrimary}
              visibility={email.visibility}
              canManage={canManage}
              name={email.email}
              onEdit={() => setEditing(email.id)}
              onRemove={() => {
                if (!window.confirm(t("admin.people.contact.confirmRemove", { value: email.email }))) return;
                setFailure(null);
                removeEmail({ variables: { id: email.id } }).catch((caught: unknown) => setFailure(handleError(caught, i18n).message));
              }}
            />
          ),
        )}
      </ul>
      {canManage && (editing === "new" ? <EmailForm personId={person.id} email={null} onDone={() => setEditing(null)} /> : <AddButton label={t("admin.people.contact.addEmail")} onClick={() => setEditing("new")} />)}
    </div>
  );
}

function PhoneList({ person, canManage }: { person: AdminPersonDetailsFragment; canManage: boolean }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [editing, setEditing] = useState<string | null>(null);
  const [removePhone] = useAdminRemovePhone(REFRESH);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div className="contact-group">
      <h3>{t("admin.people.contact.phones")}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      {person.phones.length === 0 && <p className="muted">{t("admin.people.contact.noPhones")}</p>}
      <ul className="staff-contacts">
        {person.phones.map((phone) =>
          editing === phone.id ? (
            <li key={phone.id} className="staff-contacts__item staff-contacts__item--editing">
              <PhoneForm personId={person.id} phone={phone} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <ContactRow
              key={phone.id}
              main={
                <>
                  <a href={telLink(phone.number)}>{phone.formatted}</a>
                  {phone.kind && <span className="muted"> · {t(`admin.people.phoneKind.${phone.kind}`)}</span>}
                </>
              }
              primary={phone.isPrimary}
              visibility={phone.visibility}
              canManage={canManage}
              name={phone.formatted}
              onEdit={() => setEditing(phone.id)}
              onRemove={() => {
                if (!window.confirm(t("admin.people.contact.confirmRemove", { value: phone.formatted }))) return;
                setFailure(null);
                removePhone({ variables: { id: phone.id } }).catch((caught: unknown) => setFailure(handleError(caught, i18n).message));
              }}
            />
          ),
        )}
      </ul>
      {canManage && (editing === "new" ? <PhoneForm personId={person.id} phone={null} onDone={() => setEditing(null)} /> : <AddButton label={t("admin.people.contact.addPhone")} onClick={() => setEditing("new")} />)}
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
          <button type="button" className="button button--ghost button--small" aria-label={t("admin.people.contact.editNamed", { value: name })} onClick={onEdit}>
            {t("admin.people.contact.edit")}
          </button>
          <button type="button" className="button button--danger-ghost button--small" aria-label={t("admin.people.contact.removeNamed", { value: name })} onClick={onRemove}>
            {t("admin.people.contact.remove")}
          </button>
        </span>
      )}
    </li>
  );
}

/** Who may see the row; "" (new rows only) leaves it to the church's default from settings. */
function VisibilitySelect({ value, onChange, error }: { value: Visibility | ""; onChange(v: Visibility | ""): void; error?: string | undefined }) {
  const { t } = useI18n();
  return (
    <SelectField label={t("admin.people.contact.visibility")} value={value} onChange={(e) => onChange(e.target.value as Visibility | "")} error={error}>
      {value === "" && <option value="">{t("admin.people.visibility.default")}</option>}
      {VISIBILITIES.map((v) => (
        <option key={v} value={v}>
          {t(`admin.people.visibility.${v}`)}
        </option>
      ))}
    </SelectField>
  );
}

function EmailForm({ personId, email, onDone }: { personId: string; email: Email | null; onDone(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [value, setValue] = useState(email?.email ?? "");
  const [visibility, setVisibility] = useState<Visibility | "">(email?.visibility ?? "");
  const [isPrimary, setIsPrimary] = useState(email?.isPrimary ?? false);
  const [error, setError] = useState<UiError | null>(null);
  const [addEmail, { loading: adding }] = useAdminAddEmail(REFRESH);
  const [updateEmail, { loading: updating }] = useAdminUpdateEmail(REFRESH);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const input = { email: value.trim(), isPrimary, ...(visibility ? { visibility } : {}) };
    try {
      if (email) await updateEmail({ variables: { id: email.id, input } });
      else await addEmail({ variables: { personId, input } });
      onDone();
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <form className="form contact-form" onSubmit={(e) => void submit(e)} noValidate aria-label={email ? t("admin.people.contact.editNamed", { value: email.email }) : t("admin.people.contact.addEmail")}>
      <FormErrorSummary error={error} fields={["email", "visibility", "isPrimary"]} />
      <TextField label={t("admin.people.field.email")} type="email" required autoFocus maxLength={LIMITS.emailMax} value={value} onChange={(e) => setValue(e.target.value)} error={error?.fieldErrors.email} />
      <VisibilitySelect value={visibility} onChange={setVisibility} error={error?.fieldErrors.visibility} />
      <CheckboxField label={t("admin.people.contact.makePrimary")} checked={isPrimary} onChange={(e) => setIsPrimary(e.target.checked)} />
      {error?.fieldErrors.isPrimary && <p className="field__error">{error.fieldErrors.isPrimary}</p>}
      <div className="actions">
        <button type="submit" className="button button--small" disabled={adding || updating}>
          {adding || updating ? t("common.saving") : t("common.save")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}

function PhoneForm({ personId, phone, onDone }: { personId: string; phone: Phone | null; onDone(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [number, setNumber] = useState(phone?.formatted ?? "");
  const [kind, setKind] = useState<PhoneKind | "">(phone?.kind ?? "MOBILE");
  const [visibility, setVisibility] = useState<Visibility | "">(phone?.visibility ?? "");
  const [isPrimary, setIsPrimary] = useState(phone?.isPrimary ?? false);
  const [error, setError] = useState<UiError | null>(null);
  const [addPhone, { loading: adding }] = useAdminAddPhone(REFRESH);
  const [updatePhone, { loading: updating }] = useAdminUpdatePhone(REFRESH);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const input = { number: number.trim(), kind: kind || null, isPrimary, ...(visibility ? { visibility } : {}) };
    try {
      if (phone) await updatePhone({ variables: { id: phone.id, input } });
      else await addPhone({ variables: { personId, input } });
      onDone();
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <form className="form contact-form" onSubmit={(e) => void submit(e)} noValidate aria-label={phone ? t("admin.people.contact.editNamed", { value: phone.formatted }) : t("admin.people.contact.addPhone")}>
      <FormErrorSummary error={error} fields={["number", "kind", "visibility", "isPrimary"]} />
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
        <SelectField label={t("admin.people.contact.kind")} value={kind} onChange={(e) => setKind(e.target.value as PhoneKind)} error={error?.fieldErrors.kind}>
          {PHONE_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`admin.people.phoneKind.${k}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <VisibilitySelect value={visibility} onChange={setVisibility} error={error?.fieldErrors.visibility} />
      <CheckboxField label={t("admin.people.contact.makePrimary")} checked={isPrimary} onChange={(e) => setIsPrimary(e.target.checked)} />
      {error?.fieldErrors.isPrimary && <p className="field__error">{error.fieldErrors.isPrimary}</p>}
      <div className="actions">
        <button type="submit" className="button button--small" disabled={adding || updating}>
          {adding || updating ? t("common.saving") : t("common.save")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
