// TEMPORARY (profiling helper, to be deleted)
import autocannon from "autocannon";
import { fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
const which = process.argv[2] ?? "settings";
const conns = Number(process.argv[3] ?? 10);
const dataDir = await mkdtemp(join(tmpdir(), "flock-prof-"));
const child = fork(join(import.meta.dirname, "bench.ts"), ["--serve", dataDir], { execArgv: [...process.execArgv, "--cpu-prof", "--cpu-prof-dir=/tmp/flock-prof2"], env: { ...process.env, NODE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
const ready = await new Promise<{ url: string; pbUrl: string }>((r) => child.once("message", (m) => r(m as never)));
const tok = async (e: string) => (await new PocketBase(ready.pbUrl).collection("users").authWithPassword(e, "grace-demo-2026")).token;
const q: Record<string, [string, string | null]> = {
  settings: ["{ settings { churchName tagline serviceTimes { day time label } } }", null],
  roles: ["{ roles { id name permissions } }", await tok("member@grace.example")],
  users: ["{ users(first: 20) { edges { node { id email name roles { name } } } } }", await tok("admin@grace.example")],
};
const [query, token] = q[which]!;
const run = (d: number) => new Promise<autocannon.Result>((res, rej) => autocannon({ url: `${ready.url}/graphql`, method: "POST", connections: conns, duration: d, headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query }) }, (e, r) => (e ? rej(e) : res(r))));
await run(2);
const r = await run(Number(process.argv[4] ?? 8));
console.log(which, "rps", r.requests.average, "p50", r.latency.p50, "non2xx", r.non2xx);
child.send("stop");
await new Promise((r) => child.once("exit", r));
await rm(dataDir, { recursive: true, force: true });
