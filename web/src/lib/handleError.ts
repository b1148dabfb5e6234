import { CombinedGraphQLErrors, ServerError } from "@apollo/client/errors";
import type { I18n } from "../i18n/I18nProvider.tsx";

/** What a form or page shows for a failed operation: one sentence, and messages per field. */
export interface UiError {
  code: string;
  message: string;
  fieldErrors: Record<string, string>;
  /** The server's code per field (wrong_code, room_full…), for screens with their own wording. */
  fieldCodes?: Record<string, string>;
}

/**
 * The one funnel every failed GraphQL call goes through (PRODUCT.md §8): server codes become
 * translated sentences; field codes become translated field messages; anything unknown becomes
 * "Something went wrong." with the request id. Raw server text and stack traces are never shown.
 */
export function handleError(error: unknown, i18n: Pick<I18n, "t" | "has">): UiError {
  const { t, has } = i18n;
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const extensions = (first?.extensions ?? {}) as {
      code?: string;
      fieldErrorCodes?: Record<string, string>;
      retryAfterSeconds?: number;
      requestId?: string;
      reason?: string;
    };
    const code = extensions.code ?? "UNKNOWN";
    const fieldErrors: Record<string, string> = {};
    for (const [field, fieldCode] of Object.entries(extensions.fieldErrorCodes ?? {})) {
      const key = `field.${fieldCode}`;
      fieldErrors[field] = has(key) ? t(key) : t("field.invalid");
    }
    return {
      code,
      message: messageFor(code, extensions, first?.message ?? "", i18n),
      fieldErrors,
      fieldCodes: extensions.fieldErrorCodes ?? {},
    };
  }
  if (ServerError.is(error) && error.statusCode >= 500) {
    return { code: "SERVICE_UNAVAILABLE", message: t("error.SERVICE_UNAVAILABLE"), fieldErrors: {} };
  }
  if (error instanceof TypeError || (typeof navigator !== "undefined" && !navigator.onLine)) {
    return { code: "NETWORK", message: t("error.NETWORK"), fieldErrors: {} };
  }
  return { code: "UNKNOWN", message: t("error.UNKNOWN"), fieldErrors: {} };
}

function messageFor(
  code: string,
  extensions: {
    retryAfterSeconds?: number;
    requestId?: string;
    reason?: string;
    fieldErrorCodes?: Record<string, string>;
  },
  serverMessage: string,
  { t, has }: Pick<I18n, "t" | "has">,
): string {
  // Specific cases the server marks, translated here rather than shown in English.
  if (
    code === "BAD_USER_INPUT" &&
    !Object.keys(extensions.fieldErrorCodes ?? {}).length &&
    /email or password/i.test(serverMessage)
  ) {
    return t("error.invalidCredentials");
  }
  if (code === "FORBIDDEN" && extensions.reason === "suspended") return t("error.suspended");
  if (code === "FORBIDDEN" && /sign-up is closed/i.test(serverMessage)) return t("error.signupClosed");
  if (code === "CONFLICT" && extensions.fieldErrorCodes?.email === "taken") return t("error.emailTaken");
  if (code === "RATE_LIMITED")
    return t("error.RATE_LIMITED", {
      minutes: Math.max(1, Math.ceil((extensions.retryAfterSeconds ?? 60) / 60)),
    });
  const conflictKey = `error.CONFLICT.${extensions.reason ?? ""}`;
  if (code === "CONFLICT" && extensions.reason && has(conflictKey)) return t(conflictKey);
  if (code === "CONFLICT" && serverMessage) return serverMessage;
  const key = `error.${code}`;
  if (has(key)) return t(key);
  const unknown = t("error.UNKNOWN");
  return extensions.requestId ? `${unknown} ${t("error.requestId", { id: extensions.requestId })}` : unknown;
}
