import { IntlMessageFormat } from "intl-messageformat";
import type { MessageAst } from "./format.ts";
import { ELEMENT, type CompiledMessage, type Element } from "./render.ts";

// Build-time side of render.ts (web/vite-icu.ts, tests): parses ICU messages with FormatJS's parser.

const LITERAL = ELEMENT.literal;
const ARGUMENT = ELEMENT.argument;

/** The message's AST; throws (with the message quoted) when its ICU syntax is wrong. */
export function parseMessage(message: string, where = ""): MessageAst {
  try {
    return new IntlMessageFormat(message, "en").getAst();
  } catch (error) {
    throw new Error(
      `ICU message ${where ? `${where} ` : ""}does not parse (${error instanceof Error ? error.message : String(error)}): ${message}`,
    );
  }
}

/**
 * The elements of `ast` as render.ts reads them; throws, naming the message, on what the web runtime
 * does not format (dates, times, number styles and skeletons, rich-text tags): a catalog that uses
 * one fails the build instead of a page.
 */
function supported(ast: MessageAst, where: string): Element[] {
  for (const el of ast) {
    const ok =
      el.type === ELEMENT.literal ||
      el.type === ELEMENT.argument ||
      el.type === ELEMENT.pound ||
      (el.type === ELEMENT.number && !el.style) ||
      ((el.type === ELEMENT.select || el.type === ELEMENT.plural) &&
        Object.values(el.options).every((option) => supported(option.value, where)));
    if (!ok)
      throw new Error(
        `ICU message ${where ? `${where} ` : ""}uses an element the web app does not format (type ${el.type}${"value" in el ? ` "${el.value}"` : ""}): write it with plain arguments, numbers, plural or select`,
      );
  }
  return ast as Element[];
}

/**
 * A message as the web app ships it: literal text and `{name}` placeholders stay a string (filled in by
 * `interpolate`, which gives the same result as the library for them); anything else (plurals,
 * selects, numbers, quoted braces) becomes the parser's AST, for render.ts.
 */
export function compileMessage(message: string, where = ""): CompiledMessage {
  const ast = parseMessage(message, where);
  const simple = ast.every((el) => el.type === ARGUMENT || (el.type === LITERAL && !/[{}]/.test(el.value)));
  if (simple) {
    const printed = ast
      .map((el) => (el.type === ARGUMENT ? `{${el.value}}` : el.type === LITERAL ? el.value : ""))
      .join("");
    if (printed === message) return message;
  }
  return supported(ast, where);
}

/** Every message of a catalog compiled (see compileMessage). */
export function compileCatalog<K extends string>(catalog: Record<K, string>): Record<K, CompiledMessage> {
  const out = {} as Record<K, CompiledMessage>;
  for (const key of Object.keys(catalog) as K[]) out[key] = compileMessage(catalog[key], key);
  return out;
}

/** The argument names a message uses (plural and select included), sorted: catalogs must agree on them. */
export function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageAst) => {
    for (const el of elements) {
      if (el.type === LITERAL || !("value" in el) || typeof el.value !== "string") continue;
      names.add(el.value);
      if ("options" in el) for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(parseMessage(message));
  return [...names].sort();
}
