import type { UiError } from "../../../lib/handleError.ts";
import { Alert } from "../../../components/Alert.tsx";

/**
 * The sentence for a failed submit, at the top of a form. Field messages appear next to their
 * fields; any the form has no place for (a server rule on another field) are listed here instead,
 * so no problem is silently dropped.
 */
export function FormErrorSummary({ error, fields }: { error: UiError | null; fields: string[] }) {
  if (!error) return null;
  const elsewhere = Object.entries(error.fieldErrors).filter(([field]) => !fields.includes(field));
  return (
    <Alert kind="error">
      {error.message}
      {elsewhere.length > 0 && (
        <ul className="form-errors">
          {elsewhere.map(([field, message]) => (
            <li key={field}>{message}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
