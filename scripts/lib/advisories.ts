import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The offline advisory check (scripts/advisories.json): the registry's audit endpoint is not reachable
 * from the development and CI machines, so known vulnerable ranges are committed and every installed
 * version in package-lock.json is compared with them. Ranges are OSV's: introduced <= version < fixed.
 */
export interface Advisory {
  id: string;
  aliases?: string[];
  package: string;
  introduced: string;
  fixed: string;
  summary: string;
  source: string;
}

export interface Finding {
  advisory: Advisory;
  /** Where the copy is installed ("node_modules/mailparser/node_modules/nodemailer"). */
  path: string;
  version: string;
}

interface Lockfile {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
}

/** A version as numbers; a pre-release sorts just below its release (10.0.0-beta < 10.0.0). */
function parts(version: string): number[] {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(-.+)?$/.exec(version.trim());
  if (!match) throw new Error(`Not a version: ${version}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0), match[4] ? -1 : 0];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

export const isAffected = (advisory: Advisory, version: string): boolean =>
  compareVersions(version, advisory.introduced) >= 0 && compareVersions(version, advisory.fixed) < 0;

/** Every installed copy of an advised package whose version falls in an advisory's range. */
export function findVulnerable(lock: Lockfile, advisories: readonly Advisory[]): Finding[] {
  const findings: Finding[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    if (!path.includes("node_modules/") || !entry.version) continue;
    for (const advisory of advisories)
      if (advisory.package === name && isAffected(advisory, entry.version))
        findings.push({ advisory, path, version: entry.version });
  }
  return findings;
}

export const ROOT = join(import.meta.dirname, "..", "..");

export function readAdvisories(file = join(ROOT, "scripts", "advisories.json")): Advisory[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { advisories: Advisory[] }).advisories;
}

export function readLockfile(file = join(ROOT, "package-lock.json")): Lockfile {
  return JSON.parse(readFileSync(file, "utf8")) as Lockfile;
}
