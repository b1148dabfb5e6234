import { LIMITS } from "@flock/shared/limits";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import type { FieldError } from "../errors.ts";

/** PRODUCT.md §6: ≥ 10 chars, ≤ 71 bytes, not a common password. Returns the problem, or null. */
export function checkPassword(password: string, context: { email?: string } = {}): FieldError | null {
  if ([...password].length < LIMITS.passwordMinChars) {
    return { code: "password_too_short", message: `Use at least ${LIMITS.passwordMinChars} characters.` };
  }
  if (Buffer.byteLength(password, "utf8") > LIMITS.passwordMaxBytes) {
    return { code: "password_too_long", message: `Use at most ${LIMITS.passwordMaxBytes} bytes.` };
  }
  const lower = password.toLowerCase();
  const localPart = context.email?.split("@")[0]?.toLowerCase();
  if (
    COMMON_PASSWORDS.has(lower) ||
    /^(.)\1+$/u.test(password) || // `u`: an emoji is one character, not two halves
    /^\d+$/.test(password) ||
    (localPart && localPart.length >= 4 && lower.includes(localPart))
  ) {
    return { code: "password_common", message: "This password is too easy to guess. Choose another." };
  }
  return null;
}
