// npm run bench:replicas — what a second gateway replica buys on one machine (issue 33): one PocketBase
// with 40 published posts, Redis, two gateway processes in production mode, and nginx in front
// (deploy/nginx/flock-replicas.conf) once with one replica behind it and once with both, interleaved.
// autocannon sends the news page's query (NewsPage: PocketBase's list and the gateway's mapping) and the
// shell's settings read (the gateway alone) at `--connections` at once for `--duration` seconds each.
// Prints requests per second, latency percentiles, errors and each process's CPU per request, then the
// two-replica ÷ one-replica ratio of each round. Needs redis-server and nginx.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import PocketBase from "pocketbase";
import { startBenchStack, stopBenchStack } from "./lib/bench-stack.ts";
import { startNginx, startRedis, startReplica, type Replica } from "./lib/replicas.ts";
import { stopProcess } from "./lib/processes.ts";
import { freePort, superuserCredentials } from "./lib/stack.ts";
import { cpuSeconds, machine } from "./bench-sunday.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "32" },
    rounds: { type: "string", default: "2" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

const NEWS = `query NewsPage { posts(first: 10, status: PUBLISHED) { edges { node { id title path summary publishedAt pinned audience } } pageInfo { hasNextPage endCursor } } }`;
const SETTINGS = `query Shell { settings { churchName tagline brandColor timezone locale } }`;

interface Result {
  label: string;
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  errors: number;
  cpuMsPerRequest: Record<string, number>;
}

async function load(url: string, label: string, pids: Record<string, number>): Promise<Result> {
  const before = Object.fromEntries(
    await Promise.all(Object.entries(pids).map(async ([name, pid]) => [name, await cpuSeconds(pid)])),
  );
  const body = (query: string) => JSON.stringify({ query });
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: `${url}/graphql`,
        connections,
        duration,
        timeout: 10,
        requests: [
          { method: "POST", headers: { "content-type": "application/json" }, body: body(NEWS) },
          { method: "POST", headers: { "content-type": "application/json" }, body: body(SETTINGS) },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    ),
  );
  const count = result.requests.total;
  const after = Object.fromEntries(
    await Promise.all(Object.entries(pids).map(async ([name, pid]) => [name, await cpuSeconds(pid)])),
  );
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMsPerRequest: Object.fromEntries(
      Object.keys(pids).map((name) => [name, ((after[name]! - before[name]!) * 1000) / Math.max(1, count)]),
    ),
  };
}

const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-replicas-"));
const work = await mkdtemp(join(tmpdir(), "flock-bench-replicas-run-"));
const { child, ready } = await startBenchStack(dataDir);
const replicas: Replica[] = [];
const others: Array<Parameters<typeof stopProcess>[0]> = [];
try {
  const superuser = await superuserCredentials(dataDir);
  const su = new PocketBase(ready.pbUrl);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  for (let i = 0; i < 40; i++)
    await su.collection("posts").create({
      title: `Bench post ${i}`,
      slug: `bench-post-${i}`,
      body: `A post of the bench, number ${i}.`,
      summary: `Number ${i}`,
      status: "published",
      publishedAt: new Date(Date.now() - i * 3_600_000).toISOString(),
      audience: "public",
      revision: 1,
    });
  const [redisPort, portA, portB, oneNginx, twoNginx] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const redis = startRedis(redisPort!, work);
  others.push(redis);
  const env = {
    NODE_ENV: "production",
    PB_URL: ready.pbUrl,
    PB_SUPERUSER_EMAIL: superuser.email,
    PB_SUPERUSER_PASSWORD: superuser.password,
    PUBLIC_URL: "http://bench.test",
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    LOG_FORMAT: "json",
  };
  replicas.push(...(await Promise.all([startReplica("a", portA!, env), startReplica("b", portB!, env)])));
  const one = await startNginx([portA!], oneNginx!, join(work, "one"));
  const two = await startNginx([portA!, portB!], twoNginx!, join(work, "two"));
  others.push(one, two);
  const pids = {
    pocketbase: ready.pbPid,
    "gateway a": replicas[0]!.child.pid!,
    "gateway b": replicas[1]!.child.pid!,
    "nginx (one)": one.pid!,
    "nginx (two)": two.pid!,
  };
  console.log(JSON.stringify({ machine: machine(), connections, duration, rounds }));
  // Warm both replicas (JIT, PocketBase's caches) before measuring.
  await load(`http://127.0.0.1:${twoNginx}`, "warm-up", pids);
  const results: Result[] = [];
  for (let round = 1; round <= rounds; round++) {
    results.push(await load(`http://127.0.0.1:${oneNginx}`, `round ${round}: one replica`, pids));
    results.push(await load(`http://127.0.0.1:${twoNginx}`, `round ${round}: two replicas`, pids));
  }
  for (const r of results) {
    const cpu = Object.entries(r.cpuMsPerRequest)
      .filter(([, ms]) => ms > 0.005)
      .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
      .join(", ");
    console.log(
      `${r.label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p97.5 ${r.p97_5} ms, p99 ${r.p99} ms, ${r.errors} errors; CPU ms per request: ${cpu}`,
    );
  }
  for (let round = 1; round <= rounds; round++) {
    const [single, double] = [results[2 * round - 2]!, results[2 * round - 1]!];
    console.log(
      `round ${round}: two ÷ one replica = ${(double.rps / single.rps).toFixed(2)}× requests per second`,
    );
  }
  console.log(JSON.stringify({ loadavg: machine().loadavg }));
} finally {
  await Promise.all([...replicas.map((r) => stopProcess(r.child)), ...others.map((c) => stopProcess(c))]);
  await stopBenchStack(child);
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
}
