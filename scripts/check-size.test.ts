import { describe, expect, it } from "vitest";
import { findEntry, firstLoad, staticGraph, type Manifest } from "./check-size.ts";

// A small Vite manifest: the entry imports a shared vendor chunk (which imports the runtime), and
// lazily a public page and the editor route. The editor route statically imports a Milkdown chunk.
// The admin page imports the entry back (Rolldown emits such cycles).
const manifest: Manifest = {
  "index.html": {
    file: "assets/index-a1.js",
    name: "index",
    src: "index.html",
    isEntry: true,
    imports: ["_vendor-b2.js"],
    dynamicImports: ["src/features/editor/EditorPage.tsx", "src/features/admin/pages.tsx"],
    css: ["assets/index-c3.css"],
  },
  "_vendor-b2.js": {
    file: "assets/vendor-b2.js",
    name: "vendor",
    imports: ["_runtime-d4.js"],
    css: ["assets/vendor-e5.css"],
  },
  "_runtime-d4.js": { file: "assets/runtime-d4.js", name: "runtime" },
  "src/features/admin/pages.tsx": {
    file: "assets/pages-f6.js",
    src: "src/features/admin/pages.tsx",
    isDynamicEntry: true,
    imports: ["index.html", "_vendor-b2.js"],
  },
  "src/features/editor/EditorPage.tsx": {
    file: "assets/EditorPage-g7.js",
    src: "src/features/editor/EditorPage.tsx",
    isDynamicEntry: true,
    imports: ["_crepe-h8.js"],
    css: ["assets/EditorPage-i9.css"],
  },
  "_crepe-h8.js": { file: "assets/crepe-h8.js", name: "crepe", css: ["assets/crepe-j0.css"] },
};

// Repetitive content compresses; incompressible content keeps its size: both matter for the totals.
const files: Record<string, string> = {
  "assets/index-a1.js": "console.log('app');".repeat(100),
  "assets/vendor-b2.js": "export const react = 1;".repeat(50),
  "assets/runtime-d4.js": "export {};",
  "assets/pages-f6.js": "export const admin = 1;",
  "assets/EditorPage-g7.js": "export const editor = 1;",
  "assets/crepe-h8.js": "class Editor { mount() { this.dom.className = 'milkdown ProseMirror-focused'; } }",
  "assets/index-c3.css": "body{margin:0}",
  "assets/vendor-e5.css": ".x{color:red}",
  "assets/EditorPage-i9.css": ".editor{}",
  "assets/crepe-j0.css": ".milkdown .ProseMirror-selectednode{outline:1px solid}",
};

const read = (file: string) => {
  const content = files[file];
  if (content === undefined) throw new Error(`unexpected read of ${file}`);
  return content;
};

describe("first-load size check (QUALITY.md F1)", () => {
  it("finds the index.html entry", () => {
    expect(findEntry(manifest)).toBe("index.html");
  });

  it("follows static imports recursively, once each, and not dynamic imports", () => {
    expect(staticGraph(manifest, ["index.html"])).toEqual(["index.html", "_vendor-b2.js", "_runtime-d4.js"]);
    // A cycle back to the entry terminates.
    expect(staticGraph(manifest, ["src/features/admin/pages.tsx"])).toEqual([
      "src/features/admin/pages.tsx",
      "index.html",
      "_vendor-b2.js",
      "_runtime-d4.js",
    ]);
  });

  it("counts the entry's JS and the CSS its chunks reference, and lists the rest as lazy", () => {
    const report = firstLoad(manifest, read);
    expect(report.js.map((f) => f.file)).toEqual([
      "assets/index-a1.js",
      "assets/vendor-b2.js",
      "assets/runtime-d4.js",
    ]);
    expect(report.css.map((f) => f.file)).toEqual(["assets/index-c3.css", "assets/vendor-e5.css"]);
    expect(report.lazyJs.map((f) => f.file).sort()).toEqual([
      "assets/EditorPage-g7.js",
      "assets/crepe-h8.js",
      "assets/pages-f6.js",
    ]);
    expect(report.lazyCss.map((f) => f.file).sort()).toEqual([
      "assets/EditorPage-i9.css",
      "assets/crepe-j0.css",
    ]);

    const index = report.js[0]!;
    expect(index.raw).toBe(files["assets/index-a1.js"]!.length);
    expect(index.gzip).toBeGreaterThan(0);
    expect(index.gzip).toBeLessThan(index.raw / 10); // gzip, not raw, is what is budgeted
    expect(report.totals.jsGzip).toBe(report.js.reduce((sum, f) => sum + f.gzip, 0));
    expect(report.totals.cssRaw).toBe(
      files["assets/index-c3.css"]!.length + files["assets/vendor-e5.css"]!.length,
    );

    // The lazy editor does not count and does not fail the check.
    expect(report.editorHits).toEqual([]);
    expect(report.jsOverBudget).toBe(false);
    expect(report.cssOverBudget).toBe(false);
  });

  it("flags the editor when it is statically imported by the first load (by name)", () => {
    const leaky: Manifest = {
      ...manifest,
      "_vendor-b2.js": { ...manifest["_vendor-b2.js"]!, imports: ["_runtime-d4.js", "_crepe-h8.js"] },
    };
    const report = firstLoad(leaky, read);
    expect(report.js.map((f) => f.file)).toContain("assets/crepe-h8.js");
    expect(report.editorHits.some((hit) => hit.includes('"_crepe-h8.js" names the editor'))).toBe(true);
  });

  it("flags the editor when it is bundled into a first-load chunk (by content)", () => {
    const bundled: Record<string, string> = {
      ...files,
      "assets/vendor-b2.js": "const v=document.createElement('div');v.className='ProseMirror-hideselection';",
    };
    const report = firstLoad(manifest, (file) => bundled[file]!);
    expect(report.editorHits).toEqual([
      'assets/vendor-b2.js: contains "ProseMirror-h" (editor code or styles)',
    ]);
  });

  it("flags an editor source module in the first load by its src path", () => {
    const leaky: Manifest = {
      ...manifest,
      "index.html": {
        ...manifest["index.html"]!,
        imports: ["_vendor-b2.js", "../node_modules/@milkdown/crepe/lib/index.js"],
      },
      "../node_modules/@milkdown/crepe/lib/index.js": {
        file: "assets/index-k1.js",
        src: "../node_modules/@milkdown/crepe/lib/index.js",
      },
    };
    const report = firstLoad(leaky, (file) => (file === "assets/index-k1.js" ? "export {}" : read(file)));
    expect(report.editorHits.some((hit) => hit.includes("src") && hit.includes("@milkdown/crepe"))).toBe(
      true,
    );
  });

  it("reports a budget overrun on gzip size", () => {
    const report = firstLoad(manifest, read, { budget: { jsGzip: 10, cssGzip: 30 * 1024 } });
    expect(report.jsOverBudget).toBe(true);
    expect(report.cssOverBudget).toBe(false);
  });

  it("counts an included lazy page as first load", () => {
    const report = firstLoad(manifest, read, { include: ["src/features/admin/pages.tsx"] });
    expect(report.js.map((f) => f.file)).toContain("assets/pages-f6.js");
    expect(report.lazyJs.map((f) => f.file)).not.toContain("assets/pages-f6.js");
  });

  it("explains a manifest that points to a missing chunk", () => {
    const broken: Manifest = {
      "index.html": { file: "assets/index.js", isEntry: true, imports: ["_gone.js"] },
    };
    expect(() => firstLoad(broken, () => "")).toThrow(/"_gone.js"/);
  });
});

describe("routeLoads (every public route opened first)", () => {
  it("checks each route on its own: entry plus that route's static graph", async () => {
    const { routeLoads } = await import("./check-size.ts");
    const bytes = (n: number) => Buffer.alloc(n, 0x61);
    const small: Manifest = {
      "index.html": {
        file: "a/index.js",
        src: "index.html",
        isEntry: true,
        dynamicImports: ["src/a.tsx", "src/b.tsx", "src/i18n/en/a.ts"],
      },
      "src/a.tsx": { file: "a/a.js", src: "src/a.tsx", isDynamicEntry: true },
      "src/b.tsx": { file: "a/b.js", src: "src/b.tsx", isDynamicEntry: true },
      "src/i18n/en/a.ts": { file: "a/messages-a.js", src: "src/i18n/en/a.ts", isDynamicEntry: true },
    };
    const { randomBytes } = await import("node:crypto");
    const big = randomBytes(200_000); // incompressible: over the 150 KB gzip budget
    const read = (file: string) => (file === "a/b.js" ? big : bytes(100));
    const [a, b] = routeLoads(small, (f) => Buffer.from(read(f)), ["src/a.tsx", "src/b.tsx"]);
    expect(a!.report.js.map((f) => f.file)).toEqual(["a/index.js", "a/a.js"]);
    expect(a!.report.jsOverBudget).toBe(false);
    expect(b!.report.js.map((f) => f.file)).toEqual(["a/index.js", "a/b.js"]);
    expect(b!.report.jsOverBudget).toBe(true);
    expect(() => routeLoads(small, (f) => Buffer.from(read(f)), ["src/missing.tsx"])).toThrow(/no chunk/);
  });

  it("counts a route's message catalogs, named after a +, with its chunk", async () => {
    const { routeLoads } = await import("./check-size.ts");
    const small: Manifest = {
      "index.html": { file: "a/index.js", src: "index.html", isEntry: true, dynamicImports: ["src/a.tsx"] },
      "src/a.tsx": { file: "a/a.js", src: "src/a.tsx", isDynamicEntry: true },
      "src/i18n/en/a.ts": { file: "a/messages-a.js", src: "src/i18n/en/a.ts", isDynamicEntry: true },
    };
    const { randomBytes } = await import("node:crypto");
    const catalog = randomBytes(160_000); // incompressible: alone over the budget
    const read = (file: string) => (file === "a/messages-a.js" ? catalog : Buffer.from("export {};"));
    const [withCatalog] = routeLoads(small, read, ["src/a.tsx+src/i18n/en/a.ts"]);
    expect(withCatalog!.report.js.map((f) => f.file)).toEqual(["a/index.js", "a/a.js", "a/messages-a.js"]);
    expect(withCatalog!.report.jsOverBudget).toBe(true);
    const [chunkOnly] = routeLoads(small, read, ["src/a.tsx"]);
    expect(chunkOnly!.report.jsOverBudget).toBe(false);
    expect(() => routeLoads(small, read, ["src/a.tsx+src/i18n/en/b.ts"])).toThrow(/no chunk .*en\/b\.ts/);
  });
});
