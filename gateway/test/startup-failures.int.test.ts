// QUALITY.md R5: every start-up failure is one clear sentence, the cause and the fix, within 10 s,
// without a stack trace or a secret (issue 24: a locked data.db hung without a word for 95 s, a
// damaged one printed a stack, a taken port a raw EADDRINUSE after a minute of seeding). Each case
// runs `npm start` (scripts/start.ts) as a real process against a real obstacle.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  resolvePocketBaseBinary,
  startPocketBase,
  type PocketBaseProcess,
} from "../../scripts/lib/pocketbase.ts";
import { freePort, startStack } from "../../scripts/lib/stack.ts";
import { DataDirTemplate, isRunning, spawnStart, type StartProcess } from "./start-process.ts";

/** The bound: a failed start says why within 10 s. */
const EXPLAINED_WITHIN_MS = 10_000;

let template: DataDirTemplate;
const dirs: string[] = [];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  template = await DataDirTemplate.create();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await template?.remove();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await template.copy();
  dirs.push(dir);
  return dir;
}

/**
 * Starts Flock and expects it to exit 1 within 10 s having printed `sentence`: no stack trace, no
 * secret (the system account's password kept in the data directory, when there is one).
 */
async function expectRefused(
  env: Record<string, string>,
  sentence: string | RegExp,
  command: string[] = [],
): Promise<string> {
  const flock: StartProcess = spawnStart(env, command);
  cleanups.push(() => flock.child.exitCode === null && flock.child.kill("SIGKILL"));
  expect(await flock.exited(EXPLAINED_WITHIN_MS)).toBe(1);
  const output = flock.output();
  expect(output).toMatch(typeof sentence === "string" ? new RegExp(escape(sentence)) : sentence);
  expect(output).toContain("Flock could not start.");
  expect(output).not.toMatch(/^\s+at /m);
  const secretDir = env.PB_DATA_DIR;
  if (secretDir && existsSync(join(secretDir, ".flock", "superuser.json")))
    expect(output).not.toContain(await template.password(secretDir));
  return output;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** A program holding a write transaction open on the database, as an sqlite3 shell left in BEGIN EXCLUSIVE does. */
async function holdWriteLock(file: string): Promise<ChildProcess> {
  const sqlite3 = ["/usr/bin/sqlite3", "/bin/sqlite3"].find((path) => existsSync(path));
  const child = sqlite3
    ? spawn(sqlite3, [file], { stdio: ["pipe", "pipe", "inherit"] })
    : spawn(
        "python3",
        [
          "-c",
          "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); c.execute('SELECT count(*) FROM _collections').fetchone(); print('locked', flush=True); sys.stdin.read()",
          file,
        ],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
  cleanups.push(() => child.kill("SIGKILL"));
  if (sqlite3) child.stdin!.write("BEGIN EXCLUSIVE;\nSELECT 'locked' FROM _collections LIMIT 1;\n");
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
    child.once("exit", (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return child;
}

describe("npm start explains why it cannot start", { timeout: 60_000 }, () => {
  it("an explicit PORT another program holds: names the holder, starts nothing", async () => {
    const port = await freePort();
    const server = await listen(port);
    cleanups.push(() => server.close());
    // A new installation: the port is checked before PocketBase creates or migrates anything.
    const dir = join(await mkdtemp(join(tmpdir(), "flock-port-")), "pb_data");
    dirs.push(join(dir, ".."));
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: String(port) },
      `Port ${port} is already in use (by pid ${process.pid}, `,
    );
    expect(existsSync(join(dir, "data.db"))).toBe(false);
  });

  it("the default port another program holds: the gateway takes the next free port and says so (in-process)", async () => {
    const port = await freePort();
    const server = await listen(port);
    cleanups.push(() => server.close());
    const uploadDir = join(await dataDir(), "staging");
    const stack = await startStack({
      dataDir: await dataDir(),
      port,
      portFallback: true,
      pbPort: 0,
      webDist: null,
      demo: false,
      quiet: true,
      trustProxy: true,
      uploadDir,
    });
    try {
      // TRUST_PROXY and UPLOAD_DIR (scripts/start.ts passes them) reach the gateway.
      expect(stack.gateway.services.config.trustProxy).toBe(true);
      expect(stack.gateway.services.audioUploads.directory).toBe(uploadDir);
      expect(stack.portMovedFrom).toEqual({ port, holder: expect.stringContaining(`pid ${process.pid}`) });
      const moved = Number(new URL(stack.url).port);
      expect(moved).not.toBe(port);
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });

  it("a damaged database (not SQLite at all)", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, "data.db"), Buffer.alloc(64 * 1024, 0xab));
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: "0" },
      `The database ${join(dir, "data.db")} is damaged (it is not an SQLite database): restore the data directory from a backup`,
    );
  });

  it("a damaged database (SQLite's header, broken pages)", async () => {
    const dir = await dataDir();
    const file = await open(join(dir, "data.db"), "r+");
    const { size } = await file.stat();
    await file.write(Buffer.alloc(Math.min(size, 256 * 1024) - 8192, 0xab), 0, undefined, 8192);
    await file.close();
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: "0" },
      /is damaged \(SQLite: malformed\): restore the data directory/,
    );
  });

  it("a database another program holds locked, named with its pid", async () => {
    const dir = await dataDir();
    const holder = await holdWriteLock(join(dir, "data.db"));
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: "0" },
      new RegExp(
        `The database ${escape(join(dir, "data.db"))} is locked by another program \\(pid ${holder.pid}, \\w+\\): close it`,
      ),
    );
  });

  it("another PocketBase already serving the data directory", async () => {
    const dir = await dataDir();
    const other: PocketBaseProcess = await startPocketBase({
      bin: resolvePocketBaseBinary(),
      dataDir: dir,
      port: await freePort(),
    });
    cleanups.push(() => other.stop());
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: "0" },
      `Another PocketBase (pid ${other.process.pid}) is already using the data directory ${dir}: stop it`,
    );
    // Refused, not fought over: the other one still runs.
    expect(await isRunning(other.process.pid!)).toBe(true);
  });

  it("a data directory that is a file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "flock-notdir-"));
    dirs.push(dir);
    const file = join(dir, "pb_data");
    await writeFile(file, "not a directory\n");
    await expectRefused(
      { PB_DATA_DIR: file, PORT: "0" },
      `The data directory ${file} is not a directory (a file is in the way): point PB_DATA_DIR at a directory`,
    );
  });

  it("a full disk", async () => {
    // A 1 MB file system of this test's own (a tmpfs in a private mount namespace: no root needed).
    const mountPoint = await mkdtemp(join(tmpdir(), "flock-full-"));
    dirs.push(mountPoint);
    const dir = join(mountPoint, "pb_data");
    await expectRefused(
      { PB_DATA_DIR: dir, PORT: "0" },
      new RegExp(
        `The disk holding ${escape(dir)} has [\\d.]+ (KB|MB) free, and Flock needs at least 64\\.0 MB to start: free some space`,
      ),
      [
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        "--",
        "sh",
        "-c",
        'mount -t tmpfs -o size=1m flock-full "$0" && exec "$@"',
        mountPoint,
      ],
    );
  });

  it("a PB_SUPERUSER_PASSWORD_FILE that cannot be read", async () => {
    const dir = await dataDir();
    await mkdir(join(dir, "secrets"));
    const missing = join(dir, "secrets", "missing");
    await expectRefused(
      {
        PB_DATA_DIR: dir,
        PORT: "0",
        PB_SUPERUSER_EMAIL: "system@x.test",
        PB_SUPERUSER_PASSWORD_FILE: missing,
      },
      `PB_SUPERUSER_PASSWORD_FILE names ${missing}, which cannot be read (ENOENT).`,
    );
  });
});
