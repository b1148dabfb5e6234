import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";

/**
 * Text over a field's limit is refused with a message, never cut: the browser's `maxlength` would
 * silently drop the end of a pasted text, so the limit is not given to the element. The field shows
 * how long the text is and is marked invalid (`data-too-long`); useForm refuses to submit it, and the
 * gateway refuses it too.
 */
function useLengthError(value: unknown, maxLength: number | undefined): string | undefined {
  const { t, locale } = useI18n();
  const length = typeof value === "string" ? value.length : 0;
  if (maxLength === undefined || length <= maxLength) return undefined;
  return t("field.tooLong", { count: length.toLocaleString(locale), max: maxLength.toLocaleString(locale) });
}

interface FieldShellProps {
  label: string;
  /** The label is read by screen readers but not shown (a field whose look says what it is, as a document's title). */
  hideLabel?: boolean | undefined;
  error?: string | undefined;
  hint?: ReactNode;
  optionalText?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, control, hint and error wired together for screen readers (aria-describedby/invalid). */
function FieldShell({ label, hideLabel, error, hint, optionalText, children }: FieldShellProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label htmlFor={id} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
        {optionalText && <span className="field__optional"> ({optionalText})</span>}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

type Common = {
  label: string;
  hideLabel?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  optionalText?: string;
};

export function TextField({
  label,
  error,
  hint,
  optionalText,
  maxLength,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const tooLong = useLengthError(input.value, maxLength);
  return (
    <FieldShell label={label} error={tooLong ?? error} hint={hint} optionalText={optionalText}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          data-too-long={tooLong ? "" : undefined}
          {...input}
        />
      )}
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  hideLabel,
  error,
  hint,
  optionalText,
  maxLength,
  ...input
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const tooLong = useLengthError(input.value, maxLength);
  return (
    <FieldShell
      label={label}
      hideLabel={hideLabel}
      error={tooLong ?? error}
      hint={hint}
      optionalText={optionalText}
    >
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          data-too-long={tooLong ? "" : undefined}
          {...input}
        />
      )}
    </FieldShell>
  );
}

export function SelectField({
  label,
  error,
  hint,
  optionalText,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldShell label={label} error={error} hint={hint} optionalText={optionalText}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...select}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}

export function CheckboxField({
  label,
  hint,
  ...input
}: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field field--checkbox">
      <input type="checkbox" id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}
