// What can stop `npm start` before Flock serves anyone, found before it costs a hang or a stack trace:
// a data directory that is a file, unwritable or on a full disk; a damaged or locked database; a port
// another program holds. Each problem is one StartupError whose message is the one sentence an
// operator reads: the cause and the fix. scripts/start.ts prints only that sentence.
//
// Who holds a lock or a port is read from Linux's /proc (file locks, sockets, process names). Elsewhere
// those lookups find nothing and the sentences leave the process out.
import { constants } from "node:fs";
import { access, mkdir, open, readFile, readdir, readlink, stat, statfs } from "node:fs/promises";
import { join } from "node:path";

/** A start-up failure whose message is the whole explanation (cause and fix): printed without a stack. */
export class StartupError extends Error {
  override name = "StartupError";
}

/** PocketBase's databases in a data directory; data.db is the church's data. */
export const DATABASE_FILES = ["data.db", "auxiliary.db"] as const;

/** Room a start needs: migrations, the demo church's images and audio, and some margin. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

/**
 * The data directory exists (created if missing), is a directory and is writable by this user.
 * `what` names where the path came from, for the fix ("PB_DATA_DIR").
 */
export async function prepareDataDir(dataDir: string, what = "PB_DATA_DIR"): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
    const info = await stat(dataDir);
    if (!info.isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
    await access(dataDir, constants.W_OK);
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST" || code === "ENOTDIR")
      throw new StartupError(
        `The data directory ${dataDir} is not a directory (a file is in the way): point ${what} at a directory (it is created when missing), or move that file.`,
      );
    if (code === "EACCES" || code === "EPERM" || code === "EROFS")
      throw new StartupError(
        `Flock cannot write to the data directory ${dataDir} (${code === "EROFS" ? "read-only file system" : "permission denied"}): give this user write access to it, or point ${what} at another directory.`,
      );
    if (code === "ENOSPC") throw noSpace(dataDir, 0);
    throw error;
  }
}

function noSpace(dataDir: string, free: number): StartupError {
  return new StartupError(
    `The disk holding ${dataDir} has ${formatBytes(free)} free, and Flock needs at least ${formatBytes(MIN_FREE_BYTES)} to start: free some space, or point PB_DATA_DIR at another disk.`,
  );
}

/** Refuses to start on a disk too full to apply migrations and write the first data. */
export async function checkFreeSpace(dataDir: string, minBytes = MIN_FREE_BYTES): Promise<void> {
  const info = await statfs(dataDir);
  const free = info.bavail * info.bsize;
  if (free < minBytes) throw noSpace(dataDir, free);
}

function damaged(file: string, dataDir: string, detail: string): StartupError {
  return new StartupError(
    `The database ${file} is damaged (${detail}): restore the data directory from a backup (docs/DEPLOYMENT.md, "Backups"), or move ${dataDir} aside to start with an empty one.`,
  );
}

/** A database file that is not SQLite at all (overwritten, truncated to garbage) is named before PocketBase fails on it. */
export async function checkDatabaseFiles(dataDir: string): Promise<void> {
  for (const name of DATABASE_FILES) {
    const file = join(dataDir, name);
    const handle = await open(file, "r").catch(() => null);
    if (!handle) continue;
    try {
      const header = Buffer.alloc(SQLITE_HEADER.length);
      const { bytesRead } = await handle.read(header, 0, header.length, 0);
      // An empty file is a valid empty database for SQLite.
      if (bytesRead > 0 && !header.subarray(0, bytesRead).equals(SQLITE_HEADER.subarray(0, bytesRead)))
        throw damaged(file, dataDir, "it is not an SQLite database");
      if (bytesRead > 0 && bytesRead < SQLITE_HEADER.length) throw damaged(file, dataDir, "it is cut short");
    } finally {
      await handle.close();
    }
  }
}

/** "pid 1234, sqlite3", or "pid 1234" when the name cannot be read. */
export async function describeProcess(pid: number): Promise<string> {
  const name = await processName(pid);
  return name ? `pid ${pid}, ${name}` : `pid ${pid}`;
}

export async function processName(pid: number): Promise<string | null> {
  return readFile(`/proc/${pid}/comm`, "utf8").then(
    (name) => name.trim() || null,
    () => null,
  );
}

interface FileLock {
  pid: number;
  write: boolean;
  start: number;
}

/** The POSIX locks other processes hold on a file (SQLite locks byte ranges with fcntl), from /proc/locks. */
async function locksOn(file: string): Promise<FileLock[]> {
  const info = await stat(file).catch(() => null);
  if (!info) return [];
  const table = await readFile("/proc/locks", "utf8").catch(() => "");
  const major = (info.dev >> 8) & 0xfff;
  const minor = (info.dev & 0xff) | ((info.dev >> 12) & 0xfff00);
  const id = `${major.toString(16).padStart(2, "0")}:${minor.toString(16).padStart(2, "0")}:${info.ino}`;
  const locks: FileLock[] = [];
  for (const line of table.split("\n")) {
    // "12: POSIX  ADVISORY  WRITE 4242 fe:00:2244661 1073741824 1073742335"; "->" marks a waiter.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === "->") continue;
    const [, kind, , mode, pid, where, start] = fields;
    if (kind !== "POSIX" || where !== id) continue;
    if (Number(pid) === process.pid) continue;
    locks.push({ pid: Number(pid), write: mode === "WRITE", start: Number(start) });
  }
  return locks;
}

/** SQLite's WAL write lock: byte 120 of the -shm file (sqlite3 wal.c, WAL_WRITE_LOCK). */
const WAL_WRITE_LOCK_OFFSET = 120;

/**
 * Another program using this data directory's database: another PocketBase (it would serve the same
 * data to other subscribers), or any program holding a write lock (PocketBase would wait for it
 * without a word). A program only reading (an idle sqlite3 shell) is no obstacle. `ignorePids`: our own.
 */
export async function databaseInUse(
  dataDir: string,
  ignorePids: number[] = [],
): Promise<StartupError | null> {
  for (const name of DATABASE_FILES) {
    const file = join(dataDir, name);
    const holders = [
      ...(await locksOn(file)),
      ...(await locksOn(`${file}-shm`)).map((lock) => ({ ...lock, shm: true })),
    ].filter((lock) => !ignorePids.includes(lock.pid));
    for (const lock of holders) {
      if ((await processName(lock.pid)) === "pocketbase")
        return new StartupError(
          `Another PocketBase (pid ${lock.pid}) is already using the data directory ${dataDir}: stop it (kill ${lock.pid}) before starting Flock, or point PB_DATA_DIR at another directory.`,
        );
    }
    const writer = holders.find(
      (lock) => lock.write && (!("shm" in lock) || lock.start === WAL_WRITE_LOCK_OFFSET),
    );
    if (writer)
      return new StartupError(
        `The database ${file} is locked by another program (${await describeProcess(writer.pid)}): close it, or stop it (kill ${writer.pid}), then start Flock again.`,
      );
  }
  return null;
}

/** The process listening on a TCP port, from /proc/net/tcp{,6} and the processes' open sockets. */
export async function portHolder(port: number): Promise<string | null> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      // State 0A is LISTEN; the port is the hex after the address's colon.
      if (!local || fields[3] !== "0A" || Number.parseInt(local.split(":")[1] ?? "", 16) !== port) continue;
      if (fields[9] && fields[9] !== "0") inodes.add(fields[9]);
    }
  }
  if (!inodes.size) return null;
  const pids = await readdir("/proc").catch(() => [] as string[]);
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return describeProcess(Number(pid));
    }
  }
  return null;
}

/** The sentence for a port another program holds; `variable` is the setting that chooses it. */
export async function portInUse(port: number, variable: string, service = "Port"): Promise<StartupError> {
  const holder = await portHolder(port);
  return new StartupError(
    `${service} ${port} is already in use${holder ? ` (by ${holder})` : ""}: stop that program, or set ${variable} to a free port.`,
  );
}

/**
 * PocketBase's own last words (stderr) turned into the sentence for a known cause, or null. PocketBase
 * prints SQLite's messages ("file is not a database (26)") and Go's ("bind: address already in use").
 */
export function explainPocketBaseOutput(output: string, dataDir: string, port?: number): StartupError | null {
  if (/file is not a database|database disk image is malformed/i.test(output))
    return damaged(
      join(dataDir, "data.db"),
      dataDir,
      /malformed/i.test(output) ? "SQLite: malformed" : "SQLite: not a database",
    );
  if (/database or disk is full|no space left on device/i.test(output)) return noSpace(dataDir, 0);
  if (/address already in use/i.test(output))
    return new StartupError(
      `PocketBase's port${port ? ` ${port}` : ""} is already in use: stop the program that holds it, or set PB_PORT to a free port.`,
    );
  if (/database is locked|SQLITE_BUSY/i.test(output))
    return new StartupError(
      `The database in ${dataDir} is locked by another program: close the program that has data.db open, then start Flock again.`,
    );
  if (/read-only file system|readonly database|permission denied/i.test(output))
    return new StartupError(
      `Flock cannot write to the data directory ${dataDir} (${/read-only/i.test(output) ? "read-only" : "permission denied"}): give this user write access to it, or point PB_DATA_DIR at another directory.`,
    );
  if (/not a directory/i.test(output))
    return new StartupError(
      `The data directory ${dataDir} is not a directory (a file is in the way): point PB_DATA_DIR at a directory, or move that file.`,
    );
  return null;
}

/** `text` with each secret replaced by "***" (errors from child processes, before they are printed). */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join("***");
  return out;
}

/** The oldest Node.js Flock supports (package.json "engines"; dependencies need 22.12 or newer). */
export const MIN_NODE = [22, 12] as const;

/** One line for a Node.js older than Flock supports, or null. */
export function nodeVersionNote(version = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return null;
  return `Node.js ${version} is older than Flock supports (${MIN_NODE.join(".")} or newer; the current LTS, 24, is recommended, and "nvm install" reads it from .nvmrc): continuing, but this version is untested and past its end of life.`;
}

/** A port from the environment: its number, and whether it was chosen (set) or is the default. */
export function portFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
): { port: number; chosen: boolean } {
  const text = env[name]?.trim();
  if (!text) return { port: fallback, chosen: false };
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(
      `${name} must be a port number from 1 to 65535 (0: any free port); it is "${text}".`,
    );
  return { port, chosen: true };
}
