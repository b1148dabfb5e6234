// `npm run bench`: QUALITY.md P1, the gateway's overhead on simple reads.
//
// Starts a throw-away stack (PocketBase + gateway, demo church) and measures three reads twice, once
// straight from PocketBase's REST API and once through the gateway's /graphql, with autocannon:
//   - concurrency 1: median latency (p50)      target: gateway p50 ≤ direct p50 + 3 ms
//   - concurrency 10: throughput and p95        target: gateway req/s ≥ 0.6 × direct, p95 ≤ 2 × direct
// Machines are shared and noisy, so the targets are ratios taken in one run, and a missed target only
// fails the command with --strict. Wrong answers (non-2xx, connection errors, GraphQL errors, bodies
// that do not hold the expected data) always fail it: they mean the numbers measure the wrong thing.
//
// Options:
//   --strict           exit 1 when a P1 target is missed
//   --duration=<s>     seconds per measurement (default 5, taken in 1 s slices)
//   --only=<name>      only one read: settings, roles or users
//   --cpu-prof         write a V8 CPU profile of the gateway process to $TMPDIR/flock-bench-profiles/
//   --scenario=<name>  only one scenario (default: p1 and p5):
//                      p1      the reads below
//                      p5      realtime (scripts/bench-realtime.ts)
//                      chat    P5 for a group chat: 200 members each subscribed as themself (scripts/bench-chat.ts);
//                              --members=
//                      sunday  P3, 200 members + 50 guests from one IP (scripts/bench-sunday.ts);
//                              --members=, --guests=, --seconds= (default 60), --think-ms= (default 5000),
//                              --empty-church (every post, event and sermon back to draft: a church that
//                              does not use those modules); reports requests in flight and the gateway's
//                              event-loop delay
//                      lists   P1 at concurrency 10 for the news list, prayer wall and directory
//                      scale   F4, member vs guest at 2,000 people / 500 posts (scripts/bench-lists.ts)
//   --keep-data        keep the throw-away data directory (PocketBase's request log: where its time went)
//   --json=<path>      where sunday, lists and scale write their JSON (default $TMPDIR/flock-bench/)
//   --p5-selection=lean  P5 with record fields only (the transport without per-viewer field lookups)
//
// P5 (scripts/bench-realtime.ts): 500 SSE subscribers of the prayer wall through the gateway, 20
// timestamped changes; p50/p99 delivery latency and lost deliveries (p50 ≤ 100 ms, p99 ≤ 500 ms,
// none lost), gated only with --strict like P1.
//
// The gateway runs in a child process of this script (`--serve`), configured as in production
// (NODE_ENV=production): in this process it would share one event loop with autocannon, and the load
// generator's own work would be billed to the gateway.
import autocannon from "autocannon";
import { fork, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import PocketBase from "pocketbase";
import { ROOT } from "./lib/pocketbase.ts";
import { DEMO_PASSWORD } from "./lib/seed.ts";
import { startStack, superuserCredentials } from "./lib/stack.ts";
import { runP5 } from "./bench-realtime.ts";
import { runChatP5 } from "./bench-chat.ts";
import { defaultJsonPath, runSunday } from "./bench-sunday.ts";
import { runLists, runScale } from "./bench-lists.ts";

const args = process.argv.slice(2);
const PROFILE_DIR = join(tmpdir(), "flock-bench-profiles");
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** What the child sends once its stack is up. */
interface ReadyMessage {
  type: "ready";
  url: string;
  pbUrl: string;
  pbPid: number;
}

/** The gateway's event-loop delay since the last ask, in ms (see serve). */
export interface EventLoopMessage {
  type: "event-loop";
  p50: number;
  p99: number;
  max: number;
}

/** Asks the stack's process for its event-loop delay (and starts a new window). */
function eventLoopOf(child: ChildProcess): () => Promise<Omit<EventLoopMessage, "type">> {
  return () =>
    new Promise((resolve) => {
      const answer = (message: unknown) => {
        if ((message as { type?: string }).type !== "event-loop") return;
        child.off("message", answer);
        const { p50, p99, max } = message as EventLoopMessage;
        resolve({ p50, p99, max });
      };
      child.on("message", answer);
      child.send("event-loop");
    });
}

// ---------------------------------------------------------------------------------------------
// Child: run the stack until told to stop.
// ---------------------------------------------------------------------------------------------

async function serve(dataDir: string): Promise<void> {
  const stack = await startStack({
    dataDir,
    port: 0,
    pbPort: 0,
    webDist: null,
    demo: true,
    quiet: true,
    production: true,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // process.exit (not a signal) so that --cpu-prof writes its profile.
    void stack.stop().finally(() => process.exit(0));
  };
  // The gateway's event-loop delay (P3 reports it): the parent asks "event-loop" for the figures since
  // the last ask (so the first ask, at the end of the ramp, starts the measured window).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on("message", (message) => {
    if (message === "stop") stop();
    if (message === "event-loop") {
      const ms = (ns: number) => ns / 1e6;
      process.send!({
        type: "event-loop",
        p50: ms(loop.percentile(50)),
        p99: ms(loop.percentile(99)),
        max: ms(loop.max),
      } satisfies EventLoopMessage);
      loop.reset();
    }
  });
  process.on("disconnect", stop); // the parent died: do not leave PocketBase running
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop); // Ctrl-C reaches the whole process group
  process.send!({
    type: "ready",
    url: stack.url,
    pbUrl: stack.pbUrl,
    pbPid: stack.pocketbase.process.pid ?? 0,
  } satisfies ReadyMessage);
}

// ---------------------------------------------------------------------------------------------
// Parent: the measurements.
// ---------------------------------------------------------------------------------------------

interface Target {
  /** autocannon options for this request (url, method, headers, body). */
  request: Pick<autocannon.Options, "url" | "method" | "headers" | "body">;
  /** Cheap check run on every response body (a false counts as an error). */
  looksRight(body: string): boolean;
  /** The data the read returns, normalized so that direct and gateway answers can be compared. */
  normalize(json: unknown): unknown;
}

interface Read {
  name: string;
  description: string;
  direct: Target;
  gateway: Target;
}

interface Measurement {
  requests: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  /** Bodies that failed `looksRight` (GraphQL errors, missing data). */
  badBodies: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Raw figures of one path, accumulated over several autocannon runs. */
class Sample {
  readonly latencies: number[] = [];
  seconds = 0;
  errors = 0;
  non2xx = 0;
  badBodies = 0;

  summary(): Measurement {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      requests: sorted.length,
      errors: this.errors,
      non2xx: this.non2xx,
      badBodies: this.badBodies,
      rps: sorted.length / this.seconds,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
    };
  }
}

/**
 * One autocannon run, added to `into`. Latencies are collected from the per-response events as
 * floating-point milliseconds: autocannon's own histogram rounds to whole milliseconds, too coarse
 * for a 3 ms budget.
 */
function run(target: Target, connections: number, seconds: number, into: Sample): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        ...target.request,
        connections,
        duration: seconds,
        timeout: 10,
        verifyBody: (body) => target.looksRight(body),
      },
      (error, result) => {
        if (error) return reject(error);
        into.seconds += result.duration;
        into.errors += result.errors;
        into.non2xx += result.non2xx;
        into.badBodies += result.mismatches;
        resolve();
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      into.latencies.push(responseTime);
    });
  });
}

/**
 * Direct and gateway in alternating one-second slices (direct first, then gateway first, …) rather
 * than one block each: a shared machine's load drifts over seconds, and interleaving gives both
 * paths the same share of the good and the bad moments, which keeps their ratio honest.
 */
async function compare(
  read: Read,
  connections: number,
  seconds: number,
): Promise<{ direct: Measurement; gateway: Measurement }> {
  const direct = new Sample();
  const gateway = new Sample();
  for (let slice = 0; slice < seconds; slice++) {
    const pair: [Target, Sample][] = [
      [read.direct, direct],
      [read.gateway, gateway],
    ];
    if (slice % 2 === 1) pair.reverse();
    for (const [target, sample] of pair) await run(target, connections, 1, sample);
  }
  return { direct: direct.summary(), gateway: gateway.summary() };
}

async function json(target: Target): Promise<unknown> {
  const { url, method, headers, body } = target.request;
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${method ?? "GET"} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  if (!target.looksRight(text))
    throw new Error(`${method ?? "GET"} ${url} answered an unexpected body: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

function graphql(url: string, query: string, token: string | null): Target["request"] {
  return {
    url: `${url}/graphql`,
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query }),
  };
}

// A GraphQL answer is right when it has data and no "errors" key; the cheap string test runs on
// every response, the full comparison once per read (see verifyData).
const graphqlOk = (field: string) => (body: string) =>
  body.startsWith(`{"data":{"${field}":`) && !body.includes(`"errors"`);
const restListOk = (body: string) => body.startsWith("{") && body.includes(`"items":[{`);

type Json = Record<string, unknown>;
const items = (json: unknown) => (json as { items: Json[] }).items;
const data = (json: unknown, field: string) => (json as { data: Json }).data[field];

const READ_NAMES = ["settings", "roles", "users"];

function reads(url: string, pbUrl: string, memberToken: string, adminToken: string): Read[] {
  const pbGet = (path: string, token: string | null): Target["request"] => ({
    url: `${pbUrl}${path}`,
    method: "GET",
    headers: token ? { authorization: token } : {},
  });
  return [
    {
      name: "settings",
      description: "public settings (guest)",
      direct: {
        request: pbGet("/api/collections/settings/records?perPage=1&skipTotal=1", null),
        looksRight: restListOk,
        normalize: (json) => {
          const s = items(json)[0]!;
          const times = s.serviceTimes as { day: string; time: string; label: string }[];
          return {
            churchName: s.churchName,
            tagline: s.tagline,
            serviceTimes: times.map((t) => ({ day: t.day.toUpperCase(), time: t.time, label: t.label })),
          };
        },
      },
      gateway: {
        request: graphql(url, "{ settings { churchName tagline serviceTimes { day time label } } }", null),
        looksRight: graphqlOk("settings"),
        normalize: (json) => {
          const s = data(json, "settings") as Json;
          const times = s.serviceTimes as { day: string; time: string; label: string }[];
          return {
            churchName: s.churchName,
            tagline: s.tagline,
            serviceTimes: times.map((t) => ({ day: t.day, time: t.time, label: t.label })),
          };
        },
      },
    },
    {
      name: "roles",
      description: "roles (member)",
      direct: {
        request: pbGet("/api/collections/roles/records?sort=name", memberToken),
        looksRight: restListOk,
        normalize: (json) =>
          items(json).map((r) => ({
            id: r.id,
            name: r.name,
            permissions: (r.permissions as string[]).length,
          })),
      },
      gateway: {
        request: graphql(url, "{ roles { id name permissions } }", memberToken),
        looksRight: graphqlOk("roles"),
        normalize: (json) =>
          (data(json, "roles") as Json[]).map((r) => ({
            id: r.id,
            name: r.name,
            permissions: (r.permissions as string[]).length,
          })),
      },
    },
    {
      name: "users",
      description: "users, 20, with roles (admin)",
      direct: {
        request: pbGet(
          "/api/collections/users/records?perPage=20&expand=roles&skipTotal=1&sort=-created",
          adminToken,
        ),
        looksRight: restListOk,
        normalize: (json) =>
          items(json).map((u) => ({
            id: u.id,
            email: u.email,
            roles: (((u.expand as Json | undefined)?.roles as Json[] | undefined) ?? []).map((r) => r.name),
          })),
      },
      gateway: {
        request: graphql(
          url,
          "{ users(first: 20) { edges { node { id email name roles { name } } } } }",
          adminToken,
        ),
        looksRight: graphqlOk("users"),
        normalize: (json) =>
          ((data(json, "users") as { edges: { node: Json }[] }).edges ?? []).map(({ node }) => ({
            id: node.id,
            email: node.email,
            roles: (node.roles as Json[]).map((r) => r.name),
          })),
      },
    },
  ];
}

/** Both paths must return the same data, or the comparison is meaningless. */
async function verifyData(read: Read): Promise<void> {
  const [direct, gateway] = await Promise.all([json(read.direct), json(read.gateway)]);
  const a = JSON.stringify(read.direct.normalize(direct));
  const b = JSON.stringify(read.gateway.normalize(gateway));
  if (a !== b)
    throw new Error(`"${read.name}": the gateway and PocketBase disagree.\n  direct:  ${a}\n  gateway: ${b}`);
  if (a === "[]" || a === "{}") throw new Error(`"${read.name}": empty data; is the demo church seeded?`);
}

async function startChild(
  dataDir: string,
  cpuProf: boolean,
): Promise<{ child: ChildProcess; ready: ReadyMessage }> {
  // The child inherits this process's exec arguments, which carry tsx's loader.
  const execArgv = [...process.execArgv, ...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [])];
  const child = fork(fileURLToPath(import.meta.url), ["--serve", dataDir], {
    cwd: ROOT,
    execArgv,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    child.once("message", (message) => resolve(message as ReadyMessage));
    child.once("exit", (code) =>
      reject(new Error(`The benchmark stack exited during start-up (code ${code}).`)),
    );
  });
  return { child, ready };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    child.send("stop");
  } catch {
    /* the channel is already closed (Ctrl-C reached the child too): it is stopping by itself */
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const ms = (n: number) => `${n.toFixed(2)} ms`;
const fixed = (n: number, digits = 0) => n.toFixed(digits);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

interface Outcome {
  read: Read;
  c1: { direct: Measurement; gateway: Measurement };
  c10: { direct: Measurement; gateway: Measurement };
}

function report(outcomes: Outcome[]): { targetsMet: boolean; correct: boolean } {
  let targetsMet = true;
  let correct = true;
  const verdict = (ok: boolean) => {
    if (!ok) targetsMet = false;
    return ok ? "PASS" : "FAIL";
  };
  const rows: string[][] = [["read", "metric", "direct", "gateway", "Δ / ratio", "target", "result"]];
  for (const { read, c1, c10 } of outcomes) {
    const delta = c1.gateway.p50 - c1.direct.p50;
    const rpsRatio = c10.gateway.rps / c10.direct.rps;
    const p95Ratio = c10.gateway.p95 / c10.direct.p95;
    rows.push(
      [
        read.description,
        "c=1 p50",
        ms(c1.direct.p50),
        ms(c1.gateway.p50),
        `${delta >= 0 ? "+" : "−"}${ms(Math.abs(delta))}`,
        "≤ +3 ms",
        verdict(delta <= 3),
      ],
      [
        "",
        "c=10 req/s",
        fixed(c10.direct.rps),
        fixed(c10.gateway.rps),
        `${fixed(rpsRatio, 2)}×`,
        "≥ 0.60×",
        verdict(rpsRatio >= 0.6),
      ],
      [
        "",
        "c=10 p95",
        ms(c10.direct.p95),
        ms(c10.gateway.p95),
        `${fixed(p95Ratio, 2)}×`,
        "≤ 2.00×",
        verdict(p95Ratio <= 2),
      ],
    );
  }
  console.log(`\nP1: gateway overhead on simple reads (QUALITY.md)\n\n${table(rows)}\n`);

  // Supporting figures and the correctness counters of every run.
  const detail: string[][] = [
    ["read", "run", "requests", "req/s", "p50", "p95", "p99", "non-2xx", "errors", "bad bodies"],
  ];
  for (const { read, c1, c10 } of outcomes) {
    for (const [run, m] of [
      ["direct  c=1", c1.direct],
      ["gateway c=1", c1.gateway],
      ["direct  c=10", c10.direct],
      ["gateway c=10", c10.gateway],
    ] as const) {
      if (m.non2xx || m.errors || m.badBodies || m.requests === 0) correct = false;
      detail.push([
        read.name,
        run,
        String(m.requests),
        fixed(m.rps),
        ms(m.p50),
        ms(m.p95),
        ms(m.p99),
        String(m.non2xx),
        String(m.errors),
        String(m.badBodies),
      ]);
    }
  }
  console.log(`${table(detail)}\n`);
  return { targetsMet, correct };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const duration = Number(option("duration") ?? 5);
  const only = option("only");
  if (!Number.isInteger(duration) || duration < 1) {
    console.error("--duration takes a whole number of seconds (at least 1).");
    return 1;
  }
  const scenario = option("scenario");
  const SCENARIOS = ["p1", "p5", "chat", "sunday", "lists", "scale"];
  if (scenario && !SCENARIOS.includes(scenario)) {
    console.error(`--scenario=${scenario}: choose one of ${SCENARIOS.join(", ")}.`);
    return 1;
  }
  if (only && !READ_NAMES.includes(only)) {
    console.error(`--only=${only}: choose one of ${READ_NAMES.join(", ")}.`);
    return 1;
  }
  const started = Date.now();
  const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-"));
  let child: ChildProcess | null = null;
  // Ctrl-C: stop the stack and remove the data directory before leaving. `on`, not `once`: tsx
  // relays the signal, so it arrives twice, and a second one must not kill the clean-up.
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) return;
    interrupted = true;
    void (child ? stopChild(child) : Promise.resolve())
      .catch(() => undefined)
      .then(() => rm(dataDir, { recursive: true, force: true }))
      .finally(() => process.exit(130));
  });
  try {
    console.log("Starting PocketBase and the gateway (demo church)…");
    const stack = await startChild(dataDir, flag("cpu-prof"));
    child = stack.child;
    const { url, pbUrl } = stack.ready;

    if (scenario === "chat") {
      const chat = await runChatP5({
        url,
        pbUrl,
        superuser: await superuserCredentials(dataDir),
        members: Number(option("members") ?? 200),
      });
      console.log(
        `Total time ${fixed((Date.now() - started) / 1000)} s on ${availableParallelism()} CPU(s); load generator, gateway and PocketBase share them.`,
      );
      console.log(
        chat.targetsMet
          ? "P5 (chat) targets met."
          : flag("strict")
            ? "P5 (chat) targets missed (--strict): failing."
            : "P5 (chat) targets missed (report only; pass --strict to fail).",
      );
      return !chat.targetsMet && flag("strict") ? 1 : 0;
    }
    if (scenario === "sunday" || scenario === "lists" || scenario === "scale") {
      const superuser = await superuserCredentials(dataDir);
      const jsonPath = option("json") ?? defaultJsonPath(scenario);
      const outcome =
        scenario === "sunday"
          ? await runSunday({
              url,
              pbUrl,
              superuser,
              gatewayPid: child.pid ?? 0,
              pbPid: stack.ready.pbPid,
              members: Number(option("members") ?? 200),
              guests: Number(option("guests") ?? 50),
              seconds: Number(option("seconds") ?? 60),
              thinkMs: Number(option("think-ms") ?? 5000),
              emptyChurch: flag("empty-church"),
              gatewayEventLoop: eventLoopOf(child),
              jsonPath,
            })
          : await (scenario === "lists" ? runLists : runScale)({
              url,
              pbUrl,
              superuser,
              jsonPath,
              seconds: Number(option("duration") ?? (scenario === "lists" ? 3 : 4)),
            });
      console.log(
        `Total time ${fixed((Date.now() - started) / 1000)} s on ${availableParallelism()} CPU(s); load generator, gateway and PocketBase share them.`,
      );
      if (!outcome.correct) {
        console.error("FAIL: some reads did not answer 200 with data (see above).");
        return 1;
      }
      if (!outcome.targetsMet)
        console.log(
          flag("strict")
            ? "Targets missed (--strict): failing."
            : "Targets missed (report only; pass --strict to fail).",
        );
      return !outcome.targetsMet && flag("strict") ? 1 : 0;
    }

    const token = async (email: string) => {
      const pb = new PocketBase(pbUrl);
      return (await pb.collection("users").authWithPassword(email, DEMO_PASSWORD)).token;
    };
    const memberToken = await token("member@grace.example");
    const adminToken = await token("admin@grace.example");
    const all = reads(url, pbUrl, memberToken, adminToken);
    const selected = only ? all.filter((r) => r.name === only) : all;

    let p5Met = true;
    const measureP5 = async () => {
      console.log("Measuring P5: opening 500 SSE subscriptions…");
      const p5 = await runP5({
        url,
        pbUrl,
        superuser: await superuserCredentials(dataDir),
        selection: option("p5-selection") === "lean" ? "lean" : "card",
        members: [
          { token: memberToken, subscriptions: 25 },
          { token: adminToken, subscriptions: 25 },
        ],
      });
      p5Met = p5.targetsMet;
    };
    if (scenario === "p5") {
      await measureP5();
      console.log(
        `Total time ${fixed((Date.now() - started) / 1000)} s on ${availableParallelism()} CPU(s); load generator, gateway and PocketBase share them.`,
      );
      if (!p5Met)
        console.log(
          flag("strict")
            ? "P5 targets missed (--strict): failing."
            : "P5 targets missed (report only; pass --strict to fail).",
        );
      else console.log("P5 targets met.");
      return !p5Met && flag("strict") ? 1 : 0;
    }

    for (const read of selected) await verifyData(read);
    console.log("Data check: the gateway returns the same data as PocketBase for every read.");

    // Warm-up: JIT, connection pools and PocketBase's caches, on both paths.
    for (const read of selected) await compare(read, 10, 1);

    const outcomes: Outcome[] = [];
    for (const read of selected) {
      process.stdout.write(`Measuring ${read.name} (${4 * duration} s)…\n`);
      const c1 = await compare(read, 1, duration);
      const c10 = await compare(read, 10, duration);
      outcomes.push({ read, c1, c10 });
    }

    const { targetsMet, correct } = report(outcomes);
    // After P1, so that 500 streams being torn down do not weigh on P1's figures.
    if (scenario !== "p1") await measureP5();
    console.log(
      `Total time ${fixed((Date.now() - started) / 1000)} s on ${availableParallelism()} CPU(s); load generator, gateway and PocketBase share them.`,
    );
    if (!correct) {
      console.error("FAIL: some responses were not 200 with the expected data (see the counters above).");
      return 1;
    }
    if (!p5Met)
      console.log(
        flag("strict")
          ? "P5 targets missed (--strict): failing."
          : "P5 targets missed (report only; pass --strict to fail).",
      );
    if (!targetsMet) {
      console.log(
        flag("strict")
          ? "P1 targets missed (--strict): failing."
          : "P1 targets missed (report only; pass --strict to fail).",
      );
    } else {
      console.log("P1 targets met.");
    }
    return (!targetsMet || !p5Met) && flag("strict") ? 1 : 0;
  } finally {
    if (child) await stopChild(child);
    if (flag("keep-data"))
      console.log(`Data directory kept: ${dataDir} (PocketBase's request log is in auxiliary.db)`);
    else await rm(dataDir, { recursive: true, force: true });
    if (flag("cpu-prof")) console.log(`CPU profile of the gateway written to ${PROFILE_DIR}/`);
  }
}

if (args[0] === "--serve") {
  await serve(args[1]!);
} else {
  process.exitCode = await main();
}
