import { useEffect, useRef, useState } from "react";
import { useUpdateMedia } from "./AdminMediaPage.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { TextAreaField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { LIMITS } from "@flock/shared/limits";

export interface AltTextTarget {
  id: string;
  alt: string;
  filename: string;
  thumbnail: string;
}

/**
 * Asks for an image's text alternative (stored on the media item, so every page using the image gets
 * it; publishing refuses images without one). "Later" is allowed: the image is listed as needing it.
 */
export function AltTextDialog({
  target,
  onDone,
}: {
  target: AltTextTarget | null;
  onDone(savedAlt: string | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const dialog = useRef<HTMLDialogElement>(null);
  const [alt, setAlt] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [updateMedia, { loading }] = useUpdateMedia();

  useEffect(() => {
    if (!target) return;
    setAlt(target.alt);
    setError(null);
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [target]);

  function close(savedAlt: string | null) {
    dialog.current?.close();
    onDone(savedAlt);
  }

  return (
    <dialog
      ref={dialog}
      className="dialog alt-dialog"
      aria-labelledby="alt-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        close(null);
      }}
    >
      {target && (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            updateMedia({ variables: { id: target.id, input: { alt: alt.trim() } } })
              .then(() => close(alt.trim()))
              .catch((caught: unknown) => setError(handleError(caught, i18n)));
          }}
        >
          <h2 id="alt-dialog-title">{t("admin.content.alt.title")}</h2>
          <img src={target.thumbnail} alt="" className="alt-dialog__image" />
          {target.filename && <p className="muted small alt-dialog__file">{target.filename}</p>}
          {error && !error.fieldErrors.alt && <Alert kind="error">{error.message}</Alert>}
          <TextAreaField
            label={t("admin.content.alt.label")}
            hint={t("admin.content.alt.hint")}
            rows={3}
            maxLength={LIMITS.altMax}
            required
            value={alt}
            onChange={(e) => setAlt(e.target.value)}
            error={error?.fieldErrors.alt}
          />
          <div className="actions">
            <button type="submit" className="button" disabled={loading || !alt.trim()}>
              {loading ? t("common.saving") : t("admin.content.alt.save")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => close(null)}>
              {t("admin.content.alt.later")}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
