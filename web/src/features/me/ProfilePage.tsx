import { useState } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  MyAccountDocument,
  UploadPersonPhotoDocument,
  useAddMyEmail,
  useAddMyPhone,
  useAppShell,
  useRemoveMyAddress,
  useRemoveMyEmail,
  useRemoveMyPhone,
  useRemovePersonPhoto,
  useSetMyAddress,
  useUpdateMyEmail,
  useUpdateMyPerson,
  useUpdateMyPhone,
  type PhoneKind,
  type UploadPersonPhotoMutation,
} from "../../gql/generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { todayIn } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { SelectField, TextField } from "../../components/Field.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { uploadWithProgress } from "../../lib/upload.ts";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { AddressLines, browserCountry, countryOptions } from "../directory/address.tsx";
import { LIMITS, MyAccountGate, PHONE_KINDS, SavedNotice, type MyHousehold, type MyPerson } from "./account.tsx";
import { PhotoUpload } from "./PhotoUpload.tsx";

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
      <PhotoUpload
        name={person.displayName}
        src={person.photo}
        hint={t("me.photo.hint")}
        canEdit={person.canEdit}
        onUpload={async (file, onProgress) => {
          await uploadWithProgress<UploadPersonPhotoMutation>(UploadPersonPhotoDocument, { id: person.id }, "file", file, onProgress);
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
  const saved = { firstName: person.firstName, lastName: person.lastName, preferredName: person.preferredName ?? "", birthDate: person.birthDate?.slice(0, 10) ?? "" };
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
            form.setError({ code: "BAD_USER_INPUT", message: t("error.BAD_USER_INPUT"), fieldErrors: { birthDate: t("field.date_in_future") } });
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
          <TextField label={t("auth.firstName")} autoComplete="given-name" required maxLength={LIMITS.personName} {...form.bind("firstName")} error={form.fieldError("firstName")} />
          <TextField label={t("auth.lastName")} autoComplete="family-name" required maxLength={LIMITS.personName} {...form.bind("lastName")} error={form.fieldError("lastName")} />
        </div>
        <TextField
          label={t("me.profile.preferredName")}
          autoComplete="nickname"
          maxLength={LIMITS.personName}
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
function makePrimary(setCurrent: ((isPrimary: boolean) => Promise<unknown>) | undefined, setNew: () => Promise<unknown>) {
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

function EmailsSection({ person, loginEmail }: { person: MyPerson; loginEmail: string }) {
  const { t } = useI18n();
  const [add] = useAddMyEmail(refetchAccount);
  // Updates come back as the rows themselves, which Apollo merges by id: no re-read needed.
  const [update] = useUpdateMyEmail();
  const [remove] = useRemoveMyEmail(refetchAccount);
  const rows = useRowAction();
  const form = useForm({ email: "" });

  return (
    <section className="card" aria-labelledby="profile-emails">
      <h2 id="profile-emails">{t("me.emails.title")}</h2>
      <p className="muted small">{t("me.emails.intro", { email: loginEmail })}</p>
      {person.emails.length === 0 ? (
        <p className="empty empty--inline">{t("me.emails.empty")}</p>
      ) : (
        <ul className="item-list">
          {person.emails.map((row) => (
            <li key={row.id} className="item-row">
              <div className="item-row__main">
                <span className="item-row__value">{row.email}</span>
                {row.isPrimary && <span className="badge badge--ok">{t("me.primary")}</span>}
                <span className="block muted small">{t("me.visibleTo", { who: t(`visibility.${row.visibility}`) })}</span>
              </div>
              {person.canEdit && (
                <div className="item-row__actions">
                  {!row.isPrimary && (
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      disabled={!!rows.busy}
                      aria-label={t("me.emails.makePrimaryFor", { email: row.email })}
                      onClick={() => {
                        const current = person.emails.find((e) => e.isPrimary);
                        const swap = makePrimary(
                          current && ((isPrimary) => update({ variables: { id: current.id, input: { email: current.email, isPrimary } } })),
                          () => update({ variables: { id: row.id, input: { email: row.email, isPrimary: true } } }),
                        );
                        void rows.run(row.id, swap, t("me.emails.primarySet", { email: row.email }));
                      }}
                    >
                      {t("me.makePrimary")}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button--ghost button--small button--danger"
                    disabled={!!rows.busy}
                    aria-label={t("me.removeItem", { item: row.email })}
                    onClick={() => {
                      if (!window.confirm(t("me.confirmRemove", { item: row.email }))) return;
                      void rows.run(row.id, () => remove({ variables: { id: row.id } }), t("me.removed", { item: row.email }));
                    }}
                  >
                    {t("me.remove")}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {rows.error && <Alert kind="error">{rows.error.fieldErrors.isPrimary ?? rows.error.fieldErrors.email ?? rows.error.message}</Alert>}
      {person.canEdit && (
        <form
          className="inline-add"
          noValidate
          onSubmit={form.submit(async ({ email }) => {
            rows.setNotice(null);
            await add({ variables: { personId: person.id, input: { email: email.trim(), isPrimary: person.emails.length === 0 } } });
            form.setValues({ email: "" });
            rows.setNotice(t("me.emails.added", { email: email.trim() }));
          })}
        >
          {form.error && !form.fieldError("email") && <Alert kind="error">{form.error.message}</Alert>}
          <TextField label={t("me.emails.add")} type="email" autoComplete="email" maxLength={LIMITS.email} required {...form.bind("email")} error={form.fieldError("email")} />
          <button type="submit" className="button button--ghost" disabled={form.submitting}>
            {form.submitting ? t("common.saving") : t("me.add")}
          </button>
        </form>
      )}
      <SavedNotice text={rows.notice} />
    </section>
  );
}

function PhonesSection({ person }: { person: MyPerson }) {
  const { t } = useI18n();
  const [add] = useAddMyPhone(refetchAccount);
  const [update] = useUpdateMyPhone();
  const [remove] = useRemoveMyPhone(refetchAccount);
  const rows = useRowAction();
  const form = useForm({ number: "", kind: "MOBILE" });

  return (
    <section className="card" aria-labelledby="profile-phones">
      <h2 id="profile-phones">{t("me.phones.title")}</h2>
      {person.phones.length === 0 ? (
        <p className="empty empty--inline">{t("me.phones.empty")}</p>
      ) : (
        <ul className="item-list">
          {person.phones.map((row) => (
            <li key={row.id} className="item-row">
              <div className="item-row__main">
                <span className="item-row__value">
                  <a href={`tel:${row.number}`}>{row.formatted}</a>
                </span>
                <span className="chip">{t(`phoneKind.${row.kind ?? "OTHER"}`)}</span>
                {row.isPrimary && <span className="badge badge--ok">{t("me.primary")}</span>}
                <span className="block muted small">{t("me.visibleTo", { who: t(`visibility.${row.visibility}`) })}</span>
              </div>
              {person.canEdit && (
                <div className="item-row__actions">
                  {!row.isPrimary && (
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      disabled={!!rows.busy}
                      aria-label={t("me.phones.makePrimaryFor", { phone: row.formatted })}
                      onClick={() => {
                        const current = person.phones.find((p) => p.isPrimary);
                        const swap = makePrimary(
                          current && ((isPrimary) => update({ variables: { id: current.id, input: { number: current.number, isPrimary } } })),
                          () => update({ variables: { id: row.id, input: { number: row.number, isPrimary: true } } }),
                        );
                        void rows.run(row.id, swap, t("me.phones.primarySet", { phone: row.formatted }));
                      }}
                    >
                      {t("me.makePrimary")}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button--ghost button--small button--danger"
                    disabled={!!rows.busy}
                    aria-label={t("me.removeItem", { item: row.formatted })}
                    onClick={() => {
                      if (!window.confirm(t("me.confirmRemove", { item: row.formatted }))) return;
                      void rows.run(row.id, () => remove({ variables: { id: row.id } }), t("me.removed", { item: row.formatted }));
                    }}
                  >
                    {t("me.remove")}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {rows.error && <Alert kind="error">{rows.error.fieldErrors.isPrimary ?? rows.error.fieldErrors.number ?? rows.error.message}</Alert>}
      {person.canEdit && (
        <form
          className="inline-add inline-add--phone"
          noValidate
          onSubmit={form.submit(async ({ number, kind }) => {
            rows.setNotice(null);
            await add({ variables: { personId: person.id, input: { number: number.trim(), kind: kind as PhoneKind, isPrimary: person.phones.length === 0 } } });
            form.setValues({ number: "", kind });
            rows.setNotice(t("me.phones.added"));
          })}
        >
          {form.error && !form.fieldError("number") && !form.fieldError("kind") && <Alert kind="error">{form.error.message}</Alert>}
          <TextField
            label={t("me.phones.add")}
            type="tel"
            autoComplete="tel"
            maxLength={LIMITS.phone}
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
      <SavedNotice text={rows.notice} />
    </section>
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
      ? { street1: address.street1, street2: address.street2 ?? "", city: address.city, region: address.region ?? "", postalCode: address.postalCode ?? "", country: address.country }
      : blank,
  );
  const [notice, setNotice] = useState<string | null>(null);

  if (!household.canEdit) {
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
        <TextField label={t("me.address.street1")} autoComplete="address-line1" required maxLength={LIMITS.street} {...form.bind("street1")} error={form.fieldError("street1")} />
        <TextField
          label={t("me.address.street2")}
          autoComplete="address-line2"
          maxLength={LIMITS.street}
          optionalText={t("common.optional")}
          {...form.bind("street2")}
          error={form.fieldError("street2")}
        />
        <div className="form__row">
          <TextField label={t("me.address.city")} autoComplete="address-level2" required maxLength={LIMITS.city} {...form.bind("city")} error={form.fieldError("city")} />
          <TextField label={t("me.address.region")} autoComplete="address-level1" maxLength={LIMITS.region} optionalText={t("common.optional")} {...form.bind("region")} error={form.fieldError("region")} />
        </div>
        <div className="form__row">
          <TextField label={t("me.address.postalCode")} autoComplete="postal-code" maxLength={LIMITS.postalCode} optionalText={t("common.optional")} {...form.bind("postalCode")} error={form.fieldError("postalCode")} />
          <SelectField label={t("me.address.country")} autoComplete="country" required {...form.bind("country")} error={form.fieldError("country")}>
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
