// The e2e tier's setup file (vitest.config.ts): before each e2e file's own code runs, wait until
// e2e/global-setup.ts has its worker's church serving (it prepares them while the other tiers run).
import { e2eReady } from "./environment.ts";

await e2eReady();
