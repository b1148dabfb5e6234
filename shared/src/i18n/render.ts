// The web app's ICU runtime: formats the messages its build precompiled (web/vite-icu.ts through
// compile.ts) with the browser's own Intl.PluralRules and Intl.NumberFormat. It reads exactly the
// element types compile.ts lets through (literal, argument, number, select, plural/selectordinal and
// `#`) and gives the text intl-messageformat gives for them (render.test.ts holds it to the library
// for every message of both web catalogs); the library's runtime was ~3.5 KB gzip of every visitor's
// first load (QUALITY.md F1). No import from intl-messageformat here: this module is the browser's.

/** The parser's element types (its TYPE enum) that compiled messages may contain. */
export const ELEMENT = { literal: 0, argument: 1, number: 2, select: 5, plural: 6, pound: 7 } as const;

interface Option {
  value: Element[];
}

/** One element of a precompiled message, as @formatjs/icu-messageformat-parser writes it. */
export type Element =
  | { type: 0; value: string }
  | { type: 1; value: string }
  | { type: 2; value: string; style?: null }
  | { type: 5; value: string; options: Record<string, Option> }
  | {
      type: 6;
      value: string;
      options: Record<string, Option>;
      offset?: number;
      pluralType?: "cardinal" | "ordinal";
    }
  | { type: 7 };

/** A message as the web app ships it: a plain string ("{name}" placeholders at most) or elements. */
export type CompiledMessage = string | Element[];

export type MessageValues = Record<string, string | number>;

/** Fill `{name}` placeholders; unknown ones stay as written. (Messages without ICU arguments only.) */
export function interpolate(template: string, values?: MessageValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}

// Building an Intl object costs far more than using one: one per language and kind.
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function plural(locale: string, type: "cardinal" | "ordinal", n: number): string {
  const key = `${locale}|${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(locale, { type })));
  return rules.select(n);
}

function number(locale: string, n: number): string {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(n);
}

function render(elements: Element[], locale: string, values: MessageValues, pound?: number): string {
  let text = "";
  for (const el of elements) {
    if (el.type === ELEMENT.literal) {
      text += el.value;
      continue;
    }
    if (el.type === ELEMENT.pound) {
      if (pound !== undefined) text += number(locale, pound);
      continue;
    }
    // As the library: a value the message names and the caller left out is an error, not "undefined".
    if (!(el.value in values)) throw new Error(`The message needs a value for "${el.value}".`);
    const value = values[el.value]!;
    if (el.type === ELEMENT.argument) text += String(value);
    else if (el.type === ELEMENT.number) text += number(locale, Number(value));
    else if (el.type === ELEMENT.select) {
      const option = el.options[String(value)] ?? el.options.other;
      if (!option) throw new Error(`No choice of "${el.value}" for ${String(value)}.`);
      text += render(option.value, locale, values);
    } else {
      const n = Number(value);
      const offset = el.offset ?? 0;
      const option =
        el.options[`=${value}`] ??
        el.options[plural(locale, el.pluralType ?? "cardinal", n - offset)] ??
        el.options.other;
      if (!option) throw new Error(`No plural form of "${el.value}" for ${String(value)}.`);
      text += render(option.value, locale, values, n - offset);
    }
  }
  return text;
}

/** Format a precompiled message in `locale`: a plain string is filled in directly, elements rendered. */
export function formatCompiled(message: CompiledMessage, locale: string, values?: MessageValues): string {
  return typeof message === "string" ? interpolate(message, values) : render(message, locale, values ?? {});
}
