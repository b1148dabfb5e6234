import { useI18n } from "../i18n/I18nProvider.tsx";

/**
 * The closing row of a dialog or an inline editor: its action, which reads "Saving…" (or
 * `busyLabel`) and waits while the request runs, then Cancel.
 */
export function FormActions({
  submitLabel,
  busy,
  busyLabel,
  disabled = false,
  onCancel,
  onSubmit,
  danger = false,
  small = false,
}: {
  submitLabel: string;
  /** The request is running. */
  busy: boolean;
  busyLabel?: string;
  /** Not ready to send yet (nothing chosen, the confirmation not typed…). */
  disabled?: boolean;
  onCancel(): void;
  /** For an action outside a <form>; without it the button submits its form. */
  onSubmit?(): void;
  danger?: boolean;
  small?: boolean;
}) {
  const { t } = useI18n();
  const size = small ? " button--small" : "";
  return (
    <div className="actions">
      <button
        type={onSubmit ? "button" : "submit"}
        className={`button${danger ? " button--danger-solid" : ""}${size}`}
        disabled={busy || disabled}
        onClick={onSubmit}
      >
        {busy ? (busyLabel ?? t("common.saving")) : submitLabel}
      </button>
      <button type="button" className={`button button--ghost${size}`} onClick={onCancel}>
        {t("common.cancel")}
      </button>
    </div>
  );
}
