import { useRef, useState } from "react";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useCancelDataDeletion, useRequestDataDeletion } from "./account.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatDate } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { SavedNotice } from "../../components/SavedNotice.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { MyAccountGate, type MyPerson } from "./account.tsx";

/** Served by the gateway: JSON of everything held about the member, plus their files, as one zip. */
const EXPORT_URL = "/me/data/export.zip";

/** /me/data: download everything the church holds about me; ask for it to be deleted. */
export function DataPage() {
  const { t } = useI18n();
  usePageTitle(t("me.data.title"));
  return (
    <>
      <h1>{t("me.data.title")}</h1>
      <p className="muted page-intro">{t("me.data.intro")}</p>
      <div className="settings-stack">
        <section className="card" aria-labelledby="data-export">
          <h2 id="data-export">{t("me.data.exportTitle")}</h2>
          <p>{t("me.data.exportIntro")}</p>
          <ul className="checklist">
            <li>{t("me.data.exportProfile")}</li>
            <li>{t("me.data.exportContact")}</li>
            <li>{t("me.data.exportHousehold")}</li>
            <li>{t("me.data.exportAccount")}</li>
            <li>{t("me.data.exportOther")}</li>
            <li>{t("me.data.exportFiles")}</li>
          </ul>
          <p>
            <a href={EXPORT_URL} download className="button">
              <span aria-hidden="true">↓</span> {t("me.data.download")}
            </a>
          </p>
          <p className="muted small">{t("me.data.exportFormat")}</p>
        </section>
        <MyAccountGate>{({ person }) => <DeletionSection person={person} />}</MyAccountGate>
      </div>
    </>
  );
}

function DeletionSection({ person }: { person: MyPerson }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { data: shell } = useAppShell();
  const dialog = useRef<HTMLDialogElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const [request, { loading: requesting }] = useRequestDataDeletion();
  const [cancel, { loading: cancelling }] = useCancelDataDeletion();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const requestedAt = person.deletionRequestedAt;

  async function confirmRequest() {
    setError(null);
    try {
      await request();
      dialog.current?.close();
      setNotice(t("me.data.requested"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    }
  }

  async function cancelRequest() {
    setError(null);
    setNotice(null);
    try {
      await cancel();
      setNotice(t("me.data.cancelled"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    }
  }

  return (
    <section className="card" aria-labelledby="data-delete">
      <h2 id="data-delete">{t("me.data.deleteTitle")}</h2>
      {requestedAt ? (
        <>
          <Alert kind="warning">
            <strong className="block">
              {t("me.data.requestedOn", {
                date: formatDate(requestedAt, locale, shell?.settings.timezone ?? "UTC"),
              })}
            </strong>
            {t("me.data.requestedBody")}
          </Alert>
          {error && <Alert kind="error">{error}</Alert>}
          <button
            type="button"
            className="button button--ghost"
            disabled={cancelling}
            onClick={() => void cancelRequest()}
          >
            {cancelling ? t("common.saving") : t("me.data.cancelRequest")}
          </button>
        </>
      ) : (
        <>
          <p>{t("me.data.deleteIntro")}</p>
          <button
            type="button"
            className="button button--danger-solid"
            onClick={() => {
              setError(null);
              setNotice(null);
              dialog.current?.showModal();
              // The first button would be the destructive one: start on "Keep my data" instead.
              keepButton.current?.focus();
            }}
          >
            {t("me.data.requestDeletion")}
          </button>
        </>
      )}
      <SavedNotice text={notice} />
      <dialog
        ref={dialog}
        className="dialog dialog--wide"
        aria-labelledby="delete-dialog-title"
        aria-describedby="delete-dialog-body"
      >
        <h2 id="delete-dialog-title">{t("me.data.confirmTitle")}</h2>
        <div id="delete-dialog-body">
          <p>{t("me.data.confirmIntro")}</p>
          <ul>
            <li>{t("me.data.consequence1")}</li>
            <li>{t("me.data.consequence2")}</li>
            <li>{t("me.data.consequence3")}</li>
            <li>{t("me.data.consequence4")}</li>
          </ul>
          <p>{t("me.data.confirmCancel")}</p>
        </div>
        {error && <Alert kind="error">{error}</Alert>}
        <div className="actions">
          <button
            type="button"
            className="button button--danger-solid"
            disabled={requesting}
            onClick={() => void confirmRequest()}
          >
            {requesting ? t("common.saving") : t("me.data.confirmRequest")}
          </button>
          <button
            ref={keepButton}
            type="button"
            className="button button--ghost"
            onClick={() => dialog.current?.close()}
          >
            {t("me.data.keep")}
          </button>
        </div>
      </dialog>
    </section>
  );
}
