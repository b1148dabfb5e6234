import { IntlMessageFormat } from "intl-messageformat";
import type { MessageValues } from "./render.ts";

/**
 * ICU MessageFormat for the web app and the gateway alike (FormatJS `intl-messageformat`): one
 * message syntax, `{name}` placeholders, `{count, plural, one {# person} other {# people}}` counts
 * and `{kind, select, …}` choices, read by the language's own plural rules.
 *
 * The gateway formats message strings (the library parses them once and keeps the result). The web
 * app ships messages precompiled (web/vite-icu.ts): a message without ICU arguments stays a string,
 * one with plurals or selects arrives as the parser's AST, which render.ts formats with the browser's
 * Intl objects; the browser bundle carries neither the library nor its parser (the first-load budget,
 * QUALITY.md F1).
 */

export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * The language someone reads: their own choice (users.locale: "", "en" or "es") when they made one,
 * else the church's language (settings.locale), else English.
 */
export function pickLocale(own: string | null | undefined, church: string | null | undefined): Locale {
  if (isLocale(own)) return own;
  if (isLocale(church)) return church;
  return "en";
}

export type { MessageValues } from "./render.ts";

/** A parsed ICU message (the parser's AST), as IntlMessageFormat takes it. */
export type MessageAst = Exclude<ConstructorParameters<typeof IntlMessageFormat>[0], string>;

// The web app's side: precompiled messages and their small runtime (render.ts, no library inside).
export { formatCompiled, interpolate, type CompiledMessage } from "./render.ts";

const parsed = new Map<string, IntlMessageFormat>();

/** Format an ICU message string (parsed once per language and message, then reused). */
export function formatMessage(message: string, locale: Locale, values?: MessageValues): string {
  const key = `${locale}\u0000${message}`;
  let format = parsed.get(key);
  if (!format) {
    format = new IntlMessageFormat(message, locale);
    parsed.set(key, format);
  }
  return String(format.format(values));
}
