// Entry of a Markdown render worker process (gateway/src/markdown/pool.ts). Plain JavaScript so that
// Node can start it under any runner. A Node that strips TypeScript types itself (22.18 and later;
// the production image runs 24), or one started with a TypeScript loader, loads the worker directly.
// An older Node (20; 22 before 22.18 without --experimental-strip-types) refuses the .ts file: it
// then gets tsx's loader (a development dependency) and loads it again, under a new URL, since the
// failed import is remembered under the first one.
try {
  await import("./worker.ts");
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  await import("./worker.ts?tsx");
}
