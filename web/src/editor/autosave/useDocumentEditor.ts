import { useCallback, useEffect, useRef, useState } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import {
  readKeptVersion,
  readLocalCopy,
  removeLocalCopy,
  type KeptVersion,
  type LocalCopy,
} from "./autosave.ts";
import { useContentAutosave } from "./useContentAutosave.ts";

export interface BaseForm {
  title: string;
  slug: string;
  /** The slug follows the title (the editor has not typed one, and the item was never public). */
  slugAuto: boolean;
  body: string;
}

/** A local copy worth offering back: there, and different from what the server has. */
function copyToOffer<F>(storageKey: string, serverForm: F): LocalCopy<F> | null {
  const copy = readLocalCopy<F>(storageKey);
  if (!copy) return null;
  if (JSON.stringify(copy.input) === JSON.stringify(serverForm)) {
    removeLocalCopy(storageKey);
    return null;
  }
  return copy;
}

/**
 * The state of an open page or post: the form (autosaved), the offer to restore changes kept on this
 * device, conflict handling, and workflow actions that save first.
 */
export function useDocumentEditor<F extends BaseForm>(options: {
  storageKey: string;
  revision: number;
  serverForm: F;
  save(form: F, expectedRevision: number): Promise<number>;
  /** Read the document again from the server (after "keep theirs"). */
  reload(): Promise<{ form: F; revision: number }>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { storageKey } = options;
  const [initial] = useState(options.serverForm);
  const [form, setForm] = useState<F>(initial);
  const [offer, setOffer] = useState(() => copyToOffer(storageKey, initial));
  const [editor, setEditor] = useState({ generation: 0, markdown: initial.body });
  const [kept, setKept] = useState<KeptVersion | null>(() => readKeptVersion(storageKey));
  const [conflictBusy, setConflictBusy] = useState(false);
  const [actionError, setActionError] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { autosave, status } = useContentAutosave<F>({
    storageKey,
    revision: options.revision,
    saved: initial,
    save: options.save,
  });
  // A new document gets its id (and key) from its first save: the local copy follows it, and the
  // editor keeps its identity (it is not remounted under the typing).
  const [editorId] = useState(storageKey);
  useEffect(() => autosave.moveTo(storageKey), [autosave, storageKey]);

  /** The form as last changed, ahead of React's render, and the last one autosave was given. */
  const current = useRef(initial);
  const given = useRef<F | null>(null);
  useEffect(() => {
    if (given.current === form) return;
    given.current = form;
    autosave.update(form);
  }, [autosave, form]);

  const set = useCallback(
    (patch: Partial<F>) => {
      setNotice(null);
      const next = { ...current.current, ...patch };
      current.current = next;
      // Kept on this device now, not after React renders: the editor reports its last keystrokes
      // (or an image just inserted) as the tab closes, and no render happens after that.
      given.current = next;
      autosave.update(next);
      setForm(next);
    },
    [autosave],
  );

  function load(next: F) {
    current.current = next;
    setForm(next);
    setEditor((e) => ({ generation: e.generation + 1, markdown: next.body }));
  }

  function restore() {
    if (!offer) return;
    autosave.restore(offer);
    load(offer.input);
    setOffer(null);
  }

  function discard() {
    removeLocalCopy(storageKey);
    setOffer(null);
  }

  function keepMine() {
    autosave.keepMine();
    setKept(readKeptVersion(storageKey));
  }

  async function keepTheirs() {
    setConflictBusy(true);
    autosave.keepTheirs();
    setKept(readKeptVersion(storageKey));
    try {
      const fresh = await options.reload();
      autosave.reset(fresh.form, fresh.revision);
      load(fresh.form);
    } catch (error) {
      setActionError(handleError(error, i18n));
    } finally {
      setConflictBusy(false);
    }
  }

  /**
   * Run a workflow action (publish, unpublish…) on what the editor sees: pending changes are saved
   * first; the action's new revision is what the next autosave sends.
   */
  async function runAction(
    action: () => Promise<{ revision: number } | null>,
    done: string,
  ): Promise<boolean> {
    setActionError(null);
    setNotice(null);
    setBusy(true);
    try {
      if (!(await autosave.flush())) {
        const current = autosave.current;
        const message =
          current.kind === "conflict"
            ? t("admin.content.action.resolveConflict")
            : current.kind === "offline" || current.kind === "retrying"
              ? t("admin.content.action.offline")
              : current.kind === "invalid" || current.kind === "failed"
                ? t("admin.content.action.fixFirst")
                : t("admin.content.action.notSaved");
        setActionError({ code: "NOT_SAVED", message, fieldErrors: {} });
        return false;
      }
      const result = await action();
      if (result) autosave.setRevision(result.revision);
      setNotice(done);
      return true;
    } catch (error) {
      setActionError(handleError(error, i18n));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const fieldErrors: Record<string, string> = {
    ...(status.kind === "invalid" ? status.error.fieldErrors : {}),
    ...(actionError?.fieldErrors ?? {}),
  };

  /** Show a text the server now has (discarded changes, a restored version) as the saved state. */
  function replace(next: F, revision: number) {
    autosave.reset(next, revision);
    load(next);
  }

  return {
    form,
    set,
    replace,
    status,
    autosave,
    offer,
    restore,
    discard,
    editorKey: `${editorId}:${editor.generation}`,
    editorMarkdown: editor.markdown,
    kept,
    forgetKept: () => setKept(null),
    keepMine,
    keepTheirs,
    conflictBusy,
    runAction,
    busy,
    actionError,
    notice,
    fieldErrors,
  };
}
