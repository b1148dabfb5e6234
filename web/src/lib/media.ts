import { UploadMediaDocument, type UploadMediaMutation } from "./media.generated.ts";
import type { I18n } from "../i18n/I18nProvider.tsx";
import { handleError, type UiError } from "./handleError.ts";
import { uploadWithProgress } from "./upload.ts";

export type UploadedMedia = UploadMediaMutation["uploadMedia"];

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
export const DOCUMENT_TYPES = ["application/pdf"];
const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

/**
 * Upload one file into the media library with progress. Checked here first for a quick answer (the
 * gateway checks again); failures reject with a UiError (a translated sentence).
 */
export async function uploadMedia(
  file: File,
  onProgress: (percent: number) => void,
  i18n: Pick<I18n, "t" | "has">,
  allowDocuments = false,
): Promise<UploadedMedia> {
  const { t } = i18n;
  const isImage = IMAGE_TYPES.includes(file.type);
  const isDocument = allowDocuments && DOCUMENT_TYPES.includes(file.type);
  if (!isImage && !isDocument)
    throw uiError(
      "UNSUPPORTED_FILE_TYPE",
      allowDocuments ? t("admin.content.media.unsupported") : t("error.UNSUPPORTED_FILE_TYPE"),
    );
  if (file.size > (isImage ? IMAGE_MAX_BYTES : DOCUMENT_MAX_BYTES)) {
    throw uiError(
      "PAYLOAD_TOO_LARGE",
      isImage ? t("error.PAYLOAD_TOO_LARGE") : t("admin.content.media.documentTooLarge"),
    );
  }
  try {
    const data = await uploadWithProgress<UploadMediaMutation>(
      UploadMediaDocument,
      {},
      "file",
      file,
      onProgress,
    );
    return data.uploadMedia;
  } catch (caught) {
    throw handleError(caught, i18n);
  }
}

const uiError = (code: string, message: string): UiError => ({ code, message, fieldErrors: {} });

/** Media ids of the library images a Markdown text uses ("/files/media/<id>/<name>"), in order. */
export function mediaIdsIn(markdown: string): string[] {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(/\/files\/media\/([a-z0-9]{15})\//gi)) ids.add(match[1]!);
  return [...ids];
}

export function formatBytes(bytes: number, locale: string): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit ? 1 : 0 }).format(value)} ${units[unit]}`;
}
