/**
 * A system job that runs now and then every `intervalMs` until stopped: never two runs at once (a
 * slow run makes the next tick skip, not pile up), a failure is logged and the next tick tries again,
 * and the timer does not keep the process alive. Its state lives in the database, so a restart
 * loses nothing.
 */
export interface PeriodicJob<T> {
  /** The log tag: "[name] …". */
  name: string;
  intervalMs: number;
  run(): Promise<T>;
  /** The line to log after a run, or null for nothing worth saying. */
  report(result: T): string | null;
  /** What failed, for the log: "could not …". */
  failure: string;
}

/** The jobs started in this process and not stopped yet (a test checks that none outlives its file). */
const started = new Map<number, string>();
let lastId = 0;
export function runningPeriodicJobs(): Array<{ id: number; name: string }> {
  return [...started].map(([id, name]) => ({ id, name }));
}

/** Start `job`; returns the stop function (called on shutdown). */
export function startPeriodicJob<T>(job: PeriodicJob<T>): () => void {
  const key = ++lastId;
  started.set(key, job.name);
  let running = false;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = true;
    job
      .run()
      .then((result) => {
        const line = job.report(result);
        if (line) console.log(`[${job.name}] ${line}`);
      })
      .catch((error: unknown) => {
        // A run still on its way when the process stops fails as PocketBase goes: not worth a line.
        if (stopped) return;
        console.error(`[${job.name}] ${job.failure}:`, error instanceof Error ? error.message : error);
      })
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, job.intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    started.delete(key);
    clearInterval(timer);
  };
}
