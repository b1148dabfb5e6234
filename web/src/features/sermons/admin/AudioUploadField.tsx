import { useEffect, useId, useRef, useState } from "react";
import type { Upload } from "tus-js-client";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { audioProblem, startAudioUpload } from "./audioUpload.ts";
import { formatBytes } from "../../../lib/media.ts";

interface AudioUploadFieldProps {
  label: string;
  /** Called with the finished upload's id; resolve when the server has attached it. */
  onUploaded(uploadId: string, file: File): Promise<void>;
  multiple?: boolean;
}

interface Job {
  key: string;
  file: File;
  percent: number;
  sent: number;
  state: "uploading" | "attaching" | "done" | "error" | "cancelled";
  error?: string;
  upload?: Upload;
}

/** Choose audio files; each uploads with a real progress bar, can be cancelled, and resumes after a drop. */
export function AudioUploadField({ label, onUploaded, multiple = false }: AudioUploadFieldProps) {
  const { t, locale } = useI18n();
  const id = useId();
  const [jobs, setJobs] = useState<Job[]>([]);
  const jobsRef = useRef(jobs);
  useEffect(() => {
    jobsRef.current = jobs;
  });
  // Leaving the page stops uploads in flight (they can be resumed by choosing the file again).
  useEffect(() => () => jobsRef.current.forEach((job) => job.upload?.abort()), []);

  const update = (key: string, change: Partial<Job>) =>
    setJobs((all) => all.map((job) => (job.key === key ? { ...job, ...change } : job)));

  function choose(files: FileList | null) {
    if (!files) return;
    const added: Job[] = [];
    for (const file of Array.from(files)) {
      const key = `${file.name}-${file.size}-${Date.now()}-${Math.random()}`;
      const problem = audioProblem(file);
      if (problem) {
        added.push({
          key,
          file,
          percent: 0,
          sent: 0,
          state: "error",
          error: problem === "size" ? t("admin.sermons.audio.tooLarge") : t("admin.sermons.audio.wrongType"),
        });
        continue;
      }
      const job: Job = { key, file, percent: 0, sent: 0, state: "uploading" };
      job.upload = startAudioUpload(file, {
        onProgress: (percent, sent) => update(key, { percent, sent }),
        onError: () => update(key, { state: "error", error: t("admin.sermons.audio.failed") }),
        onSuccess: (uploadId) => {
          update(key, { state: "attaching", percent: 100 });
          onUploaded(uploadId, file).then(
            () => update(key, { state: "done" }),
            (error: unknown) =>
              update(key, {
                state: "error",
                error:
                  error instanceof Error
                    ? error.message
                    : String((error as { message?: string })?.message ?? t("admin.sermons.audio.failed")),
              }),
          );
        },
      });
      added.push(job);
    }
    setJobs((all) => [
      ...all.filter((job) => job.state === "uploading" || job.state === "attaching"),
      ...added,
    ]);
  }

  function cancel(job: Job) {
    // Terminate: the server deletes what it staged.
    void job.upload?.abort(true);
    update(job.key, { state: "cancelled" });
  }

  return (
    <div className="field audio-upload">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept="audio/mpeg,audio/mp4,audio/x-m4a,audio/aac,audio/ogg,audio/wav,.mp3,.m4a,.aac,.ogg,.wav"
        multiple={multiple}
        onChange={(e) => {
          choose(e.target.files);
          e.target.value = "";
        }}
      />
      <p className="field__hint">{t("admin.sermons.audio.hint")}</p>
      {jobs.length > 0 && (
        <ul className="audio-upload__jobs">
          {jobs.map((job) => (
            <li key={job.key} className="audio-upload__job">
              <span className="audio-upload__name">{job.file.name}</span>
              {job.state === "uploading" && (
                <>
                  <progress
                    max={100}
                    value={job.percent}
                    aria-label={t("admin.sermons.audio.progressLabel", { name: job.file.name })}
                  >
                    {job.percent}%
                  </progress>
                  <span className="small" aria-live="polite">
                    {t("admin.sermons.audio.progress", {
                      percent: job.percent,
                      sent: formatBytes(job.sent, locale),
                      total: formatBytes(job.file.size, locale),
                    })}
                  </span>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => cancel(job)}
                  >
                    {t("admin.sermons.audio.cancel")}
                  </button>
                </>
              )}
              {job.state === "attaching" && (
                <span className="small" role="status">
                  {t("admin.sermons.audio.checking")}
                </span>
              )}
              {job.state === "done" && (
                <span className="small ok" role="status">
                  {t("admin.sermons.audio.done")}
                </span>
              )}
              {job.state === "cancelled" && (
                <span className="small" role="status">
                  {t("admin.sermons.audio.cancelled")}
                </span>
              )}
              {job.state === "error" && (
                <span className="field__error" role="alert">
                  {job.error}
                </span>
              )}
              {job.state === "error" && job.upload && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => {
                    // Continues from the last byte the server has (tus asks for the offset first).
                    update(job.key, { state: "uploading", error: undefined });
                    job.upload!.start();
                  }}
                >
                  {t("admin.sermons.audio.resume")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
