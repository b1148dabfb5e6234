import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// docs/API.md is what an integrator reads first: every address it names must exist. Pages of the web
// app ("/admin/news") are checked against the router's route paths (web/src/app/*.tsx); the gateway's
// own addresses ("/feeds/series/<slug>.xml") against the literals and patterns of gateway/src. A path
// renamed in the code without the document (it once sent staff to "/admin/posts") fails here.

const root = resolve(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** Every `/path` in backticks in the document (placeholders such as <slug> and … kept). */
function documentedPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/`(\/[^`\s]*)`/g)) found.add(match[1]!);
  return [...found];
}

/** The web app's pages, as patterns: "/admin/news/:id" matches "/admin/news/abc". */
function appRoutes(): RegExp[] {
  const paths: string[] = [];
  const admin = read("web/src/app/admin-routes.tsx");
  for (const m of admin.matchAll(/path="([^"]+)"/g)) paths.push(`/admin/${m[1]}`);
  const main = read("web/src/app/routes.tsx");
  for (const m of main.matchAll(/path="([^"]+)"/g)) paths.push(`/${m[1]}`);
  return paths
    .filter((p) => !p.endsWith("*"))
    .map((p) => new RegExp(`^${p.replace(/:[a-zA-Z]+/g, "[^/]+")}$`));
}

/** gateway/src's source text, regex escapes removed ("\/feeds\/series\/" reads "/feeds/series/"). */
function gatewaySource(): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) texts.push(read(path));
    }
  };
  walk("gateway/src");
  return texts.join("\n").replace(/\\\//g, "/").replace(/\\\./g, ".");
}

const GATEWAY_PREFIXES = [
  "/graphql",
  "/feeds/",
  "/files",
  "/uploads/",
  "/healthz",
  "/readyz",
  "/sitemap.xml",
  "/robots.txt",
  "/me/data/",
  "/developers/guide.html",
];

describe("docs/API.md", () => {
  const paths = documentedPaths(read("docs/API.md")).filter((p) => p !== "/");

  it("names only pages the web app has", () => {
    const routes = appRoutes();
    const pages = paths.filter((p) => !GATEWAY_PREFIXES.some((prefix) => p.startsWith(prefix)));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p) => !routes.some((route) => route.test(p.replace(/<[^>]+>/g, "x"))))).toEqual([]);
  });

  it("names only addresses the gateway serves", () => {
    const source = gatewaySource();
    const served = paths.filter((p) => GATEWAY_PREFIXES.some((prefix) => p.startsWith(prefix)));
    expect(served.length).toBeGreaterThan(5);
    // The fixed part of each address (up to its first placeholder) is written in gateway/src.
    const missing = served.filter((p) => !source.includes(p.split(/<|…/)[0]!));
    expect(missing).toEqual([]);
  });
});
