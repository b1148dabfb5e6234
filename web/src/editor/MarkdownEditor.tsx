// The Markdown editor (Milkdown Crepe). This folder is the only place that imports Milkdown, and
// this module is only ever loaded with React.lazy(() => import("../editor/MarkdownEditor.tsx")) so
// public pages never download it (`npm run size` fails the build otherwise).
import { useCallback, useEffect, useRef, useState } from "react";
import type { CrepeBuilder } from "@milkdown/crepe/builder";
import { createEditor, isEphemeral } from "./createEditor.ts";
import { editorMessages, fill } from "./messages.ts";

export interface MarkdownEditorApi {
  /** The document as Markdown now (what onChange last reported, or the loaded text before any edit). */
  getMarkdown(): string;
  /** Focus the editing area. */
  focus(): void;
}

export interface MarkdownEditorProps {
  /** Initial Markdown (the component is uncontrolled; remount with key={docId} to load another document). */
  initialMarkdown: string;
  /** Called (debounce not needed here; the caller debounces) with the current Markdown on every change. */
  onChange(markdown: string): void;
  /**
   * Upload an image into the media library; report progress 0–100; resolve with the STABLE URL to
   * store in the Markdown (e.g. "/files/media/<id>/<name>"). Reject to show an error: a `UiError`
   * from lib/handleError (an object with `code` and `message`) shows its message, anything else a
   * generic "could not be uploaded" sentence.
   */
  uploadImage(file: File, onProgress: (percent: number) => void): Promise<string>;
  /** Accessible name of the editing area, e.g. "Body". */
  label: string;
  readOnly?: boolean;
  /** Called once the editor is ready (after the initial Markdown is loaded). */
  onReady?(api: MarkdownEditorApi): void;
}

function uploadErrorMessage(error: unknown, fallback: string): string {
  // A UiError (lib/handleError) is already a translated sentence; raw errors are never shown.
  if (error && typeof error === "object" && "code" in error && "fieldErrors" in error && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message) return message;
  }
  return fallback;
}

export default function MarkdownEditor({
  initialMarkdown,
  onChange,
  uploadImage,
  label,
  readOnly = false,
  onReady,
}: MarkdownEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const crepeRef = useRef<CrepeBuilder | null>(null);
  // The editor is created once per mount; it reads the latest callbacks and props through refs.
  const latest = useRef({ onChange, uploadImage, onReady, readOnly, initialMarkdown, label });
  useEffect(() => {
    latest.current = { onChange, uploadImage, onReady, readOnly, initialMarkdown, label };
  });

  const [messages] = useState(editorMessages);
  /** Upload id → percent, for every upload in flight (shown as one bar). */
  const [uploads, setUploads] = useState<ReadonlyMap<number, number>>(() => new Map());
  const [error, setError] = useState<string | null>(null);
  const nextUploadId = useRef(0);

  const setUpload = useCallback((id: number, percent: number | null) => {
    setUploads((previous) => {
      const next = new Map(previous);
      if (percent === null) next.delete(id);
      else next.set(id, Math.max(0, Math.min(100, Math.round(percent))));
      return next;
    });
  }, []);

  const upload = useCallback(
    async (file: File): Promise<string> => {
      const id = ++nextUploadId.current;
      setError(null);
      setUpload(id, 0);
      try {
        const url = await latest.current.uploadImage(file, (percent) => setUpload(id, percent));
        if (typeof url !== "string" || !url.trim() || isEphemeral(url) || /^\s*data:/i.test(url)) {
          throw new Error("uploadImage must resolve with a stable URL");
        }
        return url;
      } catch (reason) {
        setError(uploadErrorMessage(reason, messages.uploadFailed));
        throw reason;
      } finally {
        setUpload(id, null);
      }
    },
    [messages, setUpload],
  );

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // Each editor gets its own root: under StrictMode the first one may still be tearing down
    // (destroy() is asynchronous) while the second is created.
    const root = document.createElement("div");
    root.className = "markdown-editor__root";
    host.appendChild(root);

    const { initialMarkdown: markdown, label: name } = latest.current;
    let crepe: CrepeBuilder | null = null;
    let disposed = false;
    /** The Markdown last reported (or loaded): onChange fires only when the text really changed. */
    let reported = markdown;
    const report = (next: string) => {
      if (next === reported) return;
      reported = next;
      latest.current.onChange(next);
    };
    // markdownUpdated is debounced (200 ms) and cancelled on destroy, so the last keystrokes are
    // also reported when the editor loses focus (before a Save button's click) and on unmount.
    const flush = () => {
      if (crepe && crepeRef.current === crepe) report(crepe.getMarkdown());
    };

    const start = async () => {
      const editor = await createEditor({ root, markdown, label: name, messages, upload });
      if (disposed) return;
      crepe = editor;
      editor.on((listener) => {
        listener.markdownUpdated((_ctx, next) => report(next));
        listener.blur(() => flush());
      });
      await editor.create();
      if (disposed) return;
      crepeRef.current = editor;
      editor.setReadonly(latest.current.readOnly);
      // What the loaded text reads back as (NORMALISATION.md); not a change by the user.
      reported = editor.getMarkdown();
      latest.current.onReady?.({
        getMarkdown: () => (crepeRef.current === editor ? editor.getMarkdown() : reported),
        focus: () => root.querySelector<HTMLElement>(".ProseMirror")?.focus(),
      });
    };
    start().catch((reason: unknown) => {
      if (!disposed) console.error("The editor could not start", reason);
    });

    // A tab closed (or put in the background on a phone) within the 200 ms debounce must not lose
    // the last keystrokes: report them while the page can still store them (the caller keeps a
    // local copy synchronously).
    const flushWhenHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    // Capture phase: before the page's own beforeunload check of unsaved changes, which then sees them.
    window.addEventListener("pagehide", flush, { capture: true });
    window.addEventListener("beforeunload", flush, { capture: true });
    document.addEventListener("visibilitychange", flushWhenHidden);

    return () => {
      window.removeEventListener("pagehide", flush, { capture: true });
      window.removeEventListener("beforeunload", flush, { capture: true });
      document.removeEventListener("visibilitychange", flushWhenHidden);
      flush();
      disposed = true;
      const editor = crepe;
      if (editor && crepeRef.current === editor) crepeRef.current = null;
      // destroy() waits for a creation in progress, so StrictMode's mount–unmount–mount leaves one editor.
      const destroyed = editor
        ? editor.destroy().then(
            () => undefined,
            () => undefined,
          )
        : Promise.resolve();
      void destroyed.finally(() => root.remove());
    };
  }, [messages, upload]);

  useEffect(() => {
    crepeRef.current?.setReadonly(readOnly);
  }, [readOnly]);

  const uploading = uploads.size > 0;
  const percent = uploading
    ? Math.round([...uploads.values()].reduce((sum, p) => sum + p, 0) / uploads.size)
    : 0;

  return (
    <div className="markdown-editor" data-readonly={readOnly || undefined} aria-busy={uploading || undefined}>
      {uploading && (
        <div className="markdown-editor__progress">
          <progress max={100} value={percent} aria-label={messages.uploading} aria-valuenow={percent} />
          <span aria-hidden="true">{fill(messages.uploadingPercent, { percent })}</span>
        </div>
      )}
      {error && (
        <div className="markdown-editor__error" role="alert">
          <span>{error}</span>
          <button type="button" className="markdown-editor__dismiss" onClick={() => setError(null)}>
            {messages.dismiss}
          </button>
        </div>
      )}
      <div ref={hostRef} className="markdown-editor__surface" />
    </div>
  );
}
