import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions, findVulnerable, readAdvisories, readLockfile, ROOT } from "./lib/advisories.ts";

// The offline advisory check (scripts/advisories.json; the registry's audit endpoint is not reachable
// here): what package-lock.json installs is compared with the committed list of vulnerable ranges.
describe("dependency advisories", () => {
  const advisories = readAdvisories();

  it("no installed package, nested copies included, has a version an advisory lists", () => {
    const findings = findVulnerable(readLockfile(), advisories).map(
      ({ advisory, path, version }) => `${path}@${version} ${advisory.id}`,
    );
    expect(findings).toEqual([]);
  });

  it("every advisory names one of our direct dependencies, a range and where it was published", () => {
    const manifests = ["package.json", "gateway/package.json", "web/package.json", "shared/package.json"].map(
      (file) =>
        JSON.parse(readFileSync(join(ROOT, file), "utf8")) as Record<
          string,
          Record<string, string> | undefined
        >,
    );
    const direct = new Set(
      manifests.flatMap((m) => [
        ...Object.keys(m.dependencies ?? {}),
        ...Object.keys(m.devDependencies ?? {}),
        ...Object.keys(m.optionalDependencies ?? {}),
      ]),
    );
    expect(advisories.length).toBeGreaterThan(0);
    for (const advisory of advisories) {
      expect(direct, advisory.id).toContain(advisory.package);
      expect(advisory.id).toMatch(/^(GHSA(-[23456789cfghjmpqrvwx]{4}){3}|CVE-\d{4}-\d+)$/);
      expect(advisory.source).toMatch(/^https:\/\/\S+$/);
      expect(advisory.summary.length).toBeGreaterThan(10);
      expect(compareVersions(advisory.introduced, advisory.fixed)).toBeLessThan(0);
    }
  });

  it("finds a vulnerable version wherever it is installed, and only inside its range", () => {
    const lock = {
      packages: {
        "": { version: "0.1.0" },
        "node_modules/nodemailer": { version: "7.0.6" },
        "node_modules/mailparser/node_modules/nodemailer": { version: "7.0.10" },
        "node_modules/smtp-server/node_modules/nodemailer": { version: "10.6.1" },
        "node_modules/not-nodemailer": { version: "1.0.0" },
      },
    };
    const found = findVulnerable(lock, advisories).map((f) => `${f.path} ${f.advisory.id}`);
    expect(found).toContain("node_modules/nodemailer GHSA-mm7p-fcc7-pg87");
    expect(found).toContain("node_modules/nodemailer GHSA-rcmh-qjqh-p98v");
    expect(found).toContain("node_modules/mailparser/node_modules/nodemailer GHSA-rcmh-qjqh-p98v");
    expect(found).not.toContain("node_modules/mailparser/node_modules/nodemailer GHSA-mm7p-fcc7-pg87");
    expect(found.filter((f) => f.includes("smtp-server") || f.includes("not-nodemailer"))).toEqual([]);
    expect(compareVersions("10.0.0-beta.1", "10.0.0")).toBeLessThan(0);
    expect(compareVersions("10.4.1", "10.4.0")).toBeGreaterThan(0);
  });
});
