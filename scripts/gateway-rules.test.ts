/**
 * One authorization vocabulary in the gateway (issue 22), kept so by machine.
 *
 * A resolver, a system job or an HTTP handler asks for an ability (`requireAbility`, `can`, a
 * `holdersOf` filter) or for a record's `…Can` from its feature's policy in gateway/src/access/; it
 * never names a permission. A permission name written anywhere else ("people.manage" in a resolver,
 * a filter, an SDL description) is the permission arithmetic that drifts from PocketBase's rules, and
 * a second place a reader has to look. Permission names live in gateway/src/access/ (the table of
 * abilities → permissions and the policies built on it), in pb_migrations/ (the rules themselves) and
 * in the union of stored names in gateway/src/pocketbase/records.ts, which declares the roles
 * collection's select values as every other collection's are declared there (npm run records:check
 * compares that file with the migrations). The SDL names permissions by their published enum values
 * (PEOPLE_MANAGE), the integrators' vocabulary (Role.permissions).
 *
 * The helpers of the second vocabulary (requirePermission, hasPermission, a permission list searched
 * by hand) are refused by name too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const GATEWAY = join(import.meta.dirname, "..", "gateway", "src");
const RECORDS = join(GATEWAY, "pocketbase", "records.ts");

/** The stored permission names: the `PermissionName` union of records.ts, one `| "name"` per line. */
const permissions = [
  ...(readFileSync(RECORDS, "utf8").match(/export type PermissionName =([\s\S]*?);/)?.[1] ?? "").matchAll(
    /\|\s*"([a-z_.]+)"/g,
  ),
].map((m) => m[1]!);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A permission name standing alone (not `people.viewRule`, not a longer dotted name). */
const permissionName = new RegExp(`(?<![\\w.])(${permissions.map(escape).join("|")})(?![\\w])`);
const secondVocabulary = [
  /\b(requirePermission|hasPermission)\b/,
  // a permission list searched by hand: permissionsOf(user).includes(…), role.permissions.some(…)
  /\bpermissionsOf\([^)]*\)\s*\.\s*(includes|some|indexOf|find)\b/,
  /\.permissions\s*\??\.\s*(includes|some|indexOf|find)\b/,
];

/** What a line breaks, if anything. */
export function violationsIn(line: string): string[] {
  const found: string[] = [];
  const name = permissionName.exec(line);
  if (name) found.push(`names the permission "${name[1]}"`);
  for (const pattern of secondVocabulary)
    if (pattern.test(line)) found.push(`uses the second vocabulary (${pattern.source})`);
  return found;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // The policies' home; generated code is checked through the sources it comes from.
      if (path === join(GATEWAY, "access") || entry.name === "__generated__") continue;
      yield* sources(path);
    } else if (/\.(ts|graphql)$/.test(entry.name) && path !== RECORDS) yield path;
  }
}

describe("gateway authorization vocabulary", () => {
  it("knows the permissions to look for", () => {
    expect(permissions).toContain("people.manage");
    expect(permissions).toContain("prayer.view_pastoral");
    expect(permissions.length).toBeGreaterThan(10);
  });

  it("recognises a violation, and only a violation", () => {
    const bad = [
      'await requirePermission(ctx, "people.manage");',
      'const mine = hasPermission(viewer, "prayer.view_pastoral") ? a : b;',
      'filter: \'roles.permissions:each ?= "api.manage" && status != "suspended"\',',
      '"Staff only (people.manage)."',
      "if (permissionsOf(viewer).includes(wanted)) return true;",
      "user.expand?.roles?.some((role) => role.permissions.includes(wanted))",
    ];
    for (const line of bad) expect(violationsIn(line), line).not.toEqual([]);
    const fine = [
      'await requireAbility(ctx, "managePeople");',
      "people.viewRule = people.listRule;",
      'filter: `${holdersOf("manageIntegrations")} && status != "suspended"`,',
      '"Staff only (PEOPLE_MANAGE)."',
      "permissions: (r) => r.permissions ?? [],",
      'const scope = "people.directory";',
    ];
    for (const line of fine) expect(violationsIn(line), line).toEqual([]);
  });

  it("no gateway source outside access/ names a permission or uses the second vocabulary", () => {
    const found: string[] = [];
    for (const file of sources(GATEWAY)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          for (const problem of violationsIn(line))
            found.push(
              `gateway/src/${relative(GATEWAY, file).split(sep).join("/")}:${index + 1}: ${problem}`,
            );
        });
    }
    expect(found).toEqual([]);
  });
});
