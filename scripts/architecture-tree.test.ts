import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// docs/ARCHITECTURE.md's annotated tree is the newcomer's map: it must name every folder a feature
// lives in, every gateway/src entry, every schema module and every migration. Adding one without a
// line in the tree fails here, and so does a gateway, migration or hook path the tree names that is
// gone (moved or renamed without the tree).

const root = resolve(import.meta.dirname, "..");

/**
 * The paths the tree names. A line is `<indent><entries>  <comment>`; entries are separated by ", "
 * and may have several segments ("markdown/render.ts", "features/prayer/"); a deeper-indented line
 * is inside the nearest shallower folder above it. Comment continuations (indented 30+) and
 * placeholders ("<feature>/", "**\/x") name nothing. A path names its parent folders too.
 */
export function namedPaths(tree: string): Set<string> {
  const named = new Set<string>();
  const parents: { indent: number; path: string }[] = [];
  for (const line of tree.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    if (!text || indent >= 30) continue;
    const field = text.split(/\s{2,}/)[0]!;
    while (parents.length && parents.at(-1)!.indent >= indent) parents.pop();
    const base = parents.at(-1)?.path ?? "";
    let folder: string | undefined;
    for (const entry of field.split(/,\s*/)) {
      if (!entry || /[<*]/.test(entry)) continue;
      const path = base + entry;
      const segments = path.replace(/\/$/, "").split("/");
      for (let i = 1; i < segments.length; i++) named.add(segments.slice(0, i).join("/") + "/");
      named.add(path);
      if (path.endsWith("/")) folder ??= path;
    }
    if (folder) parents.push({ indent, path: folder });
  }
  return named;
}

function treeOfArchitecture(): string {
  const doc = readFileSync(join(root, "docs/ARCHITECTURE.md"), "utf8");
  const section = doc.slice(doc.indexOf("## The trees"));
  const match = /```\n([\s\S]*?)\n```/.exec(section);
  if (!match) throw new Error('docs/ARCHITECTURE.md: no code block under "## The trees"');
  return match[1]!;
}

const entries = (dir: string) => readdirSync(join(root, dir), { withFileTypes: true });
const folders = (dir: string) =>
  entries(dir)
    .filter((e) => e.isDirectory())
    .map((e) => `${dir}/${e.name}/`);

/** What the tree must name, from the working tree. */
function required(): string[] {
  const features = folders("web/src/features");
  return [
    ...features,
    ...features.flatMap((feature) => folders(feature.slice(0, -1))),
    // every gateway/src entry but its unit tests (they sit beside what they test)
    ...entries("gateway/src")
      .filter((e) => !e.name.endsWith(".test.ts"))
      .map((e) => `gateway/src/${e.name}${e.isDirectory() ? "/" : ""}`),
    ...folders("gateway/src/schema"),
    ...entries("pb_migrations")
      .filter((e) => e.isFile() && e.name.endsWith(".js"))
      .map((e) => `pb_migrations/${e.name}`),
  ];
}

describe("docs/ARCHITECTURE.md tree", () => {
  it("names every feature folder, gateway/src entry, schema module and migration", () => {
    const named = namedPaths(treeOfArchitecture());
    const missing = required().filter((path) => !named.has(path));
    expect(missing, "add these to the tree in docs/ARCHITECTURE.md").toEqual([]);
  });

  it("names nothing under web/src/features that does not exist", () => {
    const named = [...namedPaths(treeOfArchitecture())].filter(
      (p) => p.startsWith("web/src/features/") && p.endsWith("/") && p !== "web/src/features/",
    );
    const existing = new Set(required());
    expect(named.filter((p) => !existing.has(p))).toEqual([]);
  });

  it("names nothing under gateway/src, pb_migrations or pb_hooks that does not exist", () => {
    const named = [...namedPaths(treeOfArchitecture())].filter((p) =>
      /^(gateway\/src|pb_migrations|pb_hooks)\/./.test(p),
    );
    expect(
      named.filter((p) => !existsSync(join(root, p))),
      "the tree names these, but they are gone or named otherwise",
    ).toEqual([]);
  });

  it("reads nesting, lists and continuation lines (a small tree)", () => {
    const tree = [
      "gateway/",
      "  src/",
      "    main.ts, yoga.ts                 entry",
      "    markdown/render.ts               the renderer",
      "                                     (a continuation line: names/nothing.ts)",
      "    schema/",
      "      <feature>/resolvers.ts         placeholder",
      "      people/                        people",
      "web/",
      "  src/features/prayer/             the wall",
      "    admin/                         moderation",
    ].join("\n");
    expect([...namedPaths(tree)].sort()).toEqual(
      [
        "gateway/",
        "gateway/src/",
        "gateway/src/main.ts",
        "gateway/src/yoga.ts",
        "gateway/src/markdown/",
        "gateway/src/markdown/render.ts",
        "gateway/src/schema/",
        "gateway/src/schema/people/",
        "web/",
        "web/src/",
        "web/src/features/",
        "web/src/features/prayer/",
        "web/src/features/prayer/admin/",
      ].sort(),
    );
  });
});
