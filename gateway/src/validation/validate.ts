import { badUserInput, type FieldErrors } from "../errors.ts";
import { LIMITS } from "@flock/shared/limits";

/** Collects field errors; `done()` throws BAD_USER_INPUT when there are any. */
export class Validator {
  readonly errors: FieldErrors = {};

  add(field: string, code: string, message: string): this {
    this.errors[field] ??= { code, message };
    return this;
  }

  /** Trim and check a required or optional text field. Returns the trimmed value. */
  text(
    field: string,
    value: string | null | undefined,
    opts: { required?: boolean; max: number; min?: number },
  ): string {
    const trimmed = (value ?? "").trim();
    if (!trimmed) {
      if (opts.required) this.add(field, "required", "This field is required.");
      return "";
    }
    if (opts.min && trimmed.length < opts.min)
      this.add(field, "too_short", `Use at least ${opts.min} characters.`);
    if (trimmed.length > opts.max) this.add(field, "too_long", `Use at most ${opts.max} characters.`);
    return trimmed;
  }

  email(
    field: string,
    value: string | null | undefined,
    opts: { required?: boolean } = { required: true },
  ): string {
    const email = this.text(field, value, {
      required: opts.required ?? true,
      max: LIMITS.emailMax,
    }).toLowerCase();
    if (email && !isEmail(email)) this.add(field, "invalid_email", "Enter a valid email address.");
    return email;
  }

  done(): void {
    if (Object.keys(this.errors).length > 0) throw badUserInput(this.errors);
  }
}

/** A pragmatic address check (the mail server has the last word): one @, a dot in the domain, no spaces. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value) && value.length <= LIMITS.emailMax;
}

/** IANA zone names that this Node's Intl knows. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}
