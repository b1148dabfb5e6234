import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPeriodicJob } from "./periodic-job.ts";

/** A run the test finishes by hand. */
function deferred() {
  let resolve!: (ids: string[]) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<string[]>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe("startPeriodicJob", () => {
  let log: ReturnType<typeof vi.spyOn>;
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers();
    log = vi.spyOn(console, "log").mockImplementation(() => {});
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const job = (run: () => Promise<string[]>) => ({
    name: "test-job",
    intervalMs: 1000,
    run,
    report: (ids: string[]) => (ids.length ? `did ${ids.length} thing(s)` : null),
    failure: "could not do things",
  });

  it("runs at once, then every interval, and logs only what is worth saying", async () => {
    const results = [["a"], [], ["b", "c"]];
    const run = vi.fn(async () => results.shift() ?? []);
    const stop = startPeriodicJob(job(run));
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(log.mock.calls).toEqual([["[test-job] did 1 thing(s)"], ["[test-job] did 2 thing(s)"]]);
    stop();
  });

  it("never runs twice at once: a tick during a slow run is skipped", async () => {
    const first = deferred();
    const run = vi.fn().mockReturnValueOnce(first.promise).mockResolvedValue([]);
    const stop = startPeriodicJob(job(run));
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(1);
    first.resolve([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    stop();
  });

  it("says nothing of a run that fails after the job was stopped (PocketBase going down with it)", async () => {
    const first = deferred();
    const stop = startPeriodicJob(job(() => first.promise));
    stop();
    first.reject(new Error("connection refused"));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).not.toHaveBeenCalled();
  });

  it("logs a failure and tries again at the next tick", async () => {
    const run = vi.fn().mockRejectedValueOnce(new Error("PocketBase is down")).mockResolvedValue(["a"]);
    const stop = startPeriodicJob(job(run));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors.mock.calls).toEqual([["[test-job] could not do things:", "PocketBase is down"]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(log.mock.calls).toEqual([["[test-job] did 1 thing(s)"]]);
    stop();
  });

  it("runs no more once stopped", async () => {
    const run = vi.fn(async () => []);
    const stop = startPeriodicJob(job(run));
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
