import { useCallback, useState, type ChangeEvent, type FormEvent } from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { handleError, type UiError } from "./handleError.ts";

/**
 * Form state that survives errors: values are only replaced by the user, never reset on failure,
 * so nothing typed is lost. `submit` runs the action and turns a failure into messages.
 */
export function useForm<T extends Record<string, string>>(initial: T) {
  const i18n = useI18n();
  const [values, setValues] = useState<T>(initial);
  const [error, setError] = useState<UiError | null>(null);
  const [submitting, setSubmitting] = useState(false);

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
      setSubmitting(true);
      setError(null);
      try {
        await action(values);
      } catch (caught) {
        setError(handleError(caught, i18n));
      } finally {
        setSubmitting(false);
      }
    },
    [values, i18n],
  );

  return { values, setValues, bind, submit, submitting, error, setError, fieldError: (name: string) => error?.fieldErrors[name] };
}
