import { useEffect, useState, useSyncExternalStore } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { handleError } from "../../lib/handleError.ts";
import { Autosave, type SaveStatus } from "./autosave.ts";

/**
 * One Autosave per open document (see autosave.ts), wired to the browser: online/offline events,
 * and a warning before leaving the page while something is not saved yet.
 */
export function useContentAutosave<T extends { title: string; body: string }>(options: {
  storageKey: string;
  revision: number;
  saved: T;
  save(input: T, expectedRevision: number): Promise<number>;
}): { autosave: Autosave<T>; status: SaveStatus } {
  const i18n = useI18n();
  const latest = useLatest({ save: options.save, i18n });
  // Created once for the document (the component is keyed by the document id).
  const [autosave] = useState(
    () =>
      new Autosave<T>({
        storageKey: options.storageKey,
        revision: options.revision,
        saved: options.saved,
        // Read through the latest props: the mutation function and i18n may change identity.
        save: (input, expected) => latest.save(input, expected),
        describe: (error) => handleError(error, latest.i18n),
        isOnline: () => navigator.onLine,
      }),
  );
  const status = useSyncExternalStore(
    (listener) => autosave.subscribe(listener),
    () => autosave.current,
  );

  useEffect(() => {
    const online = () => autosave.online();
    const offline = () => autosave.offline();
    // Nothing typed is lost: the browser asks before closing or reloading with unsaved changes
    // (the text is in localStorage too, and offered back on the next visit).
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (autosave.dirty) event.preventDefault();
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      window.removeEventListener("beforeunload", beforeUnload);
    };
  }, [autosave]);

  // Leaving the editor inside the app (another admin page): save what is pending right away. (Not
  // disposed: a save that fails keeps retrying until it lands; the local copy is there meanwhile.)
  useEffect(() => () => void autosave.flush(), [autosave]);

  return { autosave, status };
}

/** A mutable holder of the latest values, readable from callbacks created once. */
function useLatest<V extends object>(value: V): V {
  const [holder] = useState(() => ({ ...value }));
  useEffect(() => {
    Object.assign(holder, value);
  });
  return holder;
}
