// The integration and e2e tests run their files side by side, each vitest worker against its own
// PocketBase (integration) or its own church (e2e). A global setup starts one per worker; a test file
// finds its worker's by VITEST_POOL_ID (1..maxWorkers, held by one running file at a time).
import { availableParallelism } from "node:os";
import type { TestProject } from "vitest/node";

/** How many workers vitest runs this project's files in, resolved as vitest does (project, root, CPUs - 1). */
export function workerCount(project: TestProject): number {
  const configured = project.config.maxWorkers || project.vitest.config.maxWorkers;
  return Math.max(1, configured || availableParallelism() - 1);
}

/** This test file's entry of what the global setup started per worker. */
export function forThisWorker<T>(perWorker: readonly T[], what: string): T {
  const poolId = Number(process.env.VITEST_POOL_ID ?? "1");
  const mine = perWorker[poolId - 1];
  if (!mine)
    throw new Error(`No ${what} for vitest worker ${poolId}: the global setup started ${perWorker.length}.`);
  return mine;
}
