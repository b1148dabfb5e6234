import { IntlMessageFormat } from "intl-messageformat";

/**
 * ICU MessageFormat for the web app and the gateway alike (FormatJS `intl-messageformat`): one
 * message syntax, `{name}` placeholders, `{count, plural, one {# person} other {# people}}` counts
 * and `{kind, select, …}` choices, read by the language's own plural rules.
 *
 * The gateway formats message strings (the library parses them once and keeps the result). The web
 * app ships messages precompiled (web/vite-icu.ts): a message without ICU arguments stays a string,
 * one with plurals or selects arrives as the parser's AST, and the browser bundle carries the
 * library's runtime without its parser (the first-load budget, QUALITY.md F1).
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

export type MessageValues = Record<string, string | number>;

/** A parsed ICU message (the parser's AST), as IntlMessageFormat takes it. */
export type MessageAst = Exclude<ConstructorParameters<typeof IntlMessageFormat>[0], string>;

/** A message as the web app ships it: a plain string ("{name}" placeholders at most) or an AST. */
export type CompiledMessage = string | MessageAst;

/** Fill `{name}` placeholders; unknown ones stay as written. (Messages without ICU arguments only.) */
export function interpolate(template: string, values?: MessageValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}

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

const compiled = new WeakMap<MessageAst, Map<Locale, IntlMessageFormat>>();

/** Format a precompiled message: a plain string is filled in directly, an AST by the library. */
export function formatCompiled(message: CompiledMessage, locale: Locale, values?: MessageValues): string {
  if (typeof message === "string") return interpolate(message, values);
  let byLocale = compiled.get(message);
  if (!byLocale) compiled.set(message, (byLocale = new Map()));
  let format = byLocale.get(locale);
  if (!format) byLocale.set(locale, (format = new IntlMessageFormat(message, locale)));
  return String(format.format(values));
}
