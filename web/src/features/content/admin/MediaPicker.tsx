import { useRef, useState } from "react";
import { useMediaPicker } from "./MediaPicker.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { IMAGE_TYPES, uploadMedia, type UploadedMedia } from "../../../lib/media.ts";
import { appendEdges } from "../../../lib/appendEdges.ts";

export interface PickedImage {
  id: string;
  url: string;
  alt: string;
  filename: string;
  thumbnail: string;
}

/** Choose an image from the media library, or upload a new one (used for a post's cover). */
export function MediaPicker({
  label,
  onPick,
  onUploaded,
}: {
  label: string;
  onPick(image: PickedImage): void;
  onUploaded(media: UploadedMedia): void;
}) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        className="dialog picker-dialog"
        aria-labelledby="picker-title"
        onClose={() => setOpen(false)}
      >
        <div className="preview-dialog__bar">
          <h2 id="picker-title">{t("admin.content.picker.title")}</h2>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => dialog.current?.close()}
          >
            {t("common.close")}
          </button>
        </div>
        {open && (
          <PickerBody
            onPick={(image) => {
              dialog.current?.close();
              onPick(image);
            }}
            onUploaded={(media) => {
              dialog.current?.close();
              onUploaded(media);
            }}
          />
        )}
      </dialog>
    </>
  );
}

function PickerBody({
  onPick,
  onUploaded,
}: {
  onPick(image: PickedImage): void;
  onUploaded(media: UploadedMedia): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const { data, loading, error, fetchMore } = useMediaPicker({
    variables: { search: query || null },
    fetchPolicy: "cache-and-network",
  });
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const items = data?.mediaLibrary.edges.map((e) => e.node) ?? [];

  async function upload(file: File) {
    setUploadError(null);
    setProgress(0);
    try {
      onUploaded(await uploadMedia(file, setProgress, i18n));
    } catch (caught) {
      setUploadError((caught as { message?: string }).message ?? t("error.UNKNOWN"));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="picker">
      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">{t("admin.content.media.search")}</span>
          <input
            type="search"
            placeholder={t("admin.content.media.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label className="button button--ghost button--small file-button">
          {t("admin.content.picker.upload")}
          <input
            type="file"
            accept={IMAGE_TYPES.join(",")}
            className="visually-hidden"
            disabled={progress !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
        </label>
      </div>
      {progress !== null && (
        <div className="progress">
          <progress
            max={100}
            value={progress}
            aria-label={t("admin.content.uploading", { percent: progress })}
          />
          <span aria-live="polite">{t("admin.content.uploading", { percent: progress })}</span>
        </div>
      )}
      {uploadError && <Alert kind="error">{uploadError}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : items.length === 0 ? (
        <p className="empty">{t("admin.content.picker.empty")}</p>
      ) : (
        <ul className="picker__grid">
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="picker__item"
                onClick={() => onPick(item)}
                aria-label={t("admin.content.picker.choose", { name: item.alt || item.filename })}
              >
                <img src={item.thumbnail} alt="" loading="lazy" />
                <span className="picker__name">{item.filename}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {data?.mediaLibrary.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.mediaLibrary.pageInfo.endCursor },
              updateQuery: appendEdges("mediaLibrary"),
            })
          }
        >
          {t("admin.content.showMore")}
        </button>
      )}
    </div>
  );
}
