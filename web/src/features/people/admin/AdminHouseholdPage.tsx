import { useId, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminHouseholdDetailsFragmentDoc,
  AdminSetHouseholdPhotoDocument,
  useAdminHouseholdPage,
  useAdminMovePersonToHousehold,
  useAdminRemoveHouseholdAddress,
  useAdminSetHouseholdAddress,
  useAdminSetHouseholdPhoto,
  useAdminUpdateHousehold,
  type AdminHouseholdDetailsFragment,
  type AdminSetHouseholdPhotoMutation,
} from "./AdminHouseholdPage.generated.ts";
import type { HouseholdRole, Visibility } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { PhotoField } from "../../../components/PhotoField.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { browserCountry, countryName, countryOptions } from "../address.tsx";
import {
  Avatar,
  HOUSEHOLD_ROLES,
  MembershipBadge,
  RecordStatusBadge,
  VISIBILITIES,
  VisibilityBadge,
  optional,
} from "./common.tsx";
import { PersonPicker, type PickedPerson } from "./Pickers.tsx";
import { AddPersonDialog } from "./AddPersonDialog.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";
import type { Notice } from "../../../components/Alert.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";

export function AdminHouseholdPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data, loading, error } = useAdminHouseholdPage({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const household = data?.household;
  usePageTitle(household ? household.name : t("admin.household.title"));
  if (loading && !data) return <Loading />;
  if (error && !household) {
    if (handleError(error, i18n).code === "NOT_FOUND") return <NotFoundPage />;
    return (
      <div className="page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  }
  if (!household) return <NotFoundPage />;
  return <HouseholdView key={household.id} household={household} />;
}

function HouseholdView({ household }: { household: AdminHouseholdDetailsFragment }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const editable = household.can.manage;
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <div className="page household-page">
      <Link to="/admin/people" className="staff-back-link">
        <span aria-hidden="true">←</span> {t("admin.people.back")}
      </Link>
      <header className="person-head">
        <HouseholdPhoto household={household} canManage={editable} onNotice={setNotice} />
        <div className="person-head__text">
          <p className="staff-eyebrow">{t("admin.household.title")}</p>
          <h1>{household.name}</h1>
          <p className="staff-badges">
            <span className={`badge ${household.inDirectory ? "badge--ok" : "badge--muted"}`}>
              {household.inDirectory ? t("admin.people.inDirectory") : t("admin.people.notInDirectory")}
            </span>
            {household.directoryOptOut && (
              <span className="badge badge--warn">{t("admin.household.optedOut")}</span>
            )}
          </p>
        </div>
      </header>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="person-layout">
        <div className="person-layout__main">
          <Members household={household} canManage={editable} onNotice={setNotice} />
          {editable && (
            <div className="card staff-card">
              <h2>{t("admin.household.addTitle")}</h2>
              <p className="muted small">{t("admin.household.addIntro")}</p>
              <div className="actions">
                <AddExistingPerson household={household} onNotice={setNotice} />
                <AddPersonDialog
                  household={{ id: household.id, name: household.name }}
                  triggerLabel={t("admin.household.addNew")}
                  onCreated={(person) =>
                    void navigate(`/admin/people/${person.id}`, { state: { created: true } })
                  }
                />
              </div>
            </div>
          )}
        </div>
        <aside className="person-layout__side" aria-label={t("admin.people.side")}>
          {editable ? <HouseholdSettings household={household} /> : null}
          <AddressCard household={household} canManage={editable} />
          {household.invitations.length > 0 && <Invitations household={household} />}
        </aside>
      </div>
    </div>
  );
}

function Members({
  household,
  canManage,
  onNotice,
}: {
  household: AdminHouseholdDetailsFragment;
  canManage: boolean;
  onNotice(notice: Notice | null): void;
}) {
  const { t } = useI18n();
  const hasAdult = household.members.some((m) => m.ageGroup === "ADULT");
  return (
    <section className="card staff-card" aria-labelledby="members-title">
      <h2 id="members-title">{t("admin.household.members", { count: household.members.length })}</h2>
      {household.members.length > 0 && !hasAdult && (
        <Alert kind="warning">{t("admin.household.noAdult")}</Alert>
      )}
      {household.members.length === 0 ? (
        <p className="muted">{t("admin.household.noMembers")}</p>
      ) : (
        <ul className="staff-member-list">
          {household.members.map((member) => (
            <li key={member.id} className="staff-member-list__item">
              <Avatar name={member.displayName} url={member.photoUrl} />
              <div className="staff-member-list__text">
                <Link to={`/admin/people/${member.id}`} className="staff-member-list__name">
                  {member.displayName}
                </Link>
                <span className="staff-badges">
                  {member.recordStatus !== "ACTIVE" && <RecordStatusBadge status={member.recordStatus} />}
                  <MembershipBadge status={member.membershipStatus} />
                  <span className="badge badge--neutral">{t(`admin.people.age.${member.ageGroup}`)}</span>
                </span>
              </div>
              {canManage ? (
                <RoleSelect householdId={household.id} member={member} onNotice={onNotice} />
              ) : (
                <span className="muted">
                  {member.householdRole ? t(`admin.people.role.${member.householdRole}`) : ""}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A member's role, saved as soon as it changes. */
function RoleSelect({
  householdId,
  member,
  onNotice,
}: {
  householdId: string;
  member: AdminHouseholdDetailsFragment["members"][number];
  onNotice(notice: Notice | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const [move, { loading }] = useAdminMovePersonToHousehold({ refetchQueries: ["AdminHouseholdPage"] });
  return (
    <div className="staff-member-list__role">
      <label htmlFor={id} className="visually-hidden">
        {t("admin.household.roleOf", { name: member.displayName })}
      </label>
      <select
        id={id}
        value={member.householdRole ?? ""}
        disabled={loading}
        onChange={(e) => {
          const role = e.target.value as HouseholdRole;
          move({ variables: { id: member.id, input: { householdId, householdRole: role } } })
            .then(() =>
              onNotice({
                kind: "success",
                text: t("admin.household.roleSaved", {
                  name: member.displayName,
                  role: t(`admin.people.role.${role}`),
                }),
              }),
            )
            .catch((caught: unknown) => onNotice({ kind: "error", text: handleError(caught, i18n).message }));
        }}
      >
        {!member.householdRole && <option value="">{t("admin.people.notSet")}</option>}
        {HOUSEHOLD_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`admin.people.role.${r}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Move someone the church already knows into this household. */
function AddExistingPerson({
  household,
  onNotice,
}: {
  household: AdminHouseholdDetailsFragment;
  onNotice(notice: Notice | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [person, setPerson] = useState<PickedPerson | null>(null);
  const [role, setRole] = useState<HouseholdRole>("OTHER");
  const [error, setError] = useState<UiError | null>(null);
  const [move, { loading }] = useAdminMovePersonToHousehold({
    refetchQueries: ["AdminHouseholdPage"],
    awaitRefetchQueries: true,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!person) return;
    setError(null);
    try {
      await move({ variables: { id: person.id, input: { householdId: household.id, householdRole: role } } });
      dialog.current?.close();
      onNotice({
        kind: "success",
        text: t("admin.people.household.moved", { name: person.displayName, household: household.name }),
      });
      setPerson(null);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {t("admin.household.addExisting")}
      </button>
      <dialog ref={dialog} className="dialog person-dialog" aria-labelledby={titleId}>
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <h2 id={titleId}>{t("admin.household.addExistingTitle", { household: household.name })}</h2>
          <FormErrorSummary error={error} fields={["householdRole"]} />
          <PersonPicker label={t("admin.household.findPerson")} value={person} onChange={setPerson} />
          {person?.household && person.household.id !== household.id && (
            <p className="alert alert--info">
              {t("admin.household.willMove", { name: person.displayName, from: person.household.name })}
            </p>
          )}
          <SelectField
            label={t("admin.people.field.householdRole")}
            value={role}
            onChange={(e) => setRole(e.target.value as HouseholdRole)}
            error={error?.fieldErrors.householdRole}
          >
            {HOUSEHOLD_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.people.role.${r}`)}
              </option>
            ))}
          </SelectField>
          <FormActions
            submitLabel={t("admin.household.addExistingSubmit")}
            busy={loading}
            disabled={!person}
            onCancel={() => dialog.current?.close()}
          />
        </form>
      </dialog>
    </>
  );
}

/** Name and directory opt-out. */
function HouseholdSettings({ household }: { household: AdminHouseholdDetailsFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [name, setName] = useState(household.name);
  const [optOut, setOptOut] = useState(household.directoryOptOut);
  const [error, setError] = useState<UiError | null>(null);
  const [done, setDone] = useState(false);
  const [update, { loading }] = useAdminUpdateHousehold();
  const dirty = name.trim() !== household.name || optOut !== household.directoryOptOut;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(false);
    try {
      await update({
        variables: { id: household.id, input: { name: name.trim(), directoryOptOut: optOut } },
      });
      setDone(true);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <section className="card staff-side-card" aria-labelledby="household-settings-title">
      <h2 id="household-settings-title">{t("admin.household.settings")}</h2>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <FormErrorSummary error={error} fields={["name", "directoryOptOut"]} />
        <TextField
          label={t("admin.household.name")}
          required
          maxLength={LIMITS.householdNameMax}
          value={name}
          onChange={(e) => {
            setDone(false);
            setName(e.target.value);
          }}
          error={error?.fieldErrors.name}
        />
        <CheckboxField
          label={t("admin.household.optOut")}
          hint={t("admin.household.optOutHint")}
          checked={optOut}
          onChange={(e) => {
            setDone(false);
            setOptOut(e.target.checked);
          }}
        />
        <div className="form__footer">
          <button type="submit" className="button button--small" disabled={loading || !dirty}>
            {loading ? t("common.saving") : t("common.save")}
          </button>
          {done && !dirty && (
            <span className="muted small" role="status">
              {t("admin.people.saved")}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

const EMPTY_ADDRESS = {
  street1: "",
  street2: "",
  city: "",
  region: "",
  postalCode: "",
  country: "",
  visibility: "" as Visibility | "",
};

function AddressCard({
  household,
  canManage,
}: {
  household: AdminHouseholdDetailsFragment;
  canManage: boolean;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const address = household.address;
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState(EMPTY_ADDRESS);
  const [error, setError] = useState<UiError | null>(null);
  const [setAddress, { loading }] = useAdminSetHouseholdAddress({
    refetchQueries: ["AdminHouseholdPage"],
    awaitRefetchQueries: true,
  });
  const [removeAddress, { loading: removing }] = useAdminRemoveHouseholdAddress({
    refetchQueries: ["AdminHouseholdPage"],
    awaitRefetchQueries: true,
  });
  const set = (name: keyof typeof EMPTY_ADDRESS) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  function startEditing() {
    setValues(
      address
        ? {
            street1: address.street1,
            street2: address.street2 ?? "",
            city: address.city,
            region: address.region ?? "",
            postalCode: address.postalCode ?? "",
            country: address.country,
            visibility: address.visibility,
          }
        : { ...EMPTY_ADDRESS, country: browserCountry() },
    );
    setError(null);
    setEditing(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await setAddress({
        variables: {
          householdId: household.id,
          input: {
            street1: values.street1.trim(),
            street2: optional(values.street2),
            city: values.city.trim(),
            region: optional(values.region),
            postalCode: optional(values.postalCode),
            country: values.country.trim().toUpperCase(),
            ...(values.visibility ? { visibility: values.visibility } : {}),
          },
        },
      });
      setEditing(false);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <section className="card staff-side-card" aria-labelledby="address-title">
      <h2 id="address-title">{t("admin.household.address")}</h2>
      {editing ? (
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <FormErrorSummary
            error={error}
            fields={["street1", "street2", "city", "region", "postalCode", "country", "visibility"]}
          />
          <TextField
            label={t("admin.household.street1")}
            required
            autoComplete="off"
            maxLength={LIMITS.streetMax}
            value={values.street1}
            onChange={set("street1")}
            error={error?.fieldErrors.street1}
          />
          <TextField
            label={t("admin.household.street2")}
            optionalText={t("common.optional")}
            autoComplete="off"
            maxLength={LIMITS.streetMax}
            value={values.street2}
            onChange={set("street2")}
            error={error?.fieldErrors.street2}
          />
          <TextField
            label={t("admin.household.city")}
            required
            autoComplete="off"
            maxLength={LIMITS.cityMax}
            value={values.city}
            onChange={set("city")}
            error={error?.fieldErrors.city}
          />
          <div className="form__row form__row--tight">
            <TextField
              label={t("admin.household.region")}
              optionalText={t("common.optional")}
              autoComplete="off"
              maxLength={LIMITS.regionMax}
              value={values.region}
              onChange={set("region")}
              error={error?.fieldErrors.region}
            />
            <TextField
              label={t("admin.household.postalCode")}
              optionalText={t("common.optional")}
              autoComplete="off"
              maxLength={LIMITS.postalCodeMax}
              value={values.postalCode}
              onChange={set("postalCode")}
              error={error?.fieldErrors.postalCode}
            />
          </div>
          <SelectField
            label={t("admin.household.country")}
            required
            value={values.country}
            onChange={set("country")}
            error={error?.fieldErrors.country}
          >
            {countryOptions(locale).map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("admin.people.contact.visibility")}
            value={values.visibility}
            onChange={set("visibility")}
            error={error?.fieldErrors.visibility}
          >
            {!values.visibility && <option value="">{t("admin.people.visibility.default")}</option>}
            {VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {t(`admin.people.visibility.${v}`)}
              </option>
            ))}
          </SelectField>
          <FormActions
            submitLabel={t("common.save")}
            busy={loading}
            onCancel={() => setEditing(false)}
            small
          />
        </form>
      ) : (
        <>
          {address ? (
            <>
              <address>
                <span className="block">{address.street1}</span>
                {address.street2 && <span className="block">{address.street2}</span>}
                <span className="block">
                  {[address.city, address.region, address.postalCode].filter(Boolean).join(", ")}
                </span>
                <span className="block">{countryName(address.country, locale)}</span>
              </address>
              <VisibilityBadge visibility={address.visibility} />
            </>
          ) : (
            <p className="muted">{t("admin.household.noAddress")}</p>
          )}
          {canManage && (
            <div className="staff-side-card__actions">
              <button type="button" className="button button--ghost button--small" onClick={startEditing}>
                {address ? t("admin.household.editAddress") : t("admin.household.addAddress")}
              </button>
              {address && (
                <button
                  type="button"
                  className="button button--danger-ghost button--small"
                  disabled={removing}
                  onClick={() => {
                    if (!window.confirm(t("admin.household.confirmRemoveAddress"))) return;
                    removeAddress({ variables: { householdId: household.id } }).catch((caught: unknown) =>
                      setError(handleError(caught, i18n)),
                    );
                  }}
                >
                  {t("admin.household.removeAddress")}
                </button>
              )}
            </div>
          )}
          {error && !editing && <Alert kind="error">{error.message}</Alert>}
        </>
      )}
    </section>
  );
}

function Invitations({ household }: { household: AdminHouseholdDetailsFragment }) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  return (
    <section className="card staff-side-card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t("admin.household.invitations")}</h2>
      <ul className="staff-plain-list">
        {household.invitations.map((invitation) => (
          <li key={invitation.id}>
            <strong>{invitation.name}</strong> <span className="muted small">{invitation.email}</span>
            <span className="block small muted">
              {t(`admin.household.invitation.${invitation.status}`)} ·{" "}
              {t("admin.household.expires", { time: format(invitation.expiresAt) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function HouseholdPhoto({
  household,
  canManage,
  onNotice,
}: {
  household: AdminHouseholdDetailsFragment;
  canManage: boolean;
  onNotice(notice: Notice | null): void;
}) {
  const client = useApolloClient();
  const [setPhoto] = useAdminSetHouseholdPhoto();
  return (
    <PhotoField
      src={household.photoUrl}
      renderPhoto={(src) =>
        src ? (
          <img src={src} alt="" className="household-photo" width={240} height={180} />
        ) : (
          <span className="household-photo household-photo--empty" aria-hidden="true" />
        )
      }
      canEdit={canManage}
      layout="stacked"
      className="person-photo person-photo--household"
      onNotice={onNotice}
      onUpload={async (file, onProgress) => {
        const data = await uploadWithProgress<AdminSetHouseholdPhotoMutation>(
          AdminSetHouseholdPhotoDocument,
          { id: household.id },
          "file",
          file,
          onProgress,
        );
        // The upload went around Apollo: put the answer into its cache so the page updates.
        client.cache.writeFragment({
          fragment: AdminHouseholdDetailsFragmentDoc,
          fragmentName: "AdminHouseholdDetails",
          data: data.setHouseholdPhoto,
        });
      }}
      onRemove={() => setPhoto({ variables: { id: household.id, file: null } })}
    />
  );
}
