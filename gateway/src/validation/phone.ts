import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";

/**
 * Phones are stored as E.164 (PRODUCT.md §6). People type them in any common format; a number
 * without a country code is read in the church's country (FLOCK_DEFAULT_COUNTRY, default US).
 */
export const DEFAULT_COUNTRY = (process.env.FLOCK_DEFAULT_COUNTRY ?? "US").toUpperCase() as CountryCode;

/** The E.164 form of a typed phone number, or null when it is not a valid number. */
export function toE164(input: string, country: CountryCode = DEFAULT_COUNTRY): string | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 40) return null;
  const parsed = parsePhoneNumberFromString(trimmed, country);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** An E.164 number for reading, for example "+1 555 123 4567". */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
