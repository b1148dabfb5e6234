// `npm run advisories:check [lockfile]`: fails when package-lock.json installs a version that
// scripts/advisories.json lists as vulnerable (CI runs it with the static checks).
import { findVulnerable, readAdvisories, readLockfile } from "./lib/advisories.ts";

const advisories = readAdvisories();
const findings = findVulnerable(readLockfile(process.argv[2]), advisories);
for (const { advisory, path, version } of findings)
  console.error(
    `${path}@${version}: ${advisory.id} (${advisory.summary}; fixed in ${advisory.fixed}) ${advisory.source}`,
  );
if (findings.length) {
  console.error(`${findings.length} installed version(s) with a known advisory: upgrade them.`);
  process.exit(1);
}
console.log(`No installed version matches the ${advisories.length} advisories in scripts/advisories.json.`);
