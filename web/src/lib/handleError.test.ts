import { describe, expect, it } from "vitest";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import { handleError } from "./handleError.ts";
import { shell } from "../i18n/en/shell.ts";
import type { MessageKey } from "../i18n/catalogs.ts";
import { formatMessage } from "@flock/shared/i18n/format";

// The English messages as the app formats them (ICU MessageFormat); errors and form messages are the
// shell's, which every page has.
const en: Record<string, string> = shell;
const i18n = {
  t: (key: MessageKey, vars?: Record<string, string | number>) => formatMessage(en[key]!, "en", vars),
  has: (key: string): key is MessageKey => key in en,
};
const gqlError = (message: string, extensions: Record<string, unknown>) =>
  new CombinedGraphQLErrors({ errors: [{ message, extensions }] });

describe("handleError", () => {
  it("translates field error codes and keeps the form-level sentence", () => {
    const result = handleError(
      gqlError("Please correct", {
        code: "BAD_USER_INPUT",
        fieldErrorCodes: { email: "invalid_email", x: "no_such_code" },
      }),
      i18n,
    );
    expect(result).toEqual({
      code: "BAD_USER_INPUT",
      message: en["error.BAD_USER_INPUT"],
      fieldErrors: { email: en["field.invalid_email"], x: en["field.invalid"] },
      fieldCodes: { email: "invalid_email", x: "no_such_code" },
    });
  });

  it("says how long to wait when rate-limited", () => {
    expect(
      handleError(gqlError("Too many", { code: "RATE_LIMITED", retryAfterSeconds: 600 }), i18n).message,
    ).toBe("Too many attempts. Try again in 10 minutes.");
    expect(
      handleError(gqlError("Too many", { code: "RATE_LIMITED", retryAfterSeconds: 30 }), i18n).message,
    ).toBe("Too many attempts. Try again in 1 minute.");
  });

  it("never shows raw server text for unknown errors, but gives the request id", () => {
    const result = handleError(
      gqlError("TypeError: x is undefined at foo.ts:12", {
        code: "INTERNAL_SERVER_ERROR",
        requestId: "abc-123",
      }),
      i18n,
    );
    expect(result.message).toBe("Something went wrong. Reference: abc-123");
    expect(result.message).not.toMatch(/foo\.ts/);
  });

  it("words a conflict in the reader's language when its reason is known, else keeps the server's sentence", () => {
    const es = {
      ...i18n,
      t: (key: MessageKey) =>
        key === "error.CONFLICT.signup_handled" ? "Este registro ya fue atendido." : en[key]!,
    };
    expect(
      handleError(
        gqlError("This sign-up has already been handled.", { code: "CONFLICT", reason: "signup_handled" }),
        es,
      ).message,
    ).toBe("Este registro ya fue atendido.");
    expect(
      handleError(
        gqlError("This file is used in: About.", { code: "CONFLICT", reason: "no_such_reason" }),
        i18n,
      ).message,
    ).toBe("This file is used in: About.");
  });

  it("treats a failed fetch as offline", () => {
    expect(handleError(new TypeError("Failed to fetch"), i18n).code).toBe("NETWORK");
  });
});
