// One Flock per data directory. Two PocketBase processes on one directory both answer, and each
// sends realtime events only to its own subscribers: a chat message posted through the second never
// reached the first's (issue 24). So the process that runs the stack holds a lock named after the
// directory, and a second start asks the holder who it is and refuses with its pid.
//
// The lock is a listening Unix socket. On Linux it lives in the abstract namespace (a name, no file):
// the kernel frees it the moment the holder dies, even by SIGKILL, so a crash never leaves a stale
// lock behind, and binding is atomic, so two starts cannot both win. Elsewhere it is a socket file in
// the temp folder; one that nobody answers on any more is a stale leftover and is replaced.
import { createHash } from "node:crypto";
import { realpath, rm } from "node:fs/promises";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StartupError } from "./startup-checks.ts";

/** What the holder tells a second start. */
export interface InstanceInfo {
  pid: number;
  /** The address it serves, once it knows it. */
  url?: string;
}

export interface InstanceLock {
  /** Tell later starts where this instance serves. */
  setUrl(url: string): void;
  release(): Promise<void>;
}

async function lockAddress(dataDir: string): Promise<string> {
  const key = createHash("sha256")
    .update(await realpath(dataDir))
    .digest("hex")
    .slice(0, 32);
  return process.platform === "linux" ? `\0flock-data-${key}` : join(tmpdir(), `flock-data-${key}.sock`);
}

/** Asks the lock's holder who it is; null when nobody answers (a stale socket file). */
function askHolder(address: string): Promise<InstanceInfo | null> {
  return new Promise((resolve) => {
    let text = "";
    const socket = createConnection(address);
    socket.setTimeout(2000, () => socket.destroy());
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => resolve(null));
    socket.on("close", () => {
      try {
        resolve(JSON.parse(text) as InstanceInfo);
      } catch {
        // Something answers but says nothing we understand: still taken.
        resolve(text ? { pid: 0 } : null);
      }
    });
  });
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Takes the data directory's lock for this process, or throws a StartupError naming the instance
 * that has it. The directory must exist.
 */
export async function lockDataDir(dataDir: string): Promise<InstanceLock> {
  const address = await lockAddress(dataDir);
  const info: InstanceInfo = { pid: process.pid };
  const server = createServer((socket) => socket.end(JSON.stringify(info)));
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt > 0) throw error;
      const holder = await askHolder(address);
      if (holder) {
        const who = holder.pid ? `pid ${holder.pid}` : "another process";
        throw new StartupError(
          `Flock is already running on the data directory ${dataDir} (${who}${holder.url ? `, at ${holder.url}` : ""}): use that one, stop it first${holder.pid ? ` (Ctrl-C in its terminal, or kill ${holder.pid})` : ""}, or point PB_DATA_DIR at another directory.`,
        );
      }
      // A socket file left by a holder that died: nobody answers, so it is free.
      await rm(address, { force: true });
    }
  }
  // The lock never keeps the process alive by itself.
  server.unref();
  return {
    setUrl(url) {
      info.url = url;
    },
    release: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
      }),
  };
}
