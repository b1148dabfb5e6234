// The API the editor test page (harness.tsx) exposes as window.flockEditor, shared with
// e2e/editor-roundtrip.e2e.test.ts (a plain module: the test's tsconfig has no JSX or CSS).

/** What the fake uploadImage resolves with. */
export const HARNESS_UPLOAD_URL = "/files/media/abc123/photo.png";

/**
 * A fake upload the test advances: step() reports 30, 60, 100 %, then resolves; fail() rejects with
 * an Error, or with a UiError (as lib/handleError returns) when given its message.
 */
export interface PendingUpload {
  name: string;
  type: string;
  step(): void;
  fail(uiMessage?: string): void;
}

export interface EditorHarness {
  /** Mount a fresh editor with `markdown`; resolves when it is ready. */
  load(markdown: string, options?: { readOnly?: boolean }): Promise<void>;
  /** The editor's Markdown now. */
  getMarkdown(): string;
  /** Every value onChange reported since the last load. */
  changes: string[];
  /** Uploads started and not yet finished, oldest first. */
  uploads: PendingUpload[];
  /** Every file name uploadImage was called with, since the page loaded. */
  uploaded: string[];
}

declare global {
  interface Window {
    flockEditor: EditorHarness;
  }
}
