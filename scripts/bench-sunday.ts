// `npm run bench -- --scenario=sunday`: QUALITY.md P3, Sunday morning.
//
// 200 signed-in members and 50 guests, all from ONE client IP (a church's Wi-Fi behind NAT), browse
// the way the web app does: each page view sends the app's own GraphQL operations (the shell and the
// notification bell on a fresh load, then the page's query), then the person reads for about 5 s
// (uniform 2.5–7.5 s) before the next view. Mix for members: home 20 % (its news, the next events,
// the latest sermon), news 15 %, a post 10 %, prayer wall 15 %, directory 10 %, notifications 10 %,
// the events calendar 8 %, the group finder 5 %, sermons 4 %, their groups and events on /me 3 %;
// guests: home, news, a post, the wall, the calendar, sermons.
// Data: the demo church plus scripts/lib/seed-scale.ts's "sunday" shape (150 households, 420 people,
// 200 member logins, 60 posts, 80 prayer requests).
//
// Prints p50/p95/p99 per operation and overall, errors, and the resident memory of the gateway and
// PocketBase; writes everything as JSON. Target (P3): p95 ≤ 150 ms, p99 ≤ 300 ms, 0 errors.
import { writeFile, mkdir, readFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import PocketBase from "pocketbase";
import { DEMO_PASSWORD } from "./lib/seed.ts";
import { seedScale, SCALE_SHAPES, pool } from "./lib/seed-scale.ts";
import { webOperations } from "./lib/web-operations.ts";

export interface SundayOptions {
  url: string;
  pbUrl: string;
  superuser: { email: string; password: string };
  gatewayPid: number;
  pbPid: number;
  members: number;
  guests: number;
  /** Measured seconds (after a ramp of one think time). */
  seconds: number;
  thinkMs: number;
  /** Every post, event and sermon back to draft first: a church that does not use those modules (issue 25). */
  emptyChurch?: boolean;
  /** The gateway's event-loop delay since the last call, in ms (the first call starts the window). */
  gatewayEventLoop?: () => Promise<{ p50: number; p99: number; max: number }>;
  jsonPath: string;
}

export interface LatencyStats {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function stats(latencies: number[], errors = 0): LatencyStats {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    errors,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Resident memory of a process in MB (Linux /proc), or NaN. */
export async function rssMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc), or NaN. */
export async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the name), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export function machine() {
  return {
    cpus: availableParallelism(),
    model: cpus()[0]?.model ?? "unknown",
    loadavg: loadavg().map((n) => Number(n.toFixed(2))),
    node: process.version,
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1024 });

export interface GraphqlCall {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
}

/** One POST /graphql; resolves with the time to the last byte and whether the answer is data without errors. */
export function graphqlRequest(
  url: string,
  token: string | null,
  call: GraphqlCall,
): Promise<{ ms: number; ok: boolean; detail: string }> {
  const body = JSON.stringify({
    query: call.query,
    variables: call.variables ?? {},
    operationName: call.name,
  });
  const started = performance.now();
  const attempt = (retry: boolean): Promise<{ ms: number; ok: boolean; detail: string }> =>
    new Promise((resolve) => {
      const req = request(
        `${url}/graphql`,
        {
          method: "POST",
          agent,
          timeout: 30_000,
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "content-length": Buffer.byteLength(body),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => {
            const ok = res.statusCode === 200 && text.startsWith('{"data":') && !text.includes('"errors"');
            resolve({
              ms: performance.now() - started,
              ok,
              detail: ok ? "" : `${res.statusCode} ${text.slice(0, 200)}`,
            });
          });
          res.on("error", (error) =>
            resolve({ ms: performance.now() - started, ok: false, detail: String(error) }),
          );
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while idle (the gateway keeps them 65 s, longer than
        // any think time, so this is rare): browsers retry such a request on a new connection, and so
        // does this client.
        if (retry && req.reusedSocket && error.code === "ECONNRESET") resolve(attempt(false));
        else resolve({ ms: performance.now() - started, ok: false, detail: String(error) });
      });
      req.end(body);
    });
  return attempt(true);
}

interface View {
  name: string;
  weight: number;
  calls(): GraphqlCall[];
}

function pick<T extends { weight: number }>(items: T[]): T {
  const total = items.reduce((n, i) => n + i.weight, 0);
  let r = Math.random() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSunday(options: SundayOptions): Promise<{ targetsMet: boolean; correct: boolean }> {
  const system = new PocketBase(options.pbUrl);
  system.autoCancellation(false);
  await system
    .collection("_superusers")
    .authWithPassword(options.superuser.email, options.superuser.password);

  process.stdout.write(
    `Seeding the Sunday church (${SCALE_SHAPES.sunday.households} households, ${SCALE_SHAPES.sunday.people} people, ${options.members} member logins)… `,
  );
  const seeded = await seedScale(system, { ...SCALE_SHAPES.sunday, members: options.members }, DEMO_PASSWORD);
  console.log(`${seeded.seconds.toFixed(0)} s`);
  // Member sessions: tokens from PocketBase's impersonation (no password hashing for 200 sign-ins;
  // sign-in bursts are P4's subject). The gateway treats them like any member token.
  const tokens = await pool(
    seeded.memberIds,
    8,
    async (id) => (await system.collection("users").impersonate(id, 3600)).authStore.token,
  );

  if (options.emptyChurch) {
    process.stdout.write("Every post, event and sermon back to draft (--empty-church)… ");
    for (const collection of ["posts", "events", "sermons"]) {
      const rows = await system
        .collection(collection)
        .getFullList({ fields: "id", filter: 'status != "draft"' });
      await pool(rows, 8, (row) => system.collection(collection).update(row.id, { status: "draft" }));
    }
    console.log("done");
  }

  const ops = await webOperations();
  const op = (name: string, variables?: Record<string, unknown>): GraphqlCall => {
    const query = ops.get(name);
    if (!query) throw new Error(`The web app has no operation named ${name}.`);
    return { name, query, variables };
  };
  const slug = () => seeded.postSlugs[Math.floor(Math.random() * seeded.postSlugs.length)]!;
  // The month on the calendar page (the web app asks for the weeks the month view shows; a month is close).
  const month = () => {
    const now = new Date();
    return {
      from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    };
  };
  // Each view makes the calls its page makes (the home page: its news, the next events, the latest sermon).
  const home = () => [op("HomeNews"), op("UpcomingEvents"), op("LatestSermon")];
  const memberViews: View[] = [
    { name: "home", weight: 20, calls: home },
    { name: "news", weight: 15, calls: () => [op("NewsPage")] },
    { name: "post", weight: 10, calls: () => [op("PostPage", { slug: slug() })] },
    {
      name: "prayer",
      weight: 15,
      calls: () => [op("PrayerWall", { first: 20, filter: "ALL" }), op("MyPrayerRequests", { first: 5 })],
    },
    { name: "directory", weight: 10, calls: () => [op("DirectoryPage", { first: 20, search: null })] },
    { name: "notifications", weight: 10, calls: () => [op("Notifications", { first: 20 })] },
    { name: "events", weight: 8, calls: () => [op("EventsCalendar", month())] },
    { name: "groups", weight: 5, calls: () => [op("GroupFinder", {})] },
    { name: "sermons", weight: 4, calls: () => [op("SermonsPage", {})] },
    { name: "me", weight: 3, calls: () => [op("MyGroups"), op("MyUpcomingEvents")] },
  ];
  const guestViews: View[] = [
    { name: "home", weight: 35, calls: home },
    { name: "news", weight: 25, calls: () => [op("NewsPage")] },
    { name: "post", weight: 15, calls: () => [op("PostPage", { slug: slug() })] },
    { name: "prayer", weight: 10, calls: () => [op("PrayerWall", { first: 20, filter: "ALL" })] },
    { name: "events", weight: 10, calls: () => [op("EventsCalendar", month())] },
    { name: "sermons", weight: 5, calls: () => [op("SermonsPage", {})] },
  ];
  // A fresh load (first visit, a link opened from elsewhere: one view in five) also loads the shell,
  // and for members the bell.
  const shell = (member: boolean) =>
    member ? [op("AppShell"), op("Notifications", { first: 20 })] : [op("AppShell")];

  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const errorSamples: string[] = [];
  const viewTimes: number[] = [];
  const rampMs = options.thinkMs;
  const start = performance.now();
  const measuring = () => performance.now() - start >= rampMs;
  const endAt = start + rampMs + options.seconds * 1000;

  // Requests the load generator has sent and not yet had answered: sampled every 100 ms while measuring.
  let inFlight = 0;
  const inFlightSamples: number[] = [];
  const inFlightSampler = setInterval(() => measuring() && inFlightSamples.push(inFlight), 100);
  const visitor = async (token: string | null) => {
    const member = token !== null;
    await sleep(Math.random() * rampMs);
    let fresh = true;
    while (performance.now() < endAt) {
      const view = pick(member ? memberViews : guestViews);
      const calls = [...(fresh || !member ? shell(member) : []), ...view.calls()];
      fresh = Math.random() < 0.2;
      const began = performance.now();
      inFlight += calls.length;
      const results = await Promise.all(
        calls.map((call) =>
          graphqlRequest(options.url, token, call).then((r) => {
            inFlight--;
            return { call, ...r };
          }),
        ),
      );
      if (measuring()) {
        viewTimes.push(performance.now() - began);
        for (const r of results) {
          const key = `${r.call.name}${member ? "" : " (guest)"}`;
          if (!latencies.has(key)) latencies.set(key, []);
          latencies.get(key)!.push(r.ms);
          if (!r.ok) {
            errors.set(key, (errors.get(key) ?? 0) + 1);
            if (errorSamples.length < 5) errorSamples.push(`${key}: ${r.detail}`);
          }
        }
      }
      await sleep(options.thinkMs * (0.5 + Math.random()));
    }
  };

  const rss = { gateway: [] as number[], pocketbase: [] as number[] };
  // CPU used by each process over the measured window: where the time goes, whatever the load.
  const cpuAt = async () => ({
    gateway: await cpuSeconds(options.gatewayPid),
    pocketbase: await cpuSeconds(options.pbPid),
    generator: process.cpuUsage(),
  });
  let cpuStart: Awaited<ReturnType<typeof cpuAt>> | null = null;
  const cpuTimer = setTimeout(() => {
    void cpuAt().then((c) => (cpuStart = c));
    void options.gatewayEventLoop?.(); // starts the measured window
  }, rampMs);
  const sampler = setInterval(() => {
    void rssMb(options.gatewayPid).then((mb) => rss.gateway.push(mb));
    void rssMb(options.pbPid).then((mb) => rss.pocketbase.push(mb));
  }, 1000);
  console.log(
    `Sunday: ${tokens.length} members + ${options.guests} guests from one IP, ${options.thinkMs / 1000} s think time, ${rampMs / 1000} s ramp + ${options.seconds} s measured…`,
  );
  await Promise.all([
    ...tokens.map((t) => visitor(t)),
    ...Array.from({ length: options.guests }, () => visitor(null)),
  ]);
  clearInterval(sampler);
  clearInterval(inFlightSampler);
  clearTimeout(cpuTimer);
  const cpuEnd = await cpuAt();
  const eventLoop = (await options.gatewayEventLoop?.()) ?? null;
  const sortedInFlight = [...inFlightSamples].sort((a, b) => a - b);
  const inFlightStats = {
    mean: sortedInFlight.reduce((n, v) => n + v, 0) / Math.max(1, sortedInFlight.length),
    p95: percentile(sortedInFlight, 0.95),
    max: sortedInFlight[sortedInFlight.length - 1] ?? 0,
  };
  const measuredSeconds = (performance.now() - start - rampMs) / 1000;

  // Report
  const all: number[] = [];
  let errorCount = 0;
  const operations: Record<string, LatencyStats> = {};
  for (const [name, values] of [...latencies].sort(([a], [b]) => a.localeCompare(b))) {
    operations[name] = stats(values, errors.get(name) ?? 0);
    all.push(...values);
    errorCount += errors.get(name) ?? 0;
  }
  const overall = stats(all, errorCount);
  const began = cpuStart as Awaited<ReturnType<typeof cpuAt>> | null;
  const cpu = began
    ? {
        gatewaySeconds: cpuEnd.gateway - began.gateway,
        pocketbaseSeconds: cpuEnd.pocketbase - began.pocketbase,
        generatorSeconds:
          (cpuEnd.generator.user + cpuEnd.generator.system - began.generator.user - began.generator.system) /
          1e6,
        measuredSeconds,
      }
    : null;
  const perRequest = (seconds: number) =>
    cpu && overall.count ? (seconds * 1000) / overall.count : Number.NaN;
  const pageViews = stats(viewTimes);
  const peak = (values: number[]) => Math.max(...values.filter((v) => !Number.isNaN(v)));
  const memory = {
    gatewayPeakMb: peak(rss.gateway),
    gatewayEndMb: rss.gateway[rss.gateway.length - 1] ?? Number.NaN,
    pocketbasePeakMb: peak(rss.pocketbase),
    pocketbaseEndMb: rss.pocketbase[rss.pocketbase.length - 1] ?? Number.NaN,
  };
  const f = (n: number, digits = 1) => (Number.isNaN(n) ? "-" : n.toFixed(digits));
  const rows = [["operation", "requests", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"]];
  for (const [name, s] of Object.entries(operations))
    rows.push([name, String(s.count), f(s.p50), f(s.p95), f(s.p99), f(s.max), String(s.errors)]);
  rows.push([
    "overall",
    String(overall.count),
    f(overall.p50),
    f(overall.p95),
    f(overall.p99),
    f(overall.max),
    String(overall.errors),
  ]);
  rows.push([
    "(page views)",
    String(pageViews.count),
    f(pageViews.p50),
    f(pageViews.p95),
    f(pageViews.p99),
    f(pageViews.max),
    "",
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(
    `\nP3: Sunday morning (QUALITY.md)\n\n${[line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n")}\n`,
  );
  console.log(
    `Throughput ${(overall.count / measuredSeconds).toFixed(1)} req/s; memory: gateway ${f(memory.gatewayPeakMb)} MB peak (${f(memory.gatewayEndMb)} at end), PocketBase ${f(memory.pocketbasePeakMb)} MB peak (${f(memory.pocketbaseEndMb)} at end).`,
  );
  if (cpu) {
    console.log(
      `CPU over ${f(cpu.measuredSeconds)} s: gateway ${f(cpu.gatewaySeconds)} s (${f(perRequest(cpu.gatewaySeconds), 2)} ms per request), ` +
        `PocketBase ${f(cpu.pocketbaseSeconds)} s (${f(perRequest(cpu.pocketbaseSeconds), 2)} ms per request), load generator ${f(cpu.generatorSeconds)} s; machine load ${loadavg()[0]!.toFixed(1)}.`,
    );
  }
  console.log(
    `Requests in flight (sampled every 100 ms): mean ${f(inFlightStats.mean)}, p95 ${f(inFlightStats.p95, 0)}, max ${f(inFlightStats.max, 0)}` +
      (eventLoop
        ? `; the gateway's event-loop delay: p50 ${f(eventLoop.p50)} ms, p99 ${f(eventLoop.p99)} ms, max ${f(eventLoop.max)} ms.`
        : "."),
  );
  if (errorSamples.length) console.log(`Errors, first ones:\n  ${errorSamples.join("\n  ")}`);
  const targetsMet = overall.p95 <= 150 && overall.p99 <= 300 && errorCount === 0;
  console.log(
    `Target p95 ≤ 150 ms, p99 ≤ 300 ms, 0 errors: ${targetsMet ? "PASS" : "FAIL"} (p95 ${f(overall.p95)}, p99 ${f(overall.p99)}, errors ${errorCount}).`,
  );

  const report = {
    scenario: "sunday",
    date: new Date().toISOString(),
    machine: machine(),
    config: {
      members: tokens.length,
      guests: options.guests,
      seconds: options.seconds,
      thinkMs: options.thinkMs,
      oneClientIp: true,
      emptyChurch: options.emptyChurch ?? false,
      data: SCALE_SHAPES.sunday,
      seedSeconds: seeded.seconds,
    },
    operations,
    overall,
    pageViews,
    throughputPerSecond: overall.count / measuredSeconds,
    memory,
    inFlight: inFlightStats,
    gatewayEventLoopMs: eventLoop,
    cpu: cpu
      ? {
          ...cpu,
          gatewayMsPerRequest: perRequest(cpu.gatewaySeconds),
          pocketbaseMsPerRequest: perRequest(cpu.pocketbaseSeconds),
        }
      : null,
    errorSamples,
    targets: { p95Ms: 150, p99Ms: 300, errors: 0, met: targetsMet },
  };
  await mkdir(dirname(options.jsonPath), { recursive: true });
  await writeFile(options.jsonPath, JSON.stringify(report, null, 2));
  console.log(`JSON written to ${options.jsonPath}`);
  return { targetsMet, correct: errorCount === 0 };
}

export const defaultJsonPath = (scenario: string) => join(tmpdir(), "flock-bench", `${scenario}.json`);
