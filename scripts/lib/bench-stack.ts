// A benchmark's throw-away stack (PocketBase + gateway in production mode, no demo church) in a child
// process, so that the load generator does not share the gateway's event loop. The child is
// bench-stack-child.ts; a benchmark starts it with startBenchStack and stops it with stopBenchStack.
import { fork, type ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./pocketbase.ts";

/** Where --cpu-prof writes the gateway's V8 CPU profiles. */
export const PROFILE_DIR = join(tmpdir(), "flock-bench-profiles");

/** What the child sends once the stack answers. */
export interface BenchStackReady {
  type: "ready";
  url: string;
  pbUrl: string;
  pbPid: number;
}

export async function startBenchStack(
  dataDir: string,
  options: { cpuProfile?: boolean } = {},
): Promise<{ child: ChildProcess; ready: BenchStackReady }> {
  // The child inherits this process's exec arguments, which carry tsx's loader.
  const execArgv = [
    ...process.execArgv,
    ...(options.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []),
  ];
  const child = fork(fileURLToPath(new URL("./bench-stack-child.ts", import.meta.url)), [dataDir], {
    cwd: ROOT,
    execArgv,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<BenchStackReady>((resolve, reject) => {
    child.once("message", (message) => resolve(message as BenchStackReady));
    child.once("exit", (code) => reject(new Error(`The stack exited during start-up (code ${code}).`)));
  });
  return { child, ready };
}

export async function stopBenchStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    child.send("stop");
  } catch {
    /* the channel is already closed: it is stopping by itself */
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
