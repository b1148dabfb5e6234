import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { handleError, type UiError } from "./handleError.ts";

/**
 * After a failed submit, focus goes to the first field marked invalid, else to the form's error
 * message (role=alert), so keyboard and screen-reader users land on what to fix instead of <body>.
 */
export function focusFirstError(form: HTMLFormElement | null): void {
  if (!form?.isConnected) return;
  const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  const alert =
    form.querySelector<HTMLElement>('[role="alert"]') ??
    form.parentElement?.querySelector<HTMLElement>('[role="alert"]');
  const target = field ?? alert;
  if (!target) return;
  if (target === alert && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus();
}

/**
 * For forms that keep their own error state: returns a ref for the <form>, and focuses its first
 * error (see focusFirstError) each time `error` becomes set.
 */
export function useFocusFirstError(error: unknown) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (error) focusFirstError(form.current);
  }, [error]);
  return form;
}

/** True (and the first such field focused) when a field holds more text than its limit allows. */
export function refuseTooLong(form: HTMLFormElement): boolean {
  const tooLong = form.querySelector<HTMLElement>("[data-too-long]");
  tooLong?.focus();
  return !!tooLong;
}

/**
 * Form state that survives errors: values are only replaced by the user, never reset on failure,
 * so nothing typed is lost. `submit` runs the action and turns a failure into messages, then moves
 * focus to the first error. Text over a field's limit is refused before anything is sent.
 */
export function useForm<T extends Record<string, string>>(initial: T) {
  const i18n = useI18n();
  const [values, setValues] = useState<T>(initial);
  const [error, setError] = useState<UiError | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const failedForm = useRef<HTMLFormElement | null>(null);

  useEffect(() => {
    if (!error || !failedForm.current) return;
    focusFirstError(failedForm.current);
    failedForm.current = null;
  }, [error]);

  const bind = useCallback(
    (name: keyof T & string) => ({
      name,
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
        setValues((current) => ({ ...current, [name]: event.target.value })),
    }),
    [values],
  );

  const submit = useCallback(
    (action: (values: T) => Promise<unknown>) => async (event: FormEvent) => {
      event.preventDefault();
      const form = event.currentTarget instanceof HTMLFormElement ? event.currentTarget : null;
      if (form && refuseTooLong(form)) return;
      setSubmitting(true);
      setError(null);
      try {
        await action(values);
      } catch (caught) {
        failedForm.current = form;
        setError(handleError(caught, i18n));
      } finally {
        setSubmitting(false);
      }
    },
    [values, i18n],
  );

  return {
    values,
    setValues,
    bind,
    submit,
    submitting,
    error,
    setError,
    fieldError: (name: string) => error?.fieldErrors[name],
  };
}
