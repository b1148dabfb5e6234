import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { handleError } from "../lib/handleError.ts";
import { LIMITS } from "@flock/shared/limits";
import { Alert, type Notice } from "./Alert.tsx";
import { SavedNotice } from "./SavedNotice.tsx";

/**
 * A photo with upload (progress, an instant local preview), replace and remove, for a member's own
 * pages and the staff pages alike. The parent does the sending and draws the photo; this checks the
 * file, keeps the states and words the outcome.
 */
export function PhotoField({
  src,
  renderPhoto,
  canEdit,
  hint,
  layout = "row",
  className,
  onUpload,
  onRemove,
  onNotice,
}: {
  src: string | null | undefined;
  /** The photo or its stand-in; given the local preview while an upload runs. */
  renderPhoto(src: string | null | undefined): ReactNode;
  canEdit: boolean;
  hint?: string;
  /** "row": photo beside the buttons (a settings card); "stacked": buttons under it (a page header). */
  layout?: "row" | "stacked";
  className?: string;
  onUpload(file: File, onProgress: (percent: number) => void): Promise<unknown>;
  onRemove(): Promise<unknown>;
  /** Where the outcome is told when the page has its own notice area; otherwise under the buttons. */
  onNotice?(notice: Notice | null): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [inlineNotice, setInlineNotice] = useState<Notice | null>(null);
  const [removing, setRemoving] = useState(false);
  const tell = onNotice ?? setInlineNotice;

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  async function upload(file: File) {
    tell(null);
    // Checked here so nobody waits for a large upload to be refused; the gateway checks again.
    if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type))
      return tell({ kind: "error", text: t("error.UNSUPPORTED_FILE_TYPE") });
    if (file.size > LIMITS.imageMaxBytes) return tell({ kind: "error", text: t("error.PAYLOAD_TOO_LARGE") });
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      await onUpload(file, setProgress);
      tell({ kind: "success", text: t("photo.saved") });
    } catch (caught) {
      tell({ kind: "error", text: handleError(caught, i18n).message });
    } finally {
      setProgress(null);
      setPreview(null);
      if (input.current) input.current.value = "";
    }
  }

  async function remove() {
    if (!window.confirm(t("photo.confirmRemove"))) return;
    tell(null);
    setRemoving(true);
    try {
      await onRemove();
      tell({ kind: "success", text: t("photo.removed") });
    } catch (caught) {
      tell({ kind: "error", text: handleError(caught, i18n).message });
    } finally {
      setRemoving(false);
    }
  }

  const busy = progress !== null || removing;
  return (
    <div className={`photo-field photo-field--${layout}${className ? ` ${className}` : ""}`}>
      <div className={`photo-field__preview${progress !== null ? " is-uploading" : ""}`}>
        {renderPhoto(preview ?? src)}
      </div>
      <div className="photo-field__body">
        {inlineNotice?.kind === "error" && <Alert kind="error">{inlineNotice.text}</Alert>}
        {progress !== null && (
          <div className="progress">
            <progress max={100} value={progress} aria-label={t("photo.uploading", { percent: progress })} />
            <span aria-live="polite">{t("photo.uploading", { percent: progress })}</span>
          </div>
        )}
        {canEdit ? (
          <>
            {hint && (
              <p className="muted small" id={hintId}>
                {hint}
              </p>
            )}
            <div className="actions photo-field__actions">
              <label className="button button--ghost button--small file-button">
                {src ? t("photo.replace") : t("photo.upload")}
                <input
                  ref={input}
                  type="file"
                  accept={LIMITS.imageMimeTypes.join(",")}
                  className="visually-hidden"
                  aria-describedby={hint ? hintId : undefined}
                  disabled={busy}
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    if (file) void upload(file);
                  }}
                />
              </label>
              {src && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={busy}
                  onClick={() => void remove()}
                >
                  {t("photo.remove")}
                </button>
              )}
            </div>
          </>
        ) : (
          !src && <p className="muted small">{t("photo.none")}</p>
        )}
        {!onNotice && <SavedNotice text={inlineNotice?.kind === "success" ? inlineNotice.text : null} />}
      </div>
    </div>
  );
}
