// `npm run size`: QUALITY.md F1, the first-load budget of the built web app.
//
// Reads Vite's build manifest (web/dist/.vite/manifest.json; the web config sets build.manifest) and
// follows the app's entry (index.html) through its static `imports`, recursively: those chunks are
// what every visitor downloads before the first page shows (index.html modulepreloads them). Their
// gzip sizes (level 9) are compared with the budgets, and the editor (Milkdown Crepe, ProseMirror,
// CodeMirror) must not be among them: `dynamicImports` (lazy routes) are deliberately not followed.
//
// Options:
//   --dist=<dir>       the build to check (default web/dist)
//   --include=<key>    also count this manifest key's static graph as first load (repeatable), e.g. a
//                      public page that is a lazy route but shows on first visit
//   --route=<key>[+<key>…]  a lazy route a visitor may open first (repeatable): each is checked on its
//                      own, entry + the static graph of each key, against the same budgets. A page's
//                      chunk comes with the English message catalogs it asks for (web/src/app/routes.tsx,
//                      `withMessages`), fetched beside it: name them after a "+", e.g.
//                      --route=src/features/prayer/PrayerPage.tsx+src/i18n/en/prayer.ts
//
// Exit code 1 when a budget is exceeded, the editor is in the first load, or there is no build.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/** One chunk of Vite's manifest (Vite 5–8, Rollup and Rolldown builds alike). */
export interface ManifestChunk {
  file: string;
  name?: string;
  /** Source path relative to the Vite root; absent for shared chunks (keys starting with "_"). */
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of chunks imported statically (loaded with this one). */
  imports?: string[];
  /** Manifest keys of chunks imported with import() (loaded later, on demand). */
  dynamicImports?: string[];
  /** CSS files (output paths) this chunk needs. */
  css?: string[];
  assets?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export const BUDGET = { jsGzip: 150 * 1024, cssGzip: 30 * 1024 } as const;

/** The editor's packages, as they appear in manifest keys, `src` paths, chunk names and file names. */
export const EDITOR_NAME = /milkdown|@milkdown|crepe|codemirror|prosemirror/i;

/**
 * Strings that survive minification inside the editor's own code and CSS: a manifest only names
 * chunks, so a package bundled *into* a first-load chunk is invisible there. ProseMirror's view uses
 * `ProseMirror-…` classes, CodeMirror 6 `cm-editor`, Crepe `milkdown`.
 */
export const EDITOR_CODE = /ProseMirror-[a-z]|\bcm-editor\b|\bmilkdown\b/;

export interface FileSize {
  file: string;
  /** The manifest key the file came from (for CSS: the first chunk that needs it). */
  key: string;
  raw: number;
  gzip: number;
}

export interface SizeReport {
  entryKey: string;
  /** First-load JS, entry first, then in discovery order. */
  js: FileSize[];
  css: FileSize[];
  totals: { jsRaw: number; jsGzip: number; cssRaw: number; cssGzip: number };
  /** JS and CSS that only lazy chunks need. */
  lazyJs: FileSize[];
  lazyCss: FileSize[];
  /** Why the editor is considered to be in the first load (empty when it is not). */
  editorHits: string[];
  jsOverBudget: boolean;
  cssOverBudget: boolean;
}

/** The app's entry: the `isEntry` chunk for index.html (or the only entry there is). */
export function findEntry(manifest: Manifest): string {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  const html = entries.find(([key, chunk]) => key === "index.html" || chunk.src === "index.html");
  if (html) return html[0];
  if (entries.length === 1) return entries[0]![0];
  throw new Error(
    entries.length === 0
      ? "The manifest has no entry chunk (isEntry: true)."
      : `The manifest has several entries and none is index.html: ${entries.map(([k]) => k).join(", ")}.`,
  );
}

/** Manifest keys reachable from `roots` through static imports only (each once; import cycles happen). */
export function staticGraph(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest refers to "${key}", which it does not contain.`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return [...seen];
}

const sizeOf = (file: string, key: string, content: Uint8Array): FileSize => ({
  file,
  key,
  raw: content.byteLength,
  gzip: gzipSync(content, { level: 9 }).byteLength,
});

/**
 * The first-load computation, without touching the disk: `readFile` gets output paths as they appear
 * in the manifest (relative to the dist folder).
 */
export function firstLoad(
  manifest: Manifest,
  readFile: (file: string) => Uint8Array | string,
  options: { include?: string[]; budget?: { jsGzip: number; cssGzip: number } } = {},
): SizeReport {
  const budget = options.budget ?? BUDGET;
  const contents = new Map<string, Uint8Array>();
  const read = (file: string) => {
    let content = contents.get(file);
    if (!content) {
      const value = readFile(file);
      content = typeof value === "string" ? Buffer.from(value) : value;
      contents.set(file, content);
    }
    return content;
  };

  const entryKey = findEntry(manifest);
  const firstKeys = staticGraph(manifest, [entryKey, ...(options.include ?? [])]);
  const firstKeySet = new Set(firstKeys);

  const js: FileSize[] = [];
  const css: FileSize[] = [];
  const seenFiles = new Set<string>();
  for (const key of firstKeys) {
    const chunk = manifest[key]!;
    if (!seenFiles.has(chunk.file)) {
      seenFiles.add(chunk.file);
      (chunk.file.endsWith(".css") ? css : js).push(sizeOf(chunk.file, key, read(chunk.file)));
    }
    for (const file of chunk.css ?? []) {
      if (seenFiles.has(file)) continue;
      seenFiles.add(file);
      css.push(sizeOf(file, key, read(file)));
    }
  }

  const editorHits: string[] = [];
  for (const key of firstKeys) {
    const chunk = manifest[key]!;
    for (const [what, value] of [
      ["key", key],
      ["src", chunk.src],
      ["name", chunk.name],
      ["file", chunk.file],
    ] as const) {
      if (value && EDITOR_NAME.test(value)) editorHits.push(`${key}: ${what} "${value}" names the editor`);
    }
  }
  for (const { file } of [...js, ...css]) {
    const match = Buffer.from(read(file)).toString("utf8").match(EDITOR_CODE);
    if (match) editorHits.push(`${file}: contains "${match[0]}" (editor code or styles)`);
  }

  // Everything else in the manifest is lazy (dynamic entries and what only they import).
  const lazyJs: FileSize[] = [];
  const lazyCss: FileSize[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (firstKeySet.has(key)) continue;
    if (!seenFiles.has(chunk.file) && /\.(m?js|css)$/.test(chunk.file)) {
      seenFiles.add(chunk.file);
      (chunk.file.endsWith(".css") ? lazyCss : lazyJs).push(sizeOf(chunk.file, key, read(chunk.file)));
    }
    for (const file of chunk.css ?? []) {
      if (seenFiles.has(file)) continue;
      seenFiles.add(file);
      lazyCss.push(sizeOf(file, key, read(file)));
    }
  }

  const sum = (files: FileSize[], field: "raw" | "gzip") => files.reduce((total, f) => total + f[field], 0);
  const totals = {
    jsRaw: sum(js, "raw"),
    jsGzip: sum(js, "gzip"),
    cssRaw: sum(css, "raw"),
    cssGzip: sum(css, "gzip"),
  };
  return {
    entryKey,
    js,
    css,
    totals,
    lazyJs: lazyJs.sort((a, b) => b.gzip - a.gzip),
    lazyCss: lazyCss.sort((a, b) => b.gzip - a.gzip),
    editorHits,
    jsOverBudget: totals.jsGzip > budget.jsGzip,
    cssOverBudget: totals.cssGzip > budget.cssGzip,
  };
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

const kb = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

/** A plain-text table: the first `textColumns` columns left-aligned, the figures right-aligned. */
function table(rows: string[][], textColumns = 1): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

function print(report: SizeReport): void {
  const { totals } = report;
  const verdict = (over: boolean) => (over ? "FAIL" : "PASS");
  const files = (list: FileSize[]) => list.map((f) => [f.file, f.key, kb(f.raw), kb(f.gzip)]);
  console.log(`\nF1: first load = ${report.entryKey} + its static imports (gzip -9)\n`);
  console.log(table([["file", "manifest key", "raw", "gzip"], ...files(report.js), ...files(report.css)], 2));
  console.log(
    `\n${table([
      ["total", "raw", "gzip", "budget", "result"],
      ["JavaScript", kb(totals.jsRaw), kb(totals.jsGzip), kb(BUDGET.jsGzip), verdict(report.jsOverBudget)],
      ["CSS", kb(totals.cssRaw), kb(totals.cssGzip), kb(BUDGET.cssGzip), verdict(report.cssOverBudget)],
    ])}`,
  );
  console.log(
    report.editorHits.length
      ? `\nEditor in the first load: FAIL\n${report.editorHits.map((h) => `  - ${h}`).join("\n")}`
      : "\nEditor in the first load: none (PASS)",
  );
  const lazy = [...report.lazyJs, ...report.lazyCss];
  console.log(
    lazy.length
      ? `\nLazy chunks (loaded on demand, not budgeted)\n\n${table([["file", "manifest key", "raw", "gzip"], ...files(lazy)], 2)}\n`
      : "\nNo lazy chunks.\n",
  );
}

/**
 * First load of each route opened first: the entry (and `include`) plus the static graph of each of
 * the route's keys ("+"-separated: its chunk and the message catalogs fetched with it).
 */
export function routeLoads(
  manifest: Manifest,
  read: (file: string) => Buffer,
  routes: string[],
  include: string[] = [],
): Array<{ route: string; report: SizeReport }> {
  return routes.map((route) => {
    const keys = route.split("+");
    for (const key of keys) if (!manifest[key]) throw new Error(`The build has no chunk for route ${key}.`);
    return { route, report: firstLoad(manifest, read, { include: [...include, ...keys] }) };
  });
}

function main(): number {
  const args = process.argv.slice(2);
  const distArg = args.find((a) => a.startsWith("--dist="))?.slice("--dist=".length);
  const include = args.filter((a) => a.startsWith("--include=")).map((a) => a.slice("--include=".length));
  const dist = resolve(distArg ?? join(import.meta.dirname, "..", "web", "dist"));
  const manifestPath = join(dist, ".vite", "manifest.json");
  if (!existsSync(manifestPath)) {
    console.error(
      `No build to check: ${manifestPath} does not exist.\n` +
        `Run "npm run build -w web" first (the web Vite config must keep build.manifest: true).`,
    );
    return 1;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  let report: SizeReport;
  try {
    report = firstLoad(manifest, (file) => readFileSync(join(dist, file)), { include });
  } catch (error) {
    console.error(`Cannot check ${dist}: ${(error as Error).message}\nRebuild with "npm run build -w web".`);
    return 1;
  }
  print(report);
  let failed = report.jsOverBudget || report.cssOverBudget || report.editorHits.length > 0;
  const routes = args.filter((a) => a.startsWith("--route=")).map((a) => a.slice("--route=".length));
  if (routes.length) {
    let perRoute: Array<{ route: string; report: SizeReport }>;
    try {
      perRoute = routeLoads(manifest, (file) => readFileSync(join(dist, file)), routes, include);
    } catch (error) {
      console.error((error as Error).message);
      return 1;
    }
    const rows = [["route opened first", "JS gzip", "of budget", "CSS gzip", "editor", "result"]];
    for (const { route, report: r } of perRoute) {
      const bad = r.jsOverBudget || r.cssOverBudget || r.editorHits.length > 0;
      if (bad) failed = true;
      rows.push([
        route,
        kb(r.totals.jsGzip),
        `${((100 * r.totals.jsGzip) / BUDGET.jsGzip).toFixed(1)} %`,
        kb(r.totals.cssGzip),
        r.editorHits.length ? "yes" : "no",
        bad ? "FAIL" : "PASS",
      ]);
    }
    console.log(
      `Every public route, opened first (entry + its chunk + its English messages)\n\n${table(rows)}\n`,
    );
  }
  console.log(failed ? "F1 failed." : "F1 passed.");
  return failed ? 1 : 0;
}

// Run only as a script, not when the test imports the functions above.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main();
}
