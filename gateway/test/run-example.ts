// Runs one of the integrators' examples (examples/*.mjs) as a child process, as a reader would.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples");
const running: ChildProcess[] = [];

/**
 * Starts `file` with `env` (and command-line `args`); resolves with its output so far once `done(output)` holds, or rejects
 * when it exits before. `done` sees every later output too (tests keep the latest through it).
 */
export function runExample(
  file: string,
  env: Record<string, string>,
  done: (output: string) => boolean,
  args: string[] = [],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(EXAMPLES, file), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.push(child);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (done(output)) resolve(output);
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      if (done(output)) resolve(output);
      else reject(new Error(`${file} exited (${code}) before it was done:\n${output}`));
    });
  });
}

/** Stops every example still running (afterAll). */
export function stopExamples(): void {
  for (const child of running.splice(0)) child.kill();
}
