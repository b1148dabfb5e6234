/**
 * Rules written once (issue 9), kept so in web code.
 *
 * Permissions: the web app shows and guards its screens by the abilities the gateway serves
 * (`viewer.can`, web/src/lib/abilities.ts), never by permission names of its own: a permission name
 * written in web code is the "permission arithmetic" that drifts from PocketBase's rules. Only the
 * generated schema types and the translations (which name permissions for the users screen) may
 * contain them.
 *
 * Limits: a form's maxLength comes from @flock/shared/limits (the gateway validates with the same
 * numbers), never a number written in the form.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const WEB = join(import.meta.dirname, "..", "web", "src");
const permissions = [
  ...readFileSync(join(WEB, "gql", "types.ts"), "utf8").matchAll(
    /^export type Permission =([\s\S]*?'[A-Z_]+');$/gm,
  ),
]
  // The union ends at its last `'NAME';`, one `| 'NAME'` per line: the doc comments between them may
  // hold apostrophes and semicolons ("the church's settings", "groups.manage; not built yet").
  .flatMap((m) => [...m[1]!.matchAll(/^\s*\| '([A-Z_]+)'$/gm)].map((p) => p[1]!));

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|graphql)$/.test(entry.name) && !entry.name.endsWith(".generated.ts")) yield path;
  }
}

describe("web permission names", () => {
  it("the schema has permissions to look for", () => {
    expect(permissions).toContain("CONTENT_EDIT");
    expect(permissions.length).toBeGreaterThan(8);
  });

  it("no web source names a permission (only generated types and translations do)", () => {
    // The translations: the message catalogs, one file per area and language (web/src/i18n/en, es).
    const translations = [join(WEB, "i18n", "en"), join(WEB, "i18n", "es")].map((dir) => dir + sep);
    const allowed = new Set([join(WEB, "gql", "types.ts")]);
    const found: string[] = [];
    const pattern = new RegExp(`\\b(${permissions.join("|")})\\b`);
    for (const file of sources(WEB)) {
      if (allowed.has(file) || translations.some((dir) => file.startsWith(dir))) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (pattern.test(line)) found.push(`${relative(WEB, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

describe("web form limits", () => {
  it("no form writes its maxLength as a number", () => {
    const found: string[] = [];
    for (const file of sources(WEB)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (/maxLength=\{\s*\d/.test(line))
            found.push(`${relative(WEB, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
