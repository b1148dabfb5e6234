import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useApolloClient } from "@apollo/client/react";
import {
  MyAccountDocument,
  UploadHouseholdPhotoDocument,
  useAddHouseholdChild,
  useInviteToMyHousehold,
  useRemoveHouseholdPhoto,
  useRevokeMyHouseholdInvitation,
  useUpdateHouseholdMember,
  useUpdateMyHousehold,
  type MyHouseholdMemberFragment,
  type UploadHouseholdPhotoMutation,
} from "./account.generated.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate, formatDate, todayIn } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { TextField } from "../../components/Field.tsx";
import { PhotoField } from "../../components/PhotoField.tsx";
import { SavedNotice } from "../../components/SavedNotice.tsx";
import { handleError } from "../../lib/handleError.ts";
import { uploadWithProgress } from "../../lib/upload.ts";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import { Avatar } from "./Avatar.tsx";
import { MyAccountGate, type MyHousehold, type MyPerson } from "./account.tsx";

const refetchAccount = { refetchQueries: [{ query: MyAccountDocument }], awaitRefetchQueries: true };

/** /me/household: the household's name and photo, its people, adding a child, inviting an adult. */
export function HouseholdPage() {
  const { t } = useI18n();
  usePageTitle(t("me.household.title"));
  return (
    <>
      <h1>{t("me.household.title")}</h1>
      <MyAccountGate>
        {({ person, household }) =>
          household ? (
            <div className="settings-stack">
              <HouseholdDetails household={household} />
              <Members household={household} me={person} />
              {household.can.edit && <Invitations household={household} />}
            </div>
          ) : (
            <div className="empty">
              <p>
                {person.recordStatus === "PENDING" ? t("me.household.nonePending") : t("me.household.none")}
              </p>
            </div>
          )
        }
      </MyAccountGate>
    </>
  );
}

function HouseholdDetails({ household }: { household: MyHousehold }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [update] = useUpdateMyHousehold();
  const [removePhoto] = useRemoveHouseholdPhoto();
  const form = useForm({ name: household.name });
  const [done, setDone] = useState(false);
  return (
    <section className="card" aria-labelledby="household-details">
      <h2 id="household-details">{household.can.edit ? t("me.household.detailsTitle") : household.name}</h2>
      <PhotoField
        src={household.photo}
        renderPhoto={(src) => <Avatar name={household.name} src={src} size="xl" shape="wide" />}
        hint={t("me.household.photoHint")}
        canEdit={household.can.edit}
        onUpload={async (file, onProgress) => {
          await uploadWithProgress<UploadHouseholdPhotoMutation>(
            UploadHouseholdPhotoDocument,
            { id: household.id },
            "file",
            file,
            onProgress,
          );
          await client.refetchQueries({ include: [MyAccountDocument] });
        }}
        onRemove={() => removePhoto({ variables: { id: household.id } })}
      />
      {household.can.edit ? (
        <form
          className="form household-name-form"
          noValidate
          onChange={() => setDone(false)}
          onSubmit={form.submit(async ({ name }) => {
            setDone(false);
            await update({ variables: { id: household.id, input: { name: name.trim() } } });
            setDone(true);
          })}
        >
          {form.error && !form.fieldError("name") && <Alert kind="error">{form.error.message}</Alert>}
          <TextField
            label={t("me.household.name")}
            hint={t("me.household.nameHint")}
            required
            maxLength={LIMITS.householdNameMax}
            {...form.bind("name")}
            error={form.fieldError("name")}
          />
          <div className="form__footer">
            <button
              type="submit"
              className="button"
              disabled={form.submitting || form.values.name === household.name}
            >
              {form.submitting ? t("common.saving") : t("common.save")}
            </button>
            <SavedNotice text={done ? t("me.saved") : null} />
          </div>
        </form>
      ) : (
        <p className="muted small">{t("me.household.adultsOnly")}</p>
      )}
    </section>
  );
}

function Members({ household, me }: { household: MyHousehold; me: MyPerson }) {
  const { t } = useI18n();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const addButton = useReturnFocus(adding);
  return (
    <section className="card" aria-labelledby="household-members">
      <h2 id="household-members">{t("me.household.membersTitle")}</h2>
      <ul className="item-list">
        {household.members.map((member) => (
          <MemberRow key={member.id} member={member} isMe={member.id === me.id} onSaved={setNotice} />
        ))}
      </ul>
      {/* Adding a child is editing the household: its active adults (staff do the rest). */}
      {household.can.edit &&
        (adding ? (
          <AddChildForm
            household={household}
            lastName={me.lastName}
            onDone={(name) => {
              setAdding(false);
              if (name) setNotice(t("me.household.childAdded", { name }));
            }}
          />
        ) : (
          <p>
            <button
              ref={addButton}
              type="button"
              className="button button--ghost"
              onClick={() => {
                setNotice(null);
                setAdding(true);
              }}
            >
              <span aria-hidden="true">+</span> {t("me.household.addChild")}
            </button>
          </p>
        ))}
      <SavedNotice text={notice} />
    </section>
  );
}

/** When an inline form closes, focus goes back to the button that opened it (not to the page's top). */
function useReturnFocus(open: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return button;
}

function MemberRow({
  member,
  isMe,
  onSaved,
}: {
  member: MyHouseholdMemberFragment;
  isMe: boolean;
  onSaved: (text: string) => void;
}) {
  const { t, locale } = useI18n();
  const [editing, setEditing] = useState(false);
  const editButton = useReturnFocus(editing);
  // Adults edit their own profile (the link below); here a household's adults look after its
  // children's records, which Person.can says they may.
  const canEditHere = !isMe && member.can.edit && member.ageGroup !== "ADULT";
  return (
    <li className="item-row item-row--member">
      <Avatar name={member.displayName} src={member.thumb} size="md" />
      <div className="item-row__main">
        <span className="item-row__value">
          {member.displayName}
          {isMe && <span className="muted"> {t("me.household.you")}</span>}
        </span>
        <span className="block muted small">
          {[
            member.householdRole ? t(`householdRole.${member.householdRole}`) : null,
            // The age group only when it tells something the role doesn't ("Child · Child").
            member.ageGroup === "YOUTH" || (member.ageGroup === "CHILD" && member.householdRole !== "CHILD")
              ? t(`ageGroup.${member.ageGroup}`)
              : null,
            member.birthDate
              ? t("me.household.born", { date: formatCalendarDate(member.birthDate.slice(0, 10), locale) })
              : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        </span>
        {editing && (
          <EditMemberForm
            member={member}
            onDone={(saved) => {
              setEditing(false);
              if (saved) onSaved(t("me.household.memberSaved", { name: saved }));
            }}
          />
        )}
      </div>
      <div className="item-row__actions">
        {isMe ? (
          <Link to="/me/profile" className="button button--ghost button--small">
            {t("me.household.editProfile")}
          </Link>
        ) : (
          canEditHere &&
          !editing && (
            <button
              ref={editButton}
              type="button"
              className="button button--ghost button--small"
              aria-label={t("me.household.editFor", { name: member.displayName })}
              onClick={() => setEditing(true)}
            >
              {t("me.household.edit")}
            </button>
          )
        )}
      </div>
    </li>
  );
}

function EditMemberForm({
  member,
  onDone,
}: {
  member: MyHouseholdMemberFragment;
  onDone: (savedName: string | null) => void;
}) {
  const { t } = useI18n();
  const { data: shell } = useAppShell();
  const today = todayIn(shell?.settings.timezone ?? "UTC");
  const [update] = useUpdateHouseholdMember();
  const form = useForm({
    firstName: member.firstName,
    lastName: member.lastName,
    birthDate: member.birthDate?.slice(0, 10) ?? "",
  });
  return (
    <form
      className="form member-edit"
      noValidate
      aria-label={t("me.household.editFor", { name: member.displayName })}
      onSubmit={form.submit(async (values) => {
        if (values.birthDate && values.birthDate > today) {
          form.setError({
            code: "BAD_USER_INPUT",
            message: t("error.BAD_USER_INPUT"),
            fieldErrors: { birthDate: t("field.date_in_future") },
          });
          return;
        }
        const result = await update({
          variables: {
            id: member.id,
            input: {
              firstName: values.firstName.trim(),
              lastName: values.lastName.trim(),
              birthDate: values.birthDate || null,
            },
          },
        });
        onDone(result.data?.updatePerson.displayName ?? values.firstName);
      })}
    >
      {form.error && <Alert kind="error">{form.error.message}</Alert>}
      <div className="form__row">
        <TextField
          label={t("auth.firstName")}
          required
          maxLength={LIMITS.personNameMax}
          {...form.bind("firstName")}
          error={form.fieldError("firstName")}
        />
        <TextField
          label={t("auth.lastName")}
          required
          maxLength={LIMITS.personNameMax}
          {...form.bind("lastName")}
          error={form.fieldError("lastName")}
        />
      </div>
      <TextField
        label={t("people.birthDate")}
        type="date"
        max={today}
        {...form.bind("birthDate")}
        error={form.fieldError("birthDate")}
      />
      <div className="actions">
        <button type="submit" className="button button--small" disabled={form.submitting}>
          {form.submitting ? t("common.saving") : t("common.save")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => onDone(null)}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}

function AddChildForm({
  household,
  lastName,
  onDone,
}: {
  household: MyHousehold;
  lastName: string;
  onDone: (name: string | null) => void;
}) {
  const { t } = useI18n();
  const { data: shell } = useAppShell();
  const today = todayIn(shell?.settings.timezone ?? "UTC");
  const [create] = useAddHouseholdChild(refetchAccount);
  const form = useForm({ firstName: "", lastName, birthDate: "" });
  return (
    <form
      className="form card card--inset"
      noValidate
      aria-labelledby="add-child-title"
      onSubmit={form.submit(async (values) => {
        if (values.birthDate && values.birthDate > today) {
          form.setError({
            code: "BAD_USER_INPUT",
            message: t("error.BAD_USER_INPUT"),
            fieldErrors: { birthDate: t("field.date_in_future") },
          });
          return;
        }
        await create({
          variables: {
            input: {
              firstName: values.firstName.trim(),
              lastName: values.lastName.trim(),
              birthDate: values.birthDate || null,
              householdId: household.id,
              householdRole: "CHILD",
            },
          },
        });
        onDone(values.firstName.trim());
      })}
    >
      <h3 id="add-child-title">{t("me.household.addChild")}</h3>
      <p className="muted small">{t("me.household.addChildIntro")}</p>
      {form.error && <Alert kind="error">{form.error.message}</Alert>}
      <div className="form__row">
        <TextField
          label={t("auth.firstName")}
          required
          maxLength={LIMITS.personNameMax}
          autoFocus
          {...form.bind("firstName")}
          error={form.fieldError("firstName")}
        />
        <TextField
          label={t("auth.lastName")}
          required
          maxLength={LIMITS.personNameMax}
          {...form.bind("lastName")}
          error={form.fieldError("lastName")}
        />
      </div>
      <TextField
        label={t("people.birthDate")}
        type="date"
        max={today}
        hint={t("me.household.childBirthDateHint")}
        {...form.bind("birthDate")}
        error={form.fieldError("birthDate")}
      />
      <div className="actions">
        <button type="submit" className="button" disabled={form.submitting}>
          {form.submitting ? t("common.saving") : t("me.household.addChildSubmit")}
        </button>
        <button type="button" className="button button--ghost" onClick={() => onDone(null)}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}

function Invitations({ household }: { household: MyHousehold }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { data: shell } = useAppShell();
  const timeZone = shell?.settings.timezone ?? "UTC";
  const [invite] = useInviteToMyHousehold(refetchAccount);
  const [revoke] = useRevokeMyHouseholdInvitation(refetchAccount);
  const form = useForm({ name: "", email: "" });
  const [notice, setNotice] = useState<string | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const pending = household.invitations.filter((i) => i.status === "PENDING");

  return (
    <section className="card" aria-labelledby="household-invite">
      <h2 id="household-invite">{t("me.household.inviteTitle")}</h2>
      <p className="muted">{t("me.household.inviteIntro", { household: household.name })}</p>
      <form
        className="form"
        noValidate
        onSubmit={form.submit(async ({ name, email }) => {
          setNotice(null);
          await invite({ variables: { householdId: household.id, name: name.trim(), email: email.trim() } });
          form.setValues({ name: "", email: "" });
          setNotice(t("me.household.invited", { email: email.trim() }));
        })}
      >
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <div className="form__row">
          <TextField
            label={t("me.household.inviteName")}
            autoComplete="off"
            required
            maxLength={LIMITS.invitationNameMax}
            {...form.bind("name")}
            error={form.fieldError("name")}
          />
          <TextField
            label={t("auth.email")}
            type="email"
            autoComplete="off"
            required
            maxLength={LIMITS.emailMax}
            {...form.bind("email")}
            error={form.fieldError("email")}
          />
        </div>
        <div className="form__footer">
          <button type="submit" className="button" disabled={form.submitting}>
            {form.submitting ? t("me.household.inviting") : t("me.household.inviteSubmit")}
          </button>
        </div>
      </form>
      <h3 className="subheading">{t("me.household.pendingTitle")}</h3>
      {revokeError && <Alert kind="error">{revokeError}</Alert>}
      {pending.length === 0 ? (
        <p className="muted small">{t("me.household.noInvitations")}</p>
      ) : (
        <ul className="item-list">
          {pending.map((invitation) => (
            <li key={invitation.id} className="item-row">
              <div className="item-row__main">
                <span className="item-row__value">{invitation.name}</span>
                <span className="block muted small">
                  {invitation.email} ·{" "}
                  {t("me.household.expires", { date: formatDate(invitation.expiresAt, locale, timeZone) })}
                </span>
              </div>
              <div className="item-row__actions">
                <button
                  type="button"
                  className="button button--ghost button--small button--danger"
                  disabled={revoking === invitation.id}
                  aria-label={t("me.household.revokeFor", { name: invitation.name })}
                  onClick={() => {
                    if (!window.confirm(t("me.household.confirmRevoke", { name: invitation.name }))) return;
                    setRevoking(invitation.id);
                    setRevokeError(null);
                    setNotice(null);
                    revoke({ variables: { id: invitation.id } })
                      .then(() => setNotice(t("me.household.revoked", { name: invitation.name })))
                      .catch((caught: unknown) => setRevokeError(handleError(caught, i18n).message))
                      .finally(() => setRevoking(null));
                  }}
                >
                  {t("me.household.revoke")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <SavedNotice text={notice} />
    </section>
  );
}
