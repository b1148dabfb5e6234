import type { I18n } from "../../../i18n/I18nProvider.tsx";
import type { UiError } from "../../../lib/handleError.ts";

/**
 * A failed giving write's messages per field: the giving hook's own codes (a closed batch, funds that
 * do not add up…) in the giving screens' words, any other code as handleError words it.
 */
export function givingFieldErrors(
  problem: UiError | null,
  { t, has }: Pick<I18n, "t" | "has">,
): Record<string, string> {
  const messages = { ...problem?.fieldErrors };
  for (const [field, code] of Object.entries(problem?.fieldCodes ?? {})) {
    const key = `admin.giving.error.${code}`;
    if (has(key)) messages[field] = t(key);
  }
  return messages;
}
