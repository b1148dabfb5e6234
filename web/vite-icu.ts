/// <reference types="node" />
// Build step for the web app's message catalogs (src/i18n/en/*.ts, es/*.ts): ICU MessageFormat,
// precompiled here with FormatJS's parser so that the browser carries neither the parser nor the
// library, only the small runtime of @flock/shared/i18n/render. A message without ICU arguments stays
// a string; plurals and selects become the parser's AST (@flock/shared/i18n/compile). A syntax error,
// or an element the runtime does not format, fails the build, naming the key.
//
// The catalogs are split by area (src/i18n/catalogs.ts): each module here becomes one small chunk of
// precompiled messages, fetched with the page that shows it; only the shell's English ships with the app.
import { readFile } from "node:fs/promises";
import { transformWithOxc, type Plugin } from "vite";
import { compileCatalog } from "../shared/src/i18n/compile.ts";

/** A catalog module: src/i18n/<language>/<area>.ts. */
export const CATALOG = /[\\/]src[\\/]i18n[\\/](en|es)[\\/][\w-]+\.ts$/;

/** The catalog object a catalog module exports (`export const prayer = {…}`), evaluated from its source. */
export async function readCatalog(file: string): Promise<{ name: string; messages: Record<string, string> }> {
  const source = await readFile(file, "utf8");
  const { code } = await transformWithOxc(source, file, { lang: "ts" });
  const module = (await import(
    `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`
  )) as Record<string, unknown>;
  const found = Object.entries(module).find(([, value]) => value && typeof value === "object");
  if (!found) throw new Error(`${file} exports no message catalog`);
  return { name: found[0], messages: found[1] as Record<string, string> };
}

const exported = (name: string, value: unknown) =>
  `export const ${name} = JSON.parse(${JSON.stringify(JSON.stringify(value))});\n`;

export function icuCatalogs(): Plugin {
  return {
    name: "flock:icu-catalogs",
    enforce: "pre",
    async load(id) {
      const file = id.split("?")[0]!;
      if (!CATALOG.test(file)) return null;
      this.addWatchFile(file);
      const { name, messages } = await readCatalog(file);
      return exported(name, compileCatalog(messages));
    },
  };
}
