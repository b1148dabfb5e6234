import { metricsInScope } from "../observability/scope.ts";
import { leaseMsFor, type JobLeases } from "./job-leases.ts";

/**
 * A system job that runs now and then every `intervalMs` until stopped: never two runs at once (a
 * slow run makes the next tick skip, not pile up), a failure is logged and the next tick tries again,
 * and the timer does not keep the process alive. Its state lives in the database, so a restart
 * loses nothing. With `leases`, a tick runs the job only on the replica that holds its lease, so
 * gateway replicas run it once between them.
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
  /** Run under a lease named after the job (system/job-leases.ts); without, every tick runs. */
  leases?: JobLeases | undefined;
}

/** How the server starts a system job: its interval (else the job's own) and the replicas' leases. */
export interface JobOptions {
  intervalMs?: number | undefined;
  leases?: JobLeases | undefined;
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
  const leases = job.leases;
  const runNow = async () => {
    const line = job.report(await job.run());
    metricsInScope()?.jobRun(job.name, "ran");
    if (line) console.log(`[${job.name}] ${line}`);
  };
  /** Among replicas, only while holding the lease; counted "skipped" (flock_job_runs_total) otherwise. */
  const runIfHeld = async (held: boolean) => {
    if (stopped) return;
    if (held) return runNow();
    metricsInScope()?.jobRun(job.name, "skipped");
  };
  const tick = () => {
    if (running || stopped) return;
    running = true;
    (leases ? leases.claim(job.name, leaseMsFor(job.intervalMs)).then(runIfHeld) : runNow())
      .catch((error: unknown) => {
        // A run still on its way when the process stops fails as PocketBase goes: not worth a line.
        if (stopped) return;
        metricsInScope()?.jobRun(job.name, "failed");
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
    // Another replica takes the job at its next tick (PocketBase may be gone already: nothing to do then).
    leases?.release(job.name).catch(() => undefined);
  };
}
