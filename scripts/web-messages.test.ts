/**
 * The web app's messages come in catalogs by area (web/src/i18n/catalogs.ts): the shell's English
 * ships with the app, every other catalog is fetched with the chunk that shows it
 * (`withMessages([areas], () => import(chunk))` in web/src/app). A screen that reads a key of a
 * catalog its chunk did not ask for would show blank for a moment and cost a second round trip; this
 * test reads the code to make sure none does:
 * - the first load (main.tsx and what it imports statically) reads only the shell's keys;
 * - each chunk loaded through withMessages (with everything it imports, lazily too, up to the next
 *   chunk loaded through withMessages) reads only keys of the shell and of the areas it names;
 * - every chunk app/ loads goes through withMessages.
 * A key is "read" where its name is written as a string (`t("prayer.title")`, a `MessageKey` in an
 * array) or a template's prefix (`t(`prayer.status.${s}`)` reads every `prayer.status.*`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../web/src/i18n/catalogs.ts";

const WEB = join(import.meta.dirname, "..", "web", "src");
const I18N = join(WEB, "i18n");

/** Every English key, and the catalog (area) that holds it. */
const homeOf = new Map<string, string>();
for (const file of readdirSync(join(I18N, "en"))) {
  const area = file.replace(/\.ts$/, "");
  for (const match of readFileSync(join(I18N, "en", file), "utf8").matchAll(/^ {2}"([^"]+)":/gm))
    homeOf.set(match[1]!, area);
}
const keys = [...homeOf.keys()];

/** Relative imports of a source file: static ones, and `import("…")` ones. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const source = readFileSync(file, "utf8");
  const resolved = (specifiers: Iterable<RegExpMatchArray>) =>
    [...specifiers].map((m) => resolve(dirname(file), m[1]!)).filter((path) => existsSync(path));
  return {
    static: resolved(source.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g)),
    dynamic: resolved(source.matchAll(/import\(\s*"(\.{1,2}\/[^"?]+)"\s*\)/g)),
  };
}

/** The files `roots` bring in; the catalogs themselves (the keys' definitions) are not readers. */
function graph(roots: string[], withDynamic: boolean, except = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (
      seen.has(file) ||
      except.has(file) ||
      file.startsWith(I18N + "/en/") ||
      file.startsWith(I18N + "/es/")
    )
      return;
    seen.add(file);
    const { static: stat, dynamic } = importsOf(file);
    stat.forEach(visit);
    if (withDynamic) dynamic.forEach(visit);
  };
  roots.forEach(visit);
  return seen;
}

/** The keys a file reads, by the catalog that holds each. */
function keysRead(file: string): Map<string, string> {
  const source = readFileSync(file, "utf8");
  const read = new Map<string, string>();
  for (const m of source.matchAll(/["'`]([a-zA-Z][\w.-]*)["'`]/g)) {
    const area = homeOf.get(m[1]!);
    if (area) read.set(m[1]!, area);
  }
  for (const m of source.matchAll(/`([a-zA-Z][\w.]*\.)\$\{/g))
    for (const key of keys) if (key.startsWith(m[1]!)) read.set(key, homeOf.get(key)!);
  return read;
}

/** Keys read in `files` that none of `areas` holds, as "file: key (area)". */
function outside(files: Iterable<string>, areas: Set<string>): string[] {
  const found: string[] = [];
  for (const file of files)
    for (const [key, area] of keysRead(file))
      if (!areas.has(area)) found.push(`${relative(WEB, file)}: ${key} (${area}.ts)`);
  return found;
}

/** `withMessages([...], () => import("…"))` in app/: the chunks and the catalogs each asks for. */
const APP = join(WEB, "app");
const chunks = readdirSync(APP)
  .filter((f) => /\.tsx?$/.test(f) && !f.includes(".test."))
  .flatMap((f) => {
    const source = readFileSync(join(APP, f), "utf8");
    return [
      ...source.matchAll(/withMessages\(\s*\[([^\]]*)\]\s*,\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g),
    ].map((m) => ({
      file: f,
      chunk: resolve(APP, m[2]!),
      areas: [...m[1]!.matchAll(/"([\w-]+)"/g)].map((a) => a[1]!),
    }));
  });
const entry = graph([join(WEB, "main.tsx")], false);

describe("web messages arrive with the chunks that read them", () => {
  it("finds the catalogs and the chunks app/ loads", () => {
    expect(keys.length).toBeGreaterThan(1000);
    expect(chunks.length).toBeGreaterThan(15);
    expect(entry.has(join(WEB, "app", "Layout.tsx"))).toBe(true);
  });

  it("every chunk app/ loads goes through withMessages, naming real catalogs", () => {
    for (const f of readdirSync(APP).filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."))) {
      const imports = [...readFileSync(join(APP, f), "utf8").matchAll(/import\(\s*"([^"]+)"\s*\)/g)].length;
      expect(chunks.filter((c) => c.file === f).length, `${f}: an import() outside withMessages`).toBe(
        imports,
      );
    }
    for (const { chunk, areas } of chunks) {
      expect(existsSync(chunk), chunk).toBe(true);
      for (const area of areas) expect(Object.keys(CATALOGS), `${relative(WEB, chunk)}`).toContain(area);
    }
  });

  it("the first load reads only the shell's messages", () => {
    expect(outside(entry, new Set(["shell"]))).toEqual([]);
  });

  it("each chunk reads only the shell's messages and those of the catalogs it asks for", () => {
    // A chunk's own code and what it imports (lazily too), up to the next chunk withMessages loads.
    const roots = new Set(chunks.map((c) => c.chunk));
    const found = chunks.flatMap(({ chunk, areas }) =>
      outside(
        graph([chunk], true, new Set([...entry, ...[...roots].filter((root) => root !== chunk)])),
        new Set(["shell", ...areas]),
      ).map((line) => `${relative(WEB, chunk)} → ${line}`),
    );
    expect(found).toEqual([]);
  });

  it("sees a key read outside its chunk's catalogs (the check itself)", () => {
    const prayerPage = join(WEB, "features", "prayer", "PrayerPage.tsx");
    expect(outside([prayerPage], new Set(["shell"])).some((line) => line.includes("(prayer.ts)"))).toBe(true);
    expect(outside([prayerPage], new Set(["shell", "prayer"]))).toEqual([]);
  });
});
