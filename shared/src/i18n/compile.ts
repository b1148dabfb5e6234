import { IntlMessageFormat } from "intl-messageformat";
import type { CompiledMessage, MessageAst } from "./format.ts";

// Build-time side of format.ts (web/vite-icu.ts, tests): parses ICU messages with FormatJS's parser.

/** ICU element types (the parser's TYPE enum): 0 literal, 1 a plain `{name}` argument. */
const LITERAL = 0;
const ARGUMENT = 1;

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
 * A message as the web app ships it: literal text and `{name}` placeholders stay a string (filled in by
 * `interpolate`, which gives the same result as the library for them); anything else (plurals,
 * selects, numbers, quoted braces) becomes the parser's AST.
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
  return ast;
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
