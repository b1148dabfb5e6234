import { useId, useRef, useState } from "react";
import { useAdminMergePeople, type AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import { useAdminMergePreview, type AdminMergePreviewQuery } from "./MergeDialog.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { Avatar, RecordStatusBadge, useLoginName } from "./common.tsx";
import { useCalendarDates } from "../../../lib/dates.ts";
import { PersonPicker, type PickedPerson } from "./Pickers.tsx";
import { FormErrorSummary } from "./FormErrorSummary.tsx";

type Preview = NonNullable<AdminMergePreviewQuery["person"]>;

/**
 * "Merge duplicate…": find the other record, compare both, choose which one to keep. Every related
 * record (emails, phones, household, login, groups, registrations…) moves to the kept person; the
 * other is archived and points to it.
 */
export function MergeDialog({
  person,
  onMerged,
}: {
  person: AdminPersonDetailsFragment;
  onMerged(kept: AdminPersonDetailsFragment, notice: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [other, setOther] = useState<PickedPerson | null>(null);
  const [keep, setKeep] = useState<"this" | "other">("this");
  const [error, setError] = useState<UiError | null>(null);
  const preview = useAdminMergePreview({ variables: { id: other?.id ?? "" }, skip: !other });
  const [mergePeople, { loading }] = useAdminMergePeople();
  const otherPreview = preview.data?.person ?? null;
  const kept = keep === "this" ? person.displayName : (other?.displayName ?? "");

  async function merge() {
    if (!other) return;
    setError(null);
    const [keepId, mergeId] = keep === "this" ? [person.id, other.id] : [other.id, person.id];
    try {
      const result = await mergePeople({ variables: { keepId, mergeId } });
      const survivor = result.data?.mergePeople;
      if (survivor) {
        dialog.current?.close();
        onMerged(survivor, t("admin.people.merge.done", { name: survivor.displayName }));
      }
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {t("admin.people.merge.open")}
      </button>
      <dialog ref={dialog} className="dialog merge-dialog" aria-labelledby={titleId}>
        <div className="form">
          <h2 id={titleId}>{t("admin.people.merge.title", { name: person.displayName })}</h2>
          <p>{t("admin.people.merge.explain")}</p>
          <PersonPicker
            label={t("admin.people.merge.search")}
            value={other}
            onChange={setOther}
            excludeId={person.id}
          />
          {other && (
            <>
              {preview.loading && !otherPreview ? (
                <Loading />
              ) : (
                <fieldset className="merge-choice">
                  <legend>{t("admin.people.merge.keepWhich")}</legend>
                  <div className="merge-choice__options">
                    <MergeOption
                      name="merge-keep"
                      checked={keep === "this"}
                      onChange={() => setKeep("this")}
                      person={person}
                      label={t("admin.people.merge.thisRecord")}
                    />
                    {otherPreview && (
                      <MergeOption
                        name="merge-keep"
                        checked={keep === "other"}
                        onChange={() => setKeep("other")}
                        person={otherPreview}
                        label={t("admin.people.merge.otherRecord")}
                      />
                    )}
                  </div>
                </fieldset>
              )}
              <div className="alert alert--warning">
                <p>
                  {t("admin.people.merge.consequence", {
                    kept,
                    merged: keep === "this" ? other.displayName : person.displayName,
                  })}
                </p>
                <p className="small">{t("admin.people.merge.irreversible")}</p>
              </div>
            </>
          )}
          <FormErrorSummary error={error} fields={[]} />
          <FormActions
            submitLabel={
              other ? t("admin.people.merge.submit", { name: kept }) : t("admin.people.merge.submitDisabled")
            }
            busy={loading}
            disabled={!other || !otherPreview}
            onSubmit={() => void merge()}
            onCancel={() => dialog.current?.close()}
          />
        </div>
      </dialog>
    </>
  );
}

/** One side of the comparison: a radio button, with the record's facts as its description. */
function MergeOption({
  name,
  checked,
  onChange,
  person,
  label,
}: {
  name: string;
  checked: boolean;
  onChange(): void;
  person: Preview | AdminPersonDetailsFragment;
  label: string;
}) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  const dates = useCalendarDates();
  const loginName = useLoginName();
  const factsId = useId();
  return (
    // The whole card selects on click (a larger target); the radio inside is what keyboards use.
    <div className={`merge-option${checked ? " merge-option--chosen" : ""}`} onClick={onChange}>
      <label className="merge-option__pick">
        <input type="radio" name={name} checked={checked} onChange={onChange} aria-describedby={factsId} />
        <span>
          <span className="merge-option__label">{label}</span>
          <span className="merge-option__person">
            <Avatar name={person.displayName} url={person.photoUrl} />
            <strong>{person.displayName}</strong>
          </span>
        </span>
      </label>
      <p className="staff-badges">
        <RecordStatusBadge status={person.recordStatus} />
        {checked && <span className="badge badge--ok">{t("admin.people.merge.kept")}</span>}
      </p>
      <dl className="staff-facts" id={factsId}>
        <dt>{t("admin.people.column.household")}</dt>
        <dd>{person.household?.name ?? "—"}</dd>
        <dt>{t("admin.people.contact.emails")}</dt>
        <dd>{person.emails.map((e) => e.email).join(", ") || "—"}</dd>
        <dt>{t("admin.people.contact.phones")}</dt>
        <dd>{person.phones.map((p) => p.formatted).join(", ") || "—"}</dd>
        <dt>{t("admin.people.field.birthDate")}</dt>
        <dd>{person.birthDate ? dates.date(person.birthDate) : "—"}</dd>
        <dt>{t("admin.people.login.title")}</dt>
        <dd>{loginName(person.user)}</dd>
        <dt>{t("admin.people.created")}</dt>
        <dd>{format(person.created)}</dd>
      </dl>
    </div>
  );
}
