import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  MyAccountDocument,
  useSetMyAddress,
  useUpdateMyEmail,
  useUpdateMyHousehold,
  useUpdateMyPerson,
  useUpdateMyPhone,
} from "./account.generated.ts";
import type { Visibility } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatMonthDay } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { CheckboxField } from "../../components/Field.tsx";
import { SavedNotice } from "../../components/SavedNotice.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { Avatar } from "./Avatar.tsx";
import { AddressLines } from "./address.tsx";
import { ContactDetails } from "./ContactDetails.tsx";
import { MyAccountGate, VISIBILITIES, type MyHousehold, type MyPerson } from "./account.tsx";

interface Choices {
  emails: Record<string, Visibility>;
  phones: Record<string, Visibility>;
  birthday: Visibility | null;
  address: Visibility | null;
  directoryOptOut: boolean;
  householdOptOut: boolean;
}

function choicesOf(person: MyPerson, household: MyHousehold | null): Choices {
  return {
    emails: Object.fromEntries(person.emails.map((e) => [e.id, e.visibility])),
    phones: Object.fromEntries(person.phones.map((p) => [p.id, p.visibility])),
    birthday: person.birthday?.visibility ?? null,
    address: household?.address?.visibility ?? null,
    directoryOptOut: person.directoryOptOut,
    householdOptOut: household?.directoryOptOut ?? false,
  };
}

/** /me/privacy: who sees each contact detail, and whether the member (and household) is listed at all. */
export function PrivacyPage() {
  const { t } = useI18n();
  usePageTitle(t("me.privacy.title"));
  return (
    <>
      <h1>{t("me.privacy.title")}</h1>
      <p className="muted page-intro">{t("me.privacy.intro")}</p>
      <MyAccountGate>
        {({ person, household }) => <PrivacyForm person={person} household={household} />}
      </MyAccountGate>
    </>
  );
}

function PrivacyForm({ person, household }: { person: MyPerson; household: MyHousehold | null }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const client = useApolloClient();
  const saved = choicesOf(person, household);
  // Only what the member changed on this page; everything else follows the saved record (which can
  // change underneath, for example a birthday added on the profile page).
  const [changes, setChanges] = useState<Partial<Choices>>({});
  const choices: Choices = {
    ...saved,
    ...changes,
    emails: { ...saved.emails, ...changes.emails },
    phones: { ...saved.phones, ...changes.phones },
  };
  const [error, setError] = useState<UiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const [updateEmail] = useUpdateMyEmail();
  const [updatePhone] = useUpdateMyPhone();
  const [updatePerson] = useUpdateMyPerson();
  const [setAddress] = useSetMyAddress();
  const [updateHousehold] = useUpdateMyHousehold();

  // Rows added or removed elsewhere since this page opened fall back to their saved value.
  const emailChoice = (id: string, fallback: Visibility) => choices.emails[id] ?? fallback;
  const phoneChoice = (id: string, fallback: Visibility) => choices.phones[id] ?? fallback;
  const dirty =
    person.emails.some((e) => emailChoice(e.id, e.visibility) !== e.visibility) ||
    person.phones.some((p) => phoneChoice(p.id, p.visibility) !== p.visibility) ||
    choices.birthday !== saved.birthday ||
    choices.address !== saved.address ||
    choices.directoryOptOut !== saved.directoryOptOut ||
    choices.householdOptOut !== saved.householdOptOut;

  function choose(patch: Partial<Choices>) {
    setDone(false);
    setChanges((c) => ({
      ...c,
      ...patch,
      emails: { ...c.emails, ...patch.emails },
      phones: { ...c.phones, ...patch.phones },
    }));
  }

  async function save() {
    setSaving(true);
    setError(null);
    setDone(false);
    try {
      // One call per changed detail (each is its own record with its own rule).
      for (const e of person.emails) {
        const visibility = emailChoice(e.id, e.visibility);
        if (visibility !== e.visibility)
          await updateEmail({ variables: { id: e.id, input: { email: e.email, visibility } } });
      }
      for (const p of person.phones) {
        const visibility = phoneChoice(p.id, p.visibility);
        if (visibility !== p.visibility)
          await updatePhone({ variables: { id: p.id, input: { number: p.number, visibility } } });
      }
      if (choices.birthday !== saved.birthday || choices.directoryOptOut !== saved.directoryOptOut) {
        await updatePerson({
          variables: {
            id: person.id,
            input: {
              directoryOptOut: choices.directoryOptOut,
              ...(choices.birthday ? { birthdayVisibility: choices.birthday } : {}),
            },
          },
        });
      }
      const address = household?.address;
      if (household && address && choices.address && choices.address !== saved.address) {
        const { street1, street2, city, region, postalCode, country } = address;
        await setAddress({
          variables: {
            householdId: household.id,
            input: { street1, street2, city, region, postalCode, country, visibility: choices.address },
          },
        });
      }
      if (household && choices.householdOptOut !== saved.householdOptOut) {
        await updateHousehold({
          variables: { id: household.id, input: { directoryOptOut: choices.householdOptOut } },
        });
      }
      // Being listed is derived on the server from all of the above: read it again.
      await client.refetchQueries({ include: [MyAccountDocument] });
      setChanges({});
      setDone(true);
    } catch (caught) {
      setError(handleError(caught, i18n));
    } finally {
      setSaving(false);
    }
  }

  const canEditHousehold = !!household?.can.edit;
  const isChild = person.ageGroup === "CHILD";
  return (
    <div className="privacy">
      <form
        className="privacy__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <VisibilityLegend />
        <fieldset className="card">
          <legend>{t("me.privacy.detailsTitle")}</legend>
          {person.emails.length + person.phones.length === 0 && !person.birthday && !household?.address && (
            <p className="muted">
              {t("me.privacy.nothingYet")} <Link to="/me/profile">{t("me.privacy.addDetails")}</Link>
            </p>
          )}
          {person.emails.map((e) => (
            <VisibilityRow
              key={e.id}
              kind={t("people.email")}
              value={e.email}
              extra={e.isPrimary ? t("me.primary") : null}
              visibility={emailChoice(e.id, e.visibility)}
              onChange={(v) => choose({ emails: { [e.id]: v } })}
            />
          ))}
          {person.phones.map((p) => (
            <VisibilityRow
              key={p.id}
              kind={t(`phoneKind.${p.kind ?? "OTHER"}`)}
              value={p.formatted}
              extra={p.isPrimary ? t("me.primary") : null}
              visibility={phoneChoice(p.id, p.visibility)}
              onChange={(v) => choose({ phones: { [p.id]: v } })}
            />
          ))}
          {person.birthday && choices.birthday ? (
            <VisibilityRow
              kind={t("people.birthday")}
              value={formatMonthDay(person.birthday.month, person.birthday.day, locale)}
              hint={t("me.privacy.birthdayHint")}
              visibility={choices.birthday}
              onChange={(v) => choose({ birthday: v })}
            />
          ) : (
            <p className="privacy-row privacy-row--empty muted small">
              {t("me.privacy.noBirthday")} <Link to="/me/profile">{t("me.privacy.addBirthday")}</Link>
            </p>
          )}
          {household?.address && choices.address && (
            <VisibilityRow
              kind={t("people.address")}
              value={[household.address.street1, household.address.city].filter(Boolean).join(", ")}
              hint={canEditHousehold ? t("me.privacy.addressHint") : t("me.privacy.addressAdultsOnly")}
              visibility={choices.address}
              disabled={!canEditHousehold}
              onChange={(v) => choose({ address: v })}
            />
          )}
        </fieldset>

        <fieldset className="card">
          <legend>{t("me.privacy.directoryTitle")}</legend>
          {isChild ? (
            <p className="muted">{t("me.privacy.childNever")}</p>
          ) : (
            <CheckboxField
              label={t("me.privacy.optOut")}
              hint={t("me.privacy.optOutHint")}
              checked={choices.directoryOptOut}
              onChange={(event) => choose({ directoryOptOut: event.target.checked })}
            />
          )}
          {canEditHousehold && household && (
            <CheckboxField
              label={t("me.privacy.householdOptOut")}
              hint={t("me.privacy.householdOptOutHint", { household: household.name })}
              checked={choices.householdOptOut}
              onChange={(event) => choose({ householdOptOut: event.target.checked })}
            />
          )}
          <p className="muted small">{t("me.privacy.childrenNote")}</p>
        </fieldset>

        {error && <Alert kind="error">{error.message}</Alert>}
        <div className="form__footer privacy__save">
          <button type="submit" className="button" disabled={saving || !dirty}>
            {saving ? t("common.saving") : t("me.privacy.save")}
          </button>
          <SavedNotice text={done ? t("me.saved") : null} />
          {dirty && <span className="muted small">{t("admin.settings.unsaved")}</span>}
        </div>
      </form>
      <Preview
        person={person}
        household={household}
        choices={choices}
        emailChoice={emailChoice}
        phoneChoice={phoneChoice}
      />
    </div>
  );
}

function VisibilityLegend() {
  const { t } = useI18n();
  return (
    <section className="card visibility-legend" aria-labelledby="visibility-legend">
      <h2 id="visibility-legend">{t("me.privacy.legendTitle")}</h2>
      <dl>
        {VISIBILITIES.map((v) => (
          <div key={v} className="visibility-legend__item">
            <dt>{t(`visibility.${v}`)}</dt>
            <dd>{t(`me.privacy.explain.${v}`)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">{t("me.privacy.alwaysSee")}</p>
    </section>
  );
}

function VisibilityRow({
  kind,
  value,
  extra,
  hint,
  visibility,
  disabled,
  onChange,
}: {
  kind: string;
  value: string;
  extra?: string | null;
  hint?: ReactNode;
  visibility: Visibility;
  disabled?: boolean;
  onChange: (v: Visibility) => void;
}) {
  const { t } = useI18n();
  const id = `visibility-${kind}-${value}`.replace(/[^\w-]/g, "_");
  return (
    <div className="privacy-row">
      <label htmlFor={id} className="privacy-row__label">
        <span className="contact-list__label">{kind}</span>
        <span className="privacy-row__value">{value}</span>
        {extra && <span className="badge badge--ok">{extra}</span>}
      </label>
      <select
        id={id}
        value={visibility}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value as Visibility)}
      >
        {VISIBILITIES.map((v) => (
          <option key={v} value={v}>
            {t(`visibility.${v}`)}
          </option>
        ))}
      </select>
      {hint && (
        <p className="field__hint privacy-row__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** What another member sees in the directory with the choices on screen (saved or not). */
function Preview({
  person,
  household,
  choices,
  emailChoice,
  phoneChoice,
}: {
  person: MyPerson;
  household: MyHousehold | null;
  choices: Choices;
  emailChoice: (id: string, fallback: Visibility) => Visibility;
  phoneChoice: (id: string, fallback: Visibility) => Visibility;
}) {
  const { t } = useI18n();
  const hidden = person.ageGroup === "CHILD" || choices.directoryOptOut || choices.householdOptOut;
  const shared = {
    emails: person.emails.filter((e) => emailChoice(e.id, e.visibility) === "MEMBERS"),
    phones: person.phones.filter((p) => phoneChoice(p.id, p.visibility) === "MEMBERS"),
    birthday: person.birthday && choices.birthday === "MEMBERS" ? person.birthday : null,
  };
  const address = household?.address && choices.address === "MEMBERS" ? household.address : null;
  return (
    <aside className="card privacy-preview" aria-labelledby="privacy-preview">
      <h2 id="privacy-preview">{t("me.privacy.previewTitle")}</h2>
      {hidden ? (
        <p className="privacy-preview__hidden">
          {person.ageGroup === "CHILD" ? t("me.privacy.childNever") : t("me.privacy.previewHidden")}
        </p>
      ) : (
        <>
          {person.recordStatus === "PENDING" && (
            <p className="muted small">{t("me.privacy.previewPending")}</p>
          )}
          <div className="privacy-preview__card" aria-live="polite">
            <div className="member-row__head">
              <Avatar name={person.displayName} src={person.photo} size="md" />
              <div>
                <strong className="block">{person.displayName}</strong>
                {household && <span className="block muted small">{household.name}</span>}
              </div>
            </div>
            <ContactDetails person={shared} emptyText={t("me.privacy.previewNameOnly")} />
            {address && <AddressLines address={address} />}
          </div>
        </>
      )}
      <p className="muted small">{t("me.privacy.previewNote")}</p>
    </aside>
  );
}
