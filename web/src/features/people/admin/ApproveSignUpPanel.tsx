import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useAdminApproveSignUp, useAdminApproveSignUpPanel } from "./ApproveSignUpPanel.generated.ts";
import type { AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import type { ApproveSignUpInput, MembershipStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { SelectField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { useFocusFirstError } from "../../../lib/useForm.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import {
  Avatar,
  MEMBERSHIP_STATUSES,
  MatchReasonBadge,
  MembershipBadge,
  RecordStatusBadge,
} from "./common.tsx";
import { HouseholdPicker, type PickedHousehold } from "./Pickers.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

/**
 * A pending sign-up (PRODUCT.md §5): link it to the person the church already knows (suggested by
 * email, phone and name), or approve it as a new person. Either way the user is emailed and the
 * member areas open for them.
 */
export function ApproveSignUpPanel({
  person,
  onApproved,
}: {
  person: AdminPersonDetailsFragment;
  onApproved(kept: AdminPersonDetailsFragment, notice: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { format } = useChurchDateTime();
  const {
    data,
    loading,
    error: loadError,
  } = useAdminApproveSignUpPanel({ variables: { id: person.id }, fetchPolicy: "cache-and-network" });
  const [approveSignUp, { loading: approving }] = useAdminApproveSignUp();
  const [error, setError] = useState<UiError | null>(null);
  const formRef = useFocusFirstError(error);
  const [householdMode, setHouseholdMode] = useState<"new" | "existing">(
    person.household ? "existing" : "new",
  );
  const [household, setHousehold] = useState<PickedHousehold | null>(
    person.household ? { id: person.household.id, name: person.household.name } : null,
  );
  const [membershipStatus, setMembershipStatus] = useState<MembershipStatus>("VISITOR");
  const suggestions = data?.person?.matchSuggestions ?? [];
  // `||`: an account's email reads as "" for staff without roles.manage (PocketBase hides it), and
  // the sign-up address is then still known from the person's own email row.
  const email = person.user?.email || person.emails[0]?.email;

  async function approve(input: ApproveSignUpInput, notice: string) {
    setError(null);
    try {
      const result = await approveSignUp({ variables: { personId: person.id, input } });
      const kept = result.data?.approveSignUp;
      if (kept) onApproved(kept, notice);
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  function approveAsNew(event: FormEvent) {
    event.preventDefault();
    if (householdMode === "existing" && !household) {
      setError({
        code: "BAD_USER_INPUT",
        message: t("error.BAD_USER_INPUT"),
        fieldErrors: { householdId: t("admin.people.add.chooseHousehold") },
      });
      return;
    }
    void approve(
      {
        membershipStatus,
        ...(householdMode === "existing" && household ? { householdId: household.id } : {}),
      },
      t("admin.people.approve.approved", { name: person.displayName }),
    );
  }

  return (
    <section className="card approve-panel" aria-labelledby="approve-title">
      <h2 id="approve-title">{t("admin.people.approve.title")}</h2>
      <p>
        {email
          ? t("admin.people.approve.intro", { name: person.displayName, email, time: format(person.created) })
          : t("admin.people.approve.introNoEmail", {
              name: person.displayName,
              time: format(person.created),
            })}{" "}
        {t("admin.people.approve.emailed")}
      </p>
      <FormErrorSummary error={error} fields={["householdId", "membershipStatus"]} />

      <h3>{t("admin.people.approve.matches")}</h3>
      {loadError && <Alert kind="error">{handleError(loadError, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : suggestions.length === 0 ? (
        <p className="muted">{t("admin.people.approve.noMatches")}</p>
      ) : (
        <>
          <p className="muted small">{t("admin.people.approve.linkExplain")}</p>
          <ul className="staff-match-list">
            {suggestions.map(({ person: match, reasons }) => (
              <li key={match.id} className="staff-match">
                <Avatar name={match.displayName} url={match.photoUrl} />
                <div className="staff-match__body">
                  <p className="staff-match__name">
                    <Link to={`/admin/people/${match.id}`}>{match.displayName}</Link>
                  </p>
                  <p className="staff-badges">
                    <span className="visually-hidden">{t("admin.people.approve.why")} </span>
                    {reasons.map((reason) => (
                      <MatchReasonBadge key={reason} reason={reason} />
                    ))}
                    <RecordStatusBadge status={match.recordStatus} />
                    <MembershipBadge status={match.membershipStatus} />
                  </p>
                  <p className="muted small staff-match__facts">
                    {[
                      match.household?.name,
                      ...match.emails.map((e) => e.email),
                      ...match.phones.map((p) => p.formatted),
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                  {match.user && (
                    <p className="small staff-match__warning">
                      {/* "" for staff who may not manage accounts: PocketBase hides account emails from them. */}
                      {match.user.email
                        ? t("admin.people.approve.hasLogin", { email: match.user.email })
                        : t("admin.people.approve.hasLoginNoEmail")}
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  className="button button--small"
                  disabled={approving}
                  aria-label={t("admin.people.approve.linkNamed", { name: match.displayName })}
                  onClick={() => {
                    if (
                      !window.confirm(
                        t("admin.people.approve.confirmLink", {
                          pending: person.displayName,
                          name: match.displayName,
                        }),
                      )
                    )
                      return;
                    // The known person keeps their membership status; staff change it on their page if needed.
                    void approve(
                      {
                        linkToPersonId: match.id,
                        membershipStatus: match.membershipStatus ?? membershipStatus,
                      },
                      t("admin.people.approve.linked", { name: match.displayName }),
                    );
                  }}
                >
                  {t("admin.people.approve.link")}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      <form ref={formRef} className="form approve-panel__new" onSubmit={approveAsNew} noValidate>
        <h3>{suggestions.length ? t("admin.people.approve.orNew") : t("admin.people.approve.asNewTitle")}</h3>
        <fieldset className="radio-group">
          <legend>{t("admin.people.field.household")}</legend>
          <label className="field--checkbox">
            <input
              type="radio"
              name="approve-household"
              checked={householdMode === "new"}
              onChange={() => setHouseholdMode("new")}
            />
            {t("admin.people.approve.newHousehold", { name: person.lastName || person.displayName })}
          </label>
          <label className="field--checkbox">
            <input
              type="radio"
              name="approve-household"
              checked={householdMode === "existing"}
              onChange={() => setHouseholdMode("existing")}
            />
            {t("admin.people.add.existingHousehold")}
          </label>
        </fieldset>
        {householdMode === "existing" && (
          <HouseholdPicker value={household} onChange={setHousehold} error={error?.fieldErrors.householdId} />
        )}
        <SelectField
          label={t("admin.people.field.membershipStatus")}
          hint={t("admin.people.approve.membershipHint")}
          value={membershipStatus}
          onChange={(e) => setMembershipStatus(e.target.value as MembershipStatus)}
          error={error?.fieldErrors.membershipStatus}
        >
          {MEMBERSHIP_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`admin.people.membership.${s}`)}
            </option>
          ))}
        </SelectField>
        <div className="actions">
          <button type="submit" className="button" disabled={approving}>
            {approving ? t("common.saving") : t("admin.people.approve.asNew")}
          </button>
        </div>
      </form>
    </section>
  );
}
