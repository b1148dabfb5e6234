import { Upload } from "tus-js-client";

/** What the gateway accepts (it checks the bytes again): MP3, M4A/AAC, OGG, WAV; at most 300 MB. */
export const AUDIO_MAX_BYTES = 300 * 1024 * 1024;
const AUDIO_EXTENSIONS = /\.(mp3|m4a|mp4|m4b|aac|ogg|oga|opus|wav|wave)$/i;
const AUDIO_TYPES = /^audio\/(mpeg|mp3|mp4|x-m4a|m4a|aac|x-aac|ogg|opus|wav|x-wav|wave|vnd\.wave)$/;

export type AudioProblem = "type" | "size" | null;

/** A quick answer before any byte is sent (the gateway decides from the bytes). */
export function audioProblem(file: File): AudioProblem {
  if (!AUDIO_EXTENSIONS.test(file.name) || (file.type && !AUDIO_TYPES.test(file.type))) return "type";
  if (file.size > AUDIO_MAX_BYTES) return "size";
  return null;
}

export interface AudioUploadHandlers {
  onProgress(percent: number, sent: number, total: number): void;
  onSuccess(uploadId: string): void;
  onError(error: Error): void;
}

/**
 * A resumable upload (tus) to the gateway's /uploads/audio: 8 MB chunks, retried with back-off when
 * the church's Wi-Fi drops, and resumed from the last byte the server has (also after a page reload:
 * tus-js-client remembers the upload's address by the file's fingerprint).
 */
export function startAudioUpload(file: File, handlers: AudioUploadHandlers): Upload {
  const upload = new Upload(file, {
    endpoint: "/uploads/audio",
    chunkSize: 8 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000, 60000, 60000],
    // tus-js-client's default gives up at once while the browser reports itself offline, which is
    // exactly when a church's Wi-Fi drops: keep retrying network errors, 5xx and lock conflicts.
    onShouldRetry: (error) => {
      const status = error.originalResponse?.getStatus() ?? 0;
      return status === 0 || status >= 500 || status === 409 || status === 423;
    },
    metadata: { filename: file.name, filetype: file.type },
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) =>
      handlers.onProgress(total ? Math.floor((sent / total) * 100) : 0, sent, total),
    onSuccess: () =>
      handlers.onSuccess(
        String(upload.url ?? "")
          .split("/")
          .pop() ?? "",
      ),
    onError: (error) => handlers.onError(error),
  });
  void upload
    .findPreviousUploads()
    .then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    })
    .catch(() => upload.start());
  return upload;
}
