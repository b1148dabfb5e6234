// Entry of a statements run's worker process (statement-runs.ts), as markdown/worker-entry.mjs: plain
// JavaScript so that Node starts it under any runner. A Node that strips TypeScript types itself (22.18
// and later; the production image runs 24), or one started with a TypeScript loader, loads the worker
// directly; an older Node gets tsx's loader (a development dependency) and loads it again under a new URL.
try {
  await import("./statement-worker.ts");
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  await import("./statement-worker.ts?tsx");
}
