import { useEffect, useId, useRef, type ReactNode } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";

/**
 * A panel that slides over a staff list from the side (full screen on a phone): a row's details, or
 * a "New …" form, without leaving the list. A modal <dialog>: the page behind is inert, Escape and
 * the backdrop close it, and the browser gives focus back to what opened it.
 */
export function Drawer({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="drawer"
      aria-labelledby={titleId}
      onClose={onClose}
      // A click on the backdrop lands on the <dialog> itself (its content fills the panel).
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
    >
      {open && (
        <div className="drawer__panel">
          <div className="drawer__head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="button button--ghost button--small" onClick={onClose}>
              {t("common.close")}
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
