import type { ChildProcess } from "node:child_process";

/** SIGTERM (or `signal`), then SIGKILL after 10 s; resolves once it exited. */
export function stopProcess(child: ChildProcess | null, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    child.kill(signal);
  });
}
