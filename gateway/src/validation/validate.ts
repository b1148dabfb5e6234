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

  /** A calendar day "YYYY-MM-DD" (no zone applies): the day, or "" with a field error (or when empty and optional). */
  day(field: string, value: string | null | undefined, opts: { required?: boolean } = {}): string {
    const text = (value ?? "").trim();
    if (!text) {
      if (opts.required) this.add(field, "required", "Choose a date.");
      return "";
    }
    const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
      this.add(field, "invalid_date", "Use a valid date.");
      return "";
    }
    return text;
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
