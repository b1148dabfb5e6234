/// <reference types="node" />
// Build step for the web app's message catalogs (src/i18n/en.ts, es.ts): ICU MessageFormat,
// precompiled here with FormatJS's parser so that the browser only carries intl-messageformat's
// runtime, never its parser (@formatjs/icu-messageformat-parser is aliased to its no-parser entry in
// vite.config.ts). A message without ICU arguments stays a string; plurals and selects become the
// parser's AST (@flock/shared/i18n/compile). A syntax error fails the build, naming the key.
//
// The English catalog ships with the app, but the staff screens' messages ("admin.*", about half of
// it) are split off into their own chunk ("./en.ts?staff"), fetched the first time a staff message
// is asked for: visitors' first load carries only what public and member pages say (QUALITY.md F1).
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { transformWithOxc, type Plugin } from "vite";
import { compileCatalog } from "../shared/src/i18n/compile.ts";

const CATALOG = /[\\/]src[\\/]i18n[\\/](en|es)\.ts$/;
const STAFF_QUERY = "?staff";
const STAFF_PREFIX = "\0flock-icu-staff:";

/** Messages of the staff screens, kept out of the English first load. */
export const isStaffKey = (key: string): boolean => key.startsWith("admin.");

/** The catalog object a catalog module exports (`export const en = {…}`), evaluated from its source. */
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
  let root = process.cwd();
  return {
    name: "flock:icu-catalogs",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    async resolveId(source, importer) {
      if (!source.endsWith(STAFF_QUERY) || !importer) return null;
      const resolved = await this.resolve(source.slice(0, -STAFF_QUERY.length), importer, { skipSelf: true });
      // Relative to the root: the id names the chunk in the build manifest.
      return resolved && CATALOG.test(resolved.id) ? `${STAFF_PREFIX}${relative(root, resolved.id)}` : null;
    },
    async load(id) {
      const staff = id.startsWith(STAFF_PREFIX);
      const file = staff ? resolve(root, id.slice(STAFF_PREFIX.length)) : id.split("?")[0]!;
      const match = CATALOG.exec(file);
      if (!match) return null;
      this.addWatchFile(file);
      const { name, messages } = await readCatalog(file);
      const compiled = compileCatalog(messages);
      const entries = Object.entries(compiled);
      if (staff)
        return exported(`${name}Staff`, Object.fromEntries(entries.filter(([key]) => isStaffKey(key))));
      // Spanish is a lazy chunk already: whole. English: the staff screens' messages apart.
      return exported(
        name,
        match[1] === "en" ? Object.fromEntries(entries.filter(([key]) => !isStaffKey(key))) : compiled,
      );
    },
  };
}
