import { useId, useRef, useState } from "react";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useContactPerson } from "./directory.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { TextAreaField } from "../../components/Field.tsx";
import { FormActions } from "../../components/FormActions.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { useFocusFirstError } from "../../lib/useForm.ts";

const MESSAGE_MAX = 2000; // gateway LIMITS.contactMessageMax

/**
 * "Contact" in the directory: the message goes by email through the church's app, so the sender never
 * learns the address. A modal <dialog>: focus moves in, Escape closes, focus returns to the button.
 * The draft survives closing and errors; only a sent message is cleared.
 */
export function ContactButton({
  personId,
  name,
  addressShown,
}: {
  personId: string;
  name: string;
  addressShown: boolean;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const doneButton = useRef<HTMLButtonElement>(null);
  const { data: shell } = useAppShell();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const formRef = useFocusFirstError(error);
  const [sent, setSent] = useState(false);
  const [contact, { loading }] = useContactPerson();

  function open() {
    setError(null);
    if (sent) {
      setSent(false);
      setMessage("");
    }
    dialog.current?.showModal();
  }

  async function send() {
    const text = message.trim();
    if (!text) {
      setError({
        code: "BAD_USER_INPUT",
        message: "",
        fieldErrors: { message: t("directory.contact.empty") },
      });
      return;
    }
    setError(null);
    try {
      await contact({ variables: { personId, message: text } });
      setSent(true);
      // The form is replaced by the confirmation: keep focus inside the dialog, on its one action.
      requestAnimationFrame(() => doneButton.current?.focus());
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  const fieldError = error?.fieldErrors.message;
  return (
    <>
      <button type="button" className="button" onClick={open}>
        <span aria-hidden="true">✉</span> {t("directory.contact.open", { name })}
      </button>
      <dialog ref={dialog} className="dialog contact-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>{t("directory.contact.title", { name })}</h2>
        {sent ? (
          <>
            <Alert kind="success">
              <strong className="block">{t("directory.contact.sent")}</strong>
              {t("directory.contact.sentBody", { name })}
            </Alert>
            <div className="actions">
              <button
                ref={doneButton}
                type="button"
                className="button"
                onClick={() => dialog.current?.close()}
              >
                {t("common.close")}
              </button>
            </div>
          </>
        ) : (
          <form
            ref={formRef}
            className="form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            {/* What is true for this person's choices: they may share an address with the sender. */}
            <p className="muted small">
              {t(addressShown ? "directory.contact.privacyShared" : "directory.contact.privacy", {
                name,
                email: shell?.viewer?.user.email ?? "",
              })}
            </p>
            {error && !fieldError && <Alert kind="error">{error.message}</Alert>}
            <TextAreaField
              label={t("directory.contact.message")}
              rows={7}
              required
              maxLength={MESSAGE_MAX}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              error={fieldError}
              hint={t("directory.contact.count", {
                count: message.length.toLocaleString(locale),
                max: MESSAGE_MAX.toLocaleString(locale),
              })}
            />
            <FormActions
              submitLabel={t("directory.contact.send")}
              busyLabel={t("directory.contact.sending")}
              busy={loading}
              onCancel={() => dialog.current?.close()}
            />
          </form>
        )}
      </dialog>
    </>
  );
}
