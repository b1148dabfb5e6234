import { useEffect, useId, useRef, useState } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { handleError } from "../../lib/handleError.ts";
import { Avatar } from "../directory/Avatar.tsx";
import { SavedNotice } from "./account.tsx";

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const MAX_BYTES = 10 * 1024 * 1024; // gateway LIMITS.imageMaxBytes

/**
 * A photo with upload (progress, an instant local preview), replace and remove. The parent does the
 * sending; this handles the file checks, the states and the messages.
 */
export function PhotoUpload({
  name,
  src,
  shape = "round",
  hint,
  canEdit,
  onUpload,
  onRemove,
}: {
  name: string;
  src: string | null | undefined;
  shape?: "round" | "wide";
  hint: string;
  canEdit: boolean;
  onUpload: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);

  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  async function upload(file: File) {
    setError(null);
    setNotice(null);
    // Checked here for a quick answer; the gateway checks again.
    if (!IMAGE_TYPES.includes(file.type)) return setError(t("error.UNSUPPORTED_FILE_TYPE"));
    if (file.size > MAX_BYTES) return setError(t("error.PAYLOAD_TOO_LARGE"));
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      await onUpload(file, setProgress);
      setNotice(t("me.photo.saved"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    } finally {
      setProgress(null);
      setPreview(null);
      if (input.current) input.current.value = "";
    }
  }

  async function remove() {
    if (!window.confirm(t("me.photo.confirmRemove"))) return;
    setError(null);
    setNotice(null);
    setRemoving(true);
    try {
      await onRemove();
      setNotice(t("me.photo.removed"));
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    } finally {
      setRemoving(false);
    }
  }

  const busy = progress !== null || removing;
  return (
    <div className="photo-upload">
      <div className={`photo-upload__preview${progress !== null ? " is-uploading" : ""}`}>
        <Avatar name={name} src={preview ?? src} size="xl" shape={shape} />
      </div>
      <div className="photo-upload__body">
        {error && <Alert kind="error">{error}</Alert>}
        {progress !== null && (
          <div className="progress">
            <progress max={100} value={progress} aria-label={t("me.photo.uploading", { percent: progress })} />
            <span aria-live="polite">{t("me.photo.uploading", { percent: progress })}</span>
          </div>
        )}
        {canEdit ? (
          <>
            <p className="muted small" id={hintId}>
              {hint}
            </p>
            <div className="actions">
              <label className="button button--ghost button--small file-button">
                {src ? t("me.photo.replace") : t("me.photo.upload")}
                <input
                  ref={input}
                  type="file"
                  accept={IMAGE_TYPES.join(",")}
                  className="visually-hidden"
                  aria-describedby={hintId}
                  disabled={busy}
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    if (file) void upload(file);
                  }}
                />
              </label>
              {src && (
                <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => void remove()}>
                  {t("me.photo.remove")}
                </button>
              )}
            </div>
          </>
        ) : (
          !src && <p className="muted small">{t("me.photo.none")}</p>
        )}
        <SavedNotice text={notice} />
      </div>
    </div>
  );
}
