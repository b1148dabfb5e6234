import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  MyAccountDocument,
  UploadPersonPhotoDocument,
  useAddMyEmail,
  useAddMyPhone,
  useRemoveMyAddress,
  useRemoveMyEmail,
  useRemoveMyPhone,
  useRemovePersonPhoto,
  useSetMyAddress,
  useUpdateMyEmail,
  useUpdateMyPerson,
  useUpdateMyPhone,
  type UploadPersonPhotoMutation,
} from "./account.generated.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import type { PhoneKind, Visibility } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { todayIn } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { SelectField, TextField } from "../../components/Field.tsx";
import { PhotoField } from "../../components/PhotoField.tsx";
import { SavedNotice } from "../../components/SavedNotice.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { uploadWithProgress } from "../../lib/upload.ts";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import { AddressLines, browserCountry, countryOptions } from "./address.tsx";
import { Avatar } from "./Avatar.tsx";
import { MyAccountGate, PHONE_KINDS, type MyHousehold, type MyPerson } from "./account.tsx";

/** After a change that moves other rows too (a new primary, a removal), read the record again. */
const refetchAccount = { refetchQueries: [{ query: MyAccountDocument }], awaitRefetchQueries: true };

/** /me/profile: the member's name, birthday, photo, emails, phones and household address. */
export function ProfilePage() {
  const { t } = useI18n();
  usePageTitle(t("me.profile.title"));
  return (
    <>
      <h1>{t("me.profile.title")}</h1>
      <p className="muted page-intro">
        {t("me.profile.intro")} <Link to="/me/privacy">{t("me.profile.privacyLink")}</Link>
      </p>
      <MyAccountGate>
        {({ person, household, loginEmail }) => (
          <div className="settings-stack">
            <PhotoSection person={person} />
            <NameSection person={person} />
            <EmailsSection person={person} loginEmail={loginEmail} />
            <PhonesSection person={person} />
            {household && <AddressSection household={household} />}
          </div>
        )}
      </MyAccountGate>
    </>
  );
}

function PhotoSection({ person }: { person: MyPerson }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [removePhoto] = useRemovePersonPhoto();
  return (
    <section className="card" aria-labelledby="profile-photo">
      <h2 id="profile-photo">{t("me.photo.title")}</h2>
      <PhotoField
        src={person.photo}
        renderPhoto={(src) => <Avatar name={person.displayName} src={src} size="xl" />}
        hint={t("me.photo.hint")}
        canEdit={person.can.edit}
        onUpload={async (file, onProgress) => {
          await uploadWithProgress<UploadPersonPhotoMutation>(
            UploadPersonPhotoDocument,
            { id: person.id },
            "file",
            file,
            onProgress,
          );
          // The upload bypasses Apollo (XHR for progress): read the record again for the new photo.
          await client.refetchQueries({ include: [MyAccountDocument] });
        }}
        onRemove={() => removePhoto({ variables: { id: person.id } })}
      />
    </section>
  );
}

function NameSection({ person }: { person: MyPerson }) {
  const { t } = useI18n();
  const { data: shell } = useAppShell();
  const today = todayIn(shell?.settings.timezone ?? "UTC");
  const [update] = useUpdateMyPerson();
  const saved = {
    firstName: person.firstName,
    lastName: person.lastName,
    preferredName: person.preferredName ?? "",
    birthDate: person.birthDate?.slice(0, 10) ?? "",
  };
  const form = useForm(saved);
  const [done, setDone] = useState(false);
  const dirty = (Object.keys(saved) as Array<keyof typeof saved>).some((k) => form.values[k] !== saved[k]);

  return (
    <section className="card" aria-labelledby="profile-name">
      <h2 id="profile-name">{t("me.profile.nameTitle")}</h2>
      <form
        className="form"
        noValidate
        onChange={() => setDone(false)}
        onSubmit={form.submit(async (values) => {
          setDone(false);
          // Answered here at once; the gateway checks the same rule.
          if (values.birthDate && values.birthDate > today) {
            form.setError({
              code: "BAD_USER_INPUT",
              message: t("error.BAD_USER_INPUT"),
              fieldErrors: { birthDate: t("field.date_in_future") },
            });
            return;
          }
          await update({
            variables: {
              id: person.id,
              input: {
                firstName: values.firstName.trim(),
                lastName: values.lastName.trim(),
                preferredName: values.preferredName.trim(),
                birthDate: values.birthDate || null,
              },
            },
          });
          setDone(true);
        })}
      >
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <div className="form__row">
          <TextField
            label={t("auth.firstName")}
            autoComplete="given-name"
            required
            maxLength={LIMITS.personNameMax}
            {...form.bind("firstName")}
            error={form.fieldError("firstName")}
          />
          <TextField
            label={t("auth.lastName")}
            autoComplete="family-name"
            required
            maxLength={LIMITS.personNameMax}
            {...form.bind("lastName")}
            error={form.fieldError("lastName")}
          />
        </div>
        <TextField
          label={t("me.profile.preferredName")}
          autoComplete="nickname"
          maxLength={LIMITS.personNameMax}
          optionalText={t("common.optional")}
          hint={t("me.profile.preferredNameHint")}
          {...form.bind("preferredName")}
          error={form.fieldError("preferredName")}
        />
        <TextField
          label={t("people.birthDate")}
          type="date"
          max={today}
          autoComplete="bday"
          optionalText={t("common.optional")}
          hint={t("me.profile.birthDateHint")}
          {...form.bind("birthDate")}
          error={form.fieldError("birthDate")}
        />
        <div className="form__footer">
          <button type="submit" className="button" disabled={form.submitting}>
            {form.submitting ? t("common.saving") : t("common.save")}
          </button>
          <SavedNotice text={done ? t("me.saved") : null} />
          {dirty && !done && <span className="muted small">{t("admin.settings.unsaved")}</span>}
        </div>
      </form>
    </section>
  );
}

/**
 * One primary per person (the gateway refuses a second): un-mark the current one, then mark the new
 * one; if that fails, the old one is put back so the person is never left without a primary.
 */
function makePrimary(
  setCurrent: ((isPrimary: boolean) => Promise<unknown>) | undefined,
  setNew: () => Promise<unknown>,
) {
  return async () => {
    if (setCurrent) await setCurrent(false);
    try {
      await setNew();
    } catch (caught) {
      if (setCurrent) await setCurrent(true).catch(() => undefined);
      throw caught;
    }
  };
}

function useRowAction() {
  const i18n = useI18n();
  const [error, setError] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  async function run(key: string, action: () => Promise<unknown>, success: string) {
    setError(null);
    setNotice(null);
    setBusy(key);
    try {
      await action();
      setNotice(success);
    } catch (caught) {
      setError(handleError(caught, i18n));
    } finally {
      setBusy(null);
    }
  }
  return { error, notice, busy, run, setNotice };
}

interface ContactRow {
  id: string;
  isPrimary: boolean;
  visibility: Visibility;
}

/**
 * One kind of contact row (emails or phones): the list with "Make primary" and "Remove", then the
 * form that adds one. What differs between the kinds comes in as props.
 */
function ContactRowsSection<Row extends ContactRow>({
  id,
  title,
  intro,
  emptyText,
  rows,
  canEdit,
  valueField,
  nameOf,
  renderValue,
  makePrimaryLabel,
  primarySetText,
  setPrimary,
  remove,
  renderAddForm,
}: {
  id: string;
  title: string;
  intro?: string;
  emptyText: string;
  rows: readonly Row[];
  canEdit: boolean;
  /** The input field whose server error is shown for the rows (email, number). */
  valueField: string;
  /** The row as named in buttons and messages. */
  nameOf(row: Row): string;
  renderValue(row: Row): ReactNode;
  makePrimaryLabel(row: Row): string;
  primarySetText(row: Row): string;
  setPrimary(row: Row, isPrimary: boolean): Promise<unknown>;
  remove(row: Row): Promise<unknown>;
  /** The add form; it reports "added" through `setNotice`. */
  renderAddForm(setNotice: (text: string | null) => void): ReactNode;
}) {
  const { t } = useI18n();
  const actions = useRowAction();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro && <p className="muted small">{intro}</p>}
      {rows.length === 0 ? (
        <p className="empty empty--inline">{emptyText}</p>
      ) : (
        <ul className="item-list">
          {rows.map((row) => {
            const name = nameOf(row);
            return (
              <li key={row.id} className="item-row">
                <div className="item-row__main">
                  {renderValue(row)}
                  {row.isPrimary && <span className="badge badge--ok">{t("me.primary")}</span>}
                  <span className="block muted small">
                    {t("me.visibleTo", { who: t(`visibility.${row.visibility}`) })}
                  </span>
                </div>
                {canEdit && (
                  <div className="item-row__actions">
                    {!row.isPrimary && (
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        disabled={!!actions.busy}
                        aria-label={makePrimaryLabel(row)}
                        onClick={() => {
                          const current = rows.find((r) => r.isPrimary);
                          const swap = makePrimary(
                            current && ((isPrimary) => setPrimary(current, isPrimary)),
                            () => setPrimary(row, true),
                          );
                          void actions.run(row.id, swap, primarySetText(row));
                        }}
                      >
                        {t("me.makePrimary")}
                      </button>
                    )}
                    <button
                      type="button"
                      className="button button--ghost button--small button--danger"
                      disabled={!!actions.busy}
                      aria-label={t("me.removeItem", { item: name })}
                      onClick={() => {
                        if (!window.confirm(t("me.confirmRemove", { item: name }))) return;
                        void actions.run(row.id, () => remove(row), t("me.removed", { item: name }));
                      }}
                    >
                      {t("me.remove")}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {actions.error && (
        <Alert kind="error">
          {actions.error.fieldErrors.isPrimary ??
            actions.error.fieldErrors[valueField] ??
            actions.error.message}
        </Alert>
      )}
      {canEdit && renderAddForm(actions.setNotice)}
      <SavedNotice text={actions.notice} />
    </section>
  );
}

function EmailsSection({ person, loginEmail }: { person: MyPerson; loginEmail: string }) {
  const { t } = useI18n();
  const [add] = useAddMyEmail(refetchAccount);
  // Updates come back as the rows themselves, which Apollo merges by id: no re-read needed.
  const [update] = useUpdateMyEmail();
  const [remove] = useRemoveMyEmail(refetchAccount);
  const form = useForm({ email: "" });

  return (
    <ContactRowsSection
      id="profile-emails"
      title={t("me.emails.title")}
      intro={t("me.emails.intro", { email: loginEmail })}
      emptyText={t("me.emails.empty")}
      rows={person.emails}
      canEdit={person.can.edit}
      valueField="email"
      nameOf={(row) => row.email}
      renderValue={(row) => <span className="item-row__value">{row.email}</span>}
      makePrimaryLabel={(row) => t("me.emails.makePrimaryFor", { email: row.email })}
      primarySetText={(row) => t("me.emails.primarySet", { email: row.email })}
      setPrimary={(row, isPrimary) =>
        update({ variables: { id: row.id, input: { email: row.email, isPrimary } } })
      }
      remove={(row) => remove({ variables: { id: row.id } })}
      renderAddForm={(setNotice) => (
        <form
          className="inline-add"
          noValidate
          onSubmit={form.submit(async ({ email }) => {
            setNotice(null);
            await add({
              variables: {
                personId: person.id,
                input: { email: email.trim(), isPrimary: person.emails.length === 0 },
              },
            });
            form.setValues({ email: "" });
            setNotice(t("me.emails.added", { email: email.trim() }));
          })}
        >
          {form.error && !form.fieldError("email") && <Alert kind="error">{form.error.message}</Alert>}
          <TextField
            label={t("me.emails.add")}
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax}
            required
            {...form.bind("email")}
            error={form.fieldError("email")}
          />
          <button type="submit" className="button button--ghost" disabled={form.submitting}>
            {form.submitting ? t("common.saving") : t("me.add")}
          </button>
        </form>
      )}
    />
  );
}

function PhonesSection({ person }: { person: MyPerson }) {
  const { t } = useI18n();
  const [add] = useAddMyPhone(refetchAccount);
  const [update] = useUpdateMyPhone();
  const [remove] = useRemoveMyPhone(refetchAccount);
  const form = useForm({ number: "", kind: "MOBILE" });

  return (
    <ContactRowsSection
      id="profile-phones"
      title={t("me.phones.title")}
      emptyText={t("me.phones.empty")}
      rows={person.phones}
      canEdit={person.can.edit}
      valueField="number"
      nameOf={(row) => row.formatted}
      renderValue={(row) => (
        <>
          <span className="item-row__value">
            <a href={`tel:${row.number}`}>{row.formatted}</a>
          </span>
          <span className="chip">{t(`phoneKind.${row.kind ?? "OTHER"}`)}</span>
        </>
      )}
      makePrimaryLabel={(row) => t("me.phones.makePrimaryFor", { phone: row.formatted })}
      primarySetText={(row) => t("me.phones.primarySet", { phone: row.formatted })}
      setPrimary={(row, isPrimary) =>
        update({ variables: { id: row.id, input: { number: row.number, isPrimary } } })
      }
      remove={(row) => remove({ variables: { id: row.id } })}
      renderAddForm={(setNotice) => (
        <form
          className="inline-add inline-add--phone"
          noValidate
          onSubmit={form.submit(async ({ number, kind }) => {
            setNotice(null);
            await add({
              variables: {
                personId: person.id,
                input: {
                  number: number.trim(),
                  kind: kind as PhoneKind,
                  isPrimary: person.phones.length === 0,
                },
              },
            });
            form.setValues({ number: "", kind });
            setNotice(t("me.phones.added"));
          })}
        >
          {form.error && !form.fieldError("number") && !form.fieldError("kind") && (
            <Alert kind="error">{form.error.message}</Alert>
          )}
          <TextField
            label={t("me.phones.add")}
            type="tel"
            autoComplete="tel"
            maxLength={LIMITS.phoneMax}
            required
            hint={t("me.phones.hint")}
            {...form.bind("number")}
            error={form.fieldError("number")}
          />
          <SelectField label={t("me.phones.kind")} {...form.bind("kind")} error={form.fieldError("kind")}>
            {PHONE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`phoneKind.${kind}`)}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button button--ghost" disabled={form.submitting}>
            {form.submitting ? t("common.saving") : t("me.add")}
          </button>
        </form>
      )}
    />
  );
}

function AddressSection({ household }: { household: MyHousehold }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const address = household.address;
  const [save] = useSetMyAddress(refetchAccount);
  const [remove, { loading: removing }] = useRemoveMyAddress(refetchAccount);
  const blank = { street1: "", street2: "", city: "", region: "", postalCode: "", country: browserCountry() };
  const form = useForm(
    address
      ? {
          street1: address.street1,
          street2: address.street2 ?? "",
          city: address.city,
          region: address.region ?? "",
          postalCode: address.postalCode ?? "",
          country: address.country,
        }
      : blank,
  );
  const [notice, setNotice] = useState<string | null>(null);

  if (!household.can.edit) {
    return (
      <section className="card" aria-labelledby="profile-address">
        <h2 id="profile-address">{t("me.address.title")}</h2>
        {address ? <AddressLines address={address} /> : <p className="muted">{t("me.address.none")}</p>}
        <p className="muted small">{t("me.address.adultsOnly")}</p>
      </section>
    );
  }

  const onSubmit = form.submit(async (values) => {
    setNotice(null);
    await save({
      variables: {
        householdId: household.id,
        input: {
          street1: values.street1.trim(),
          street2: values.street2.trim() || null,
          city: values.city.trim(),
          region: values.region.trim() || null,
          postalCode: values.postalCode.trim() || null,
          country: values.country,
          // Keep the member's privacy choice; a new address gets the church's default.
          ...(address ? { visibility: address.visibility } : {}),
        },
      },
    });
    setNotice(t("me.saved"));
  });

  return (
    <section className="card" aria-labelledby="profile-address">
      <h2 id="profile-address">{t("me.address.title")}</h2>
      <p className="muted small">{t("me.address.intro", { household: household.name })}</p>
      <form className="form" noValidate onSubmit={onSubmit} onChange={() => setNotice(null)}>
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <TextField
          label={t("me.address.street1")}
          autoComplete="address-line1"
          required
          maxLength={LIMITS.streetMax}
          {...form.bind("street1")}
          error={form.fieldError("street1")}
        />
        <TextField
          label={t("me.address.street2")}
          autoComplete="address-line2"
          maxLength={LIMITS.streetMax}
          optionalText={t("common.optional")}
          {...form.bind("street2")}
          error={form.fieldError("street2")}
        />
        <div className="form__row">
          <TextField
            label={t("me.address.city")}
            autoComplete="address-level2"
            required
            maxLength={LIMITS.cityMax}
            {...form.bind("city")}
            error={form.fieldError("city")}
          />
          <TextField
            label={t("me.address.region")}
            autoComplete="address-level1"
            maxLength={LIMITS.regionMax}
            optionalText={t("common.optional")}
            {...form.bind("region")}
            error={form.fieldError("region")}
          />
        </div>
        <div className="form__row">
          <TextField
            label={t("me.address.postalCode")}
            autoComplete="postal-code"
            maxLength={LIMITS.postalCodeMax}
            optionalText={t("common.optional")}
            {...form.bind("postalCode")}
            error={form.fieldError("postalCode")}
          />
          <SelectField
            label={t("me.address.country")}
            autoComplete="country"
            required
            {...form.bind("country")}
            error={form.fieldError("country")}
          >
            {countryOptions(locale).map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="form__footer">
          <button type="submit" className="button" disabled={form.submitting}>
            {form.submitting ? t("common.saving") : address ? t("common.save") : t("me.address.add")}
          </button>
          {address && (
            <button
              type="button"
              className="button button--ghost button--danger"
              disabled={removing}
              onClick={() => {
                if (!window.confirm(t("me.address.confirmRemove"))) return;
                setNotice(null);
                remove({ variables: { householdId: household.id } })
                  .then(() => {
                    form.setValues(blank);
                    setNotice(t("me.address.removed"));
                  })
                  .catch((caught: unknown) => form.setError(handleError(caught, i18n)));
              }}
            >
              {t("me.address.remove")}
            </button>
          )}
          <SavedNotice text={notice} />
        </div>
      </form>
    </section>
  );
}
