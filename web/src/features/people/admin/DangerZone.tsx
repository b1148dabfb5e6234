import { useId, useImperativeHandle, useRef, useState, type FormEvent, type Ref } from "react";
import {
  useAdminAnonymizePerson,
  useAdminArchivePerson,
  useAdminUpdatePerson,
  type AdminPersonDetailsFragment,
} from "./AdminPersonPage.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { FormErrorSummary } from "./FormErrorSummary.tsx";
import type { Notice } from "../../../components/Alert.tsx";

/** Archive (keeps everything, hides the person) or, for an archived person, restore. */
export function ArchiveButton({
  person,
  onNotice,
}: {
  person: AdminPersonDetailsFragment;
  onNotice(notice: Notice | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [archivePerson, { loading: archiving }] = useAdminArchivePerson();
  const [updatePerson, { loading: restoring }] = useAdminUpdatePerson();
  const fail = (caught: unknown) => onNotice({ kind: "error", text: handleError(caught, i18n).message });
  if (person.recordStatus === "ARCHIVED") {
    if (person.mergedInto) return null;
    return (
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={restoring}
        onClick={() =>
          void updatePerson({ variables: { id: person.id, input: { recordStatus: "ACTIVE" } } })
            .then(() =>
              onNotice({
                kind: "success",
                text: t("admin.people.archive.restored", { name: person.displayName }),
              }),
            )
            .catch(fail)
        }
      >
        {t("admin.people.archive.restore")}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="button button--danger-ghost button--small"
      disabled={archiving}
      onClick={() => {
        if (!window.confirm(t("admin.people.archive.confirm", { name: person.displayName }))) return;
        void archivePerson({ variables: { id: person.id } })
          .then(() =>
            onNotice({ kind: "success", text: t("admin.people.archive.done", { name: person.displayName }) }),
          )
          .catch(fail);
      }}
    >
      {t("admin.people.archive.archive")}
    </button>
  );
}

/**
 * Anonymise: removes personal data and files and deletes the login, keeping aggregate records
 * (attendance counts, gifts totals…). Cannot be undone, so it asks for the person's name typed out.
 */
export function AnonymiseDialog({
  person,
  onDone,
  ref,
}: {
  person: AdminPersonDetailsFragment;
  onDone(notice: string): void;
  ref?: Ref<{ open(): void }>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [anonymizePerson, { loading }] = useAdminAnonymizePerson();
  const expected = person.displayName.trim();
  const matches = typed.trim().toLocaleLowerCase() === expected.toLocaleLowerCase();

  function open() {
    setTyped("");
    setError(null);
    dialog.current?.showModal();
  }
  useImperativeHandle(ref, () => ({ open }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!matches) return;
    setError(null);
    try {
      await anonymizePerson({ variables: { id: person.id } });
      dialog.current?.close();
      onDone(t("admin.people.anonymise.done"));
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <>
      <button type="button" className="button button--danger-solid" onClick={open}>
        {t("admin.people.anonymise.open")}
      </button>
      <dialog ref={dialog} className="dialog person-dialog" aria-labelledby={titleId}>
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <h2 id={titleId}>{t("admin.people.anonymise.title", { name: person.displayName })}</h2>
          <p>{t("admin.people.anonymise.removes")}</p>
          <ul className="anonymise-list">
            <li>{t("admin.people.anonymise.item.names")}</li>
            <li>{t("admin.people.anonymise.item.contact")}</li>
            <li>{t("admin.people.anonymise.item.photo")}</li>
            <li>{t("admin.people.anonymise.item.login")}</li>
          </ul>
          <p>{t("admin.people.anonymise.keeps")}</p>
          <p className="alert alert--warning">{t("admin.people.anonymise.irreversible")}</p>
          <FormErrorSummary error={error} fields={[]} />
          <TextField
            label={t("admin.people.anonymise.typeName", { name: expected })}
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <FormActions
            submitLabel={t("admin.people.anonymise.submit")}
            busy={loading}
            disabled={!matches}
            danger
            onCancel={() => dialog.current?.close()}
          />
        </form>
      </dialog>
    </>
  );
}
