// `npm start` as a real process for the operations tests (supervision.int.test.ts,
// startup-failures.int.test.ts): scripts/start.ts spawned with its own data directory, its output
// collected, and the helpers to read what it printed and which processes it left behind.
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "../../scripts/lib/pocketbase.ts";
import { freePort, superuserCredentials } from "../../scripts/lib/stack.ts";

export const ROOT = resolve(import.meta.dirname, "../..");

export interface StartProcess {
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects when the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit code, or a rejection when the process has not exited within `timeoutMs`. */
  exited(timeoutMs: number): Promise<number | null>;
}

/**
 * `node --import tsx scripts/start.ts` with only the environment given (plus PATH and HOME): no demo
 * church unless asked, PocketBase on any free port. `command` wraps it (e.g. unshare for a tiny disk).
 */
export function spawnStart(env: Record<string, string>, command: string[] = []): StartProcess {
  const node = [process.execPath, "--import", "tsx", join(ROOT, "scripts/start.ts")];
  const [program, ...args] = [...command, ...node];
  const child = spawn(program!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: tmpdir(), FLOCK_DEMO: "false", PB_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      output += chunk;
      for (const listener of listeners) listener();
    });
  }
  const exit = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolveMatch, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (!match) return;
          done();
          resolveMatch(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`No ${pattern} within ${timeoutMs / 1000} s. Output:\n${output}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exit.then((code) => {
          if (!listeners.has(check)) return;
          check();
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`The process exited (${code}) before printing ${pattern}. Output:\n${output}`));
        });
        check();
      });
    },
    exited(timeoutMs) {
      return Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`Still running after ${timeoutMs / 1000} s. Output:\n${output}`)),
            timeoutMs,
          ).unref(),
        ),
      ]);
    },
  };
}

/** The URL and PocketBase pid a started process printed. */
export async function running(start: StartProcess): Promise<{ url: string; pbUrl: string; pbPid: number }> {
  await start.waitFor(/Press Ctrl-C to stop/, 90_000);
  const url = start.output().match(/Flock is running at (\S+)/)![1]!;
  const [, pbUrl, pid] = start.output().match(/PocketBase at (\S+) \(pid (\d+);/)!;
  return { url, pbUrl: pbUrl!, pbPid: Number(pid) };
}

/** Every process below `pid` (children, grandchildren…), from /proc. */
export async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // "1234 (name with spaces) S 1 …": the parent pid is the second field after the name.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.pop()!;
    for (const [child, ppid] of parents) {
      if (ppid !== parent || found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** True while the process runs (a zombie waiting to be reaped has stopped running). */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/**
 * The program a process runs: the file name of its executable (`node`, `pocketbase`). Not
 * /proc/<pid>/comm, which Node 24 sets to its thread's name ("MainThread").
 */
export async function processName(pid: number): Promise<string> {
  return basename(await readlink(`/proc/${pid}/exe`).catch(() => "?"));
}

/**
 * A data directory with the migrations applied and the system account created, made once and
 * copied for each start: a copy starts in about a second, where applying every migration takes 5–20 s.
 */
export class DataDirTemplate {
  private constructor(readonly dir: string) {}

  static async create(): Promise<DataDirTemplate> {
    const dir = await mkdtemp(join(tmpdir(), "flock-template-"));
    const superuser = await superuserCredentials(dir, {});
    const bin = resolvePocketBaseBinary();
    await upsertSuperuser(bin, dir, superuser.email, superuser.password);
    const pocketbase = await startPocketBase({ bin, dataDir: dir, port: await freePort(), quiet: true });
    await pocketbase.stop();
    return new DataDirTemplate(dir);
  }

  /** A fresh copy (its own directory) of the migrated data. */
  async copy(): Promise<string> {
    const target = await mkdtemp(join(tmpdir(), "flock-ops-"));
    await cp(this.dir, target, { recursive: true });
    return target;
  }

  /** The system account's password kept in a copy (it must never be printed). */
  async password(dir = this.dir): Promise<string> {
    return (JSON.parse(await readFile(join(dir, ".flock", "superuser.json"), "utf8")) as { password: string })
      .password;
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
