import { useState } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * "New post" / "New page" (/admin/news/new, /admin/pages/new) open an empty editor and store
 * nothing: the record is created by the first save, once something is typed (opening and leaving
 * leaves no empty draft behind). The address then becomes the record's own with `replace`, and the
 * same editor stays mounted under it, so the caret and the typing go on undisturbed.
 *
 * Returns whether this route shows that editor, its React key (a new one for each visit of /new),
 * and `created(id)` for the first save to call.
 */
export function useNewDocument(
  id: string,
  base: string,
): { isNew: boolean; key: string; created(id: string): void } {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<{ visit: string; id: string | null }>({ visit: location.key, id: null });
  // "New" opened again (from the list, or from the document just created): a fresh, empty editor.
  if (id === "new" && location.key !== state.visit) setState({ visit: location.key, id: null });
  return {
    isNew: id === "new" || (state.id !== null && id === state.id),
    key: state.visit,
    created(createdId) {
      setState((current) => ({ ...current, id: createdId }));
      void navigate(`${base}/${createdId}`, { replace: true });
    },
  };
}
