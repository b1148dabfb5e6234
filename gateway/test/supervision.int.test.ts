// QUALITY.md R5, as an operator meets it (issue 24): `npm start` as a real process (scripts/start.ts)
// whose PocketBase is killed, which is SIGKILLed itself, and which a second start on the same data
// directory meets. PocketBase must come back and live subscribers resync; nothing may outlive a killed
// start; a second start must refuse, naming the first's pid; no secret may reach a command line.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePocketBaseBinary } from "../../scripts/lib/pocketbase.ts";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import { approvedPublicRequest, kindOf, WALL_SUBSCRIPTION, type WallEvent } from "./realtime-support.ts";
import {
  DataDirTemplate,
  descendants,
  isRunning,
  processName,
  running,
  spawnStart,
  type StartProcess,
} from "./start-process.ts";

let template: DataDirTemplate;
const dirs: string[] = [];
const starts: StartProcess[] = [];
const clients: GraphQLSseClient<WallEvent>[] = [];

beforeAll(async () => {
  template = await DataDirTemplate.create();
});
afterAll(async () => {
  for (const client of clients) client.close();
  for (const start of starts) if (start.child.exitCode === null) start.child.kill("SIGKILL");
  await template?.remove();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await template.copy();
  dirs.push(dir);
  return dir;
}

function start(env: Record<string, string>): StartProcess {
  const process = spawnStart(env);
  starts.push(process);
  return process;
}

async function system(pbUrl: string, dir: string): Promise<PocketBase> {
  const pb = new PocketBase(pbUrl);
  pb.autoCancellation(false);
  const { email, password } = JSON.parse(await readFile(join(dir, ".flock", "superuser.json"), "utf8")) as {
    email: string;
    password: string;
  };
  await pb.collection("_superusers").authWithPassword(email, password);
  return pb;
}

// Each test runs one to three whole `npm start` processes (tsx, PocketBase, the gateway), seconds
// each on a busy 2-core machine: more than the in-process integration tests' 30 s.
describe("npm start supervises PocketBase", { timeout: 90_000 }, () => {
  it("starts PocketBase again after it is killed, and live subscribers resync and keep receiving", async () => {
    const dir = await dataDir();
    const flock = start({ PB_DATA_DIR: dir, PORT: "0" });
    const { url, pbUrl, pbPid } = await running(flock);
    const client = new GraphQLSseClient<WallEvent>({ url, query: WALL_SUBSCRIPTION });
    clients.push(client);
    await client.open();

    process.kill(pbPid, "SIGKILL");
    const [, newPid] = await flock.waitFor(/PocketBase is running again \(pid (\d+)\)/, 30_000);
    expect(Number(newPid)).not.toBe(pbPid);
    expect(flock.output()).toContain("PocketBase stopped (signal SIGKILL); starting it again in 0.5 s.");
    // Same address: the gateway never learns that anything moved.
    expect((await fetch(`${pbUrl}/api/health`)).status).toBe(200);

    // The gateway's realtime bridge reconnects and tells the subscriber to refetch…
    await expect
      .poll(() => client.events.some((e) => kindOf(e) === "RESYNC"), { timeout: 15_000 })
      .toBe(true);
    // …and a request approved afterwards reaches it.
    const request = await approvedPublicRequest(await system(pbUrl, dir), "After the restart");
    await expect
      .poll(
        () => client.events.some((e) => kindOf(e) === "ADDED" && e.data.data?.prayerWall.id === request.id),
        { timeout: 15_000 },
      )
      .toBe(true);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    flock.child.kill("SIGTERM");
    expect(await flock.exited(15_000)).toBe(0);
    expect(await isRunning(Number(newPid))).toBe(false);
  });

  it("refuses a second start on the same data directory, naming the first; SIGKILL of the first leaves nothing running", async () => {
    const dir = await dataDir();
    const first = start({ PB_DATA_DIR: dir, PORT: "0" });
    const { url, pbUrl, pbPid } = await running(first);

    const second = start({ PB_DATA_DIR: dir, PORT: "0" });
    expect(await second.exited(10_000)).toBe(1);
    expect(second.output()).toContain(
      `Flock is already running on the data directory ${dir} (pid ${first.child.pid}, at ${url})`,
    );
    expect(second.output()).not.toMatch(/^\s+at /m);

    // Everything the first start runs: PocketBase, the Markdown workers, tsx's compiler service.
    const below = await descendants(first.child.pid!);
    expect(below).toContain(pbPid);
    expect(
      (await Promise.all(below.map(processName))).filter((name) => name === "node").length,
    ).toBeGreaterThan(0);

    first.child.kill("SIGKILL");
    await expect
      .poll(async () => (await Promise.all(below.map(isRunning))).filter(Boolean).length, { timeout: 10_000 })
      .toBe(0);
    await expect(fetch(`${pbUrl}/api/health`)).rejects.toThrow();

    // The lock went with the process: the directory is free for the next start at once.
    const third = start({ PB_DATA_DIR: dir, PORT: "0" });
    await running(third);
    third.child.kill("SIGTERM");
    expect(await third.exited(15_000)).toBe(0);
  });

  it("never puts the system account's password on a command line", async () => {
    // Every PocketBase command goes through a wrapper that writes down its arguments first.
    const work = await mkdtemp(join(tmpdir(), "flock-argv-"));
    dirs.push(work);
    const log = join(work, "argv.log");
    const wrapper = join(work, "pocketbase");
    await writeFile(
      wrapper,
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${resolvePocketBaseBinary()}' "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    const dir = await dataDir();
    const password = "argv-check-superuser-password-7731";
    const flock = start({
      PB_DATA_DIR: dir,
      PORT: "0",
      POCKETBASE_BIN: wrapper,
      PB_SUPERUSER_EMAIL: "system@argv.test",
      PB_SUPERUSER_PASSWORD: password,
    });
    const { pbUrl } = await running(flock);
    const commands = (await readFile(log, "utf8")).trim().split("\n");
    expect(commands[0]).toMatch(/^system-account .* system@argv\.test$/);
    expect(commands.some((line) => line.startsWith("serve "))).toBe(true);
    expect(commands.join("\n")).not.toContain(password);
    expect(flock.output()).not.toContain(password);
    // The account has that password all the same.
    const pb = new PocketBase(pbUrl);
    await pb.collection("_superusers").authWithPassword("system@argv.test", password);
    flock.child.kill("SIGTERM");
    expect(await flock.exited(15_000)).toBe(0);
  });
});
