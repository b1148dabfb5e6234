// Test page for the editor (web/editor-harness.html → e2e/editor-roundtrip.e2e.test.ts). It mounts
// MarkdownEditor exactly as a route does (lazily, under StrictMode) and exposes `window.flockEditor`
// so the test can load Markdown, read it back and drive a fake image upload step by step.
import { lazy, StrictMode, Suspense, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import type { MarkdownEditorApi } from "./MarkdownEditor.tsx";
import { HARNESS_UPLOAD_URL, type EditorHarness, type PendingUpload } from "./harness-api.ts";
import "../styles/global.css";

const MarkdownEditor = lazy(() => import("./MarkdownEditor.tsx"));

interface Doc {
  key: number;
  markdown: string;
  readOnly: boolean;
  onReady(api: MarkdownEditorApi): void;
}

let api: MarkdownEditorApi | null = null;
let nextKey = 0;
let current: Doc | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function show(doc: Doc) {
  current = doc;
  for (const listener of listeners) listener();
}

const harness: EditorHarness = {
  changes: [],
  uploads: [],
  uploaded: [],
  load(markdown, options = {}) {
    api = null;
    harness.changes = [];
    return new Promise((resolve) => {
      show({
        key: ++nextKey,
        markdown,
        readOnly: options.readOnly ?? false,
        onReady: (ready) => {
          api = ready;
          resolve();
        },
      });
    });
  },
  getMarkdown() {
    if (!api) throw new Error("The editor is not ready");
    return api.getMarkdown();
  },
};
window.flockEditor = harness;

function uploadImage(file: File, onProgress: (percent: number) => void): Promise<string> {
  harness.uploaded.push(file.name);
  return new Promise((resolve, reject) => {
    const steps = [30, 60, 100];
    const upload: PendingUpload = {
      name: file.name,
      type: file.type,
      step() {
        const percent = steps.shift();
        if (percent !== undefined) return onProgress(percent);
        harness.uploads = harness.uploads.filter((u) => u !== upload);
        resolve(HARNESS_UPLOAD_URL);
      },
      fail(uiMessage) {
        harness.uploads = harness.uploads.filter((u) => u !== upload);
        reject(
          uiMessage === undefined
            ? new Error("Upload refused by the fake server")
            : { code: "PAYLOAD_TOO_LARGE", message: uiMessage, fieldErrors: {} },
        );
      },
    };
    harness.uploads.push(upload);
  });
}

function Harness() {
  const doc = useSyncExternalStore(subscribe, () => current);
  return (
    <main className="container page">
      <h1>Editor harness</h1>
      <Suspense fallback={<p>Loading…</p>}>
        {doc && (
          <MarkdownEditor
            key={doc.key}
            label="Body"
            initialMarkdown={doc.markdown}
            readOnly={doc.readOnly}
            onChange={(markdown) => harness.changes.push(markdown)}
            uploadImage={uploadImage}
            onReady={doc.onReady}
          />
        )}
      </Suspense>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
