// The member lists under load, two scenarios of `npm run bench`:
//
// --scenario=lists  QUALITY P1 at concurrency 10 for the news list, the prayer wall and the directory
//   as a member: the same data read straight from PocketBase's REST API (the calls a client would
//   make: the list, then its related rows, in as few rounds as the data allows) and through /graphql
//   (the web app's own operation). Direct and gateway alternate in slices, three repetitions; the
//   median ratio is reported. Target: gateway throughput ≥ 0.6 × direct.
//
// --scenario=scale  QUALITY F4: members pay what guests pay. Measures at concurrency 1 the news list
//   and the wall for a guest and a member (gateway and direct), and the directory for a member, on the
//   demo church, then seeds 2,000 people / 700 households, 500 posts, 300 prayer requests
//   (scripts/lib/seed-scale.ts, timed) and measures again. Targets: what the rules cost a member is
//   ≤ 1.5 × a guest's at scale (the news list direct and through the gateway, the wall's list direct);
//   the member's whole wall (with their own state) ÷ the guest's and the p50 growth of each list are
//   reported.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import PocketBase from "pocketbase";
import { DEMO_PASSWORD } from "./lib/seed.ts";
import { seedScale, SCALE_SHAPES } from "./lib/seed-scale.ts";
import { webOperations } from "./lib/web-operations.ts";
import { graphqlRequest, machine, percentile } from "./bench-sunday.ts";

export interface ListsOptions {
  url: string;
  pbUrl: string;
  superuser: { email: string; password: string };
  jsonPath: string;
  /** Seconds per slice (lists) or per measurement (scale). */
  seconds: number;
}

/** A read: resolves true when the answer is right. */
type Read = () => Promise<boolean>;

interface LoopResult {
  latencies: number[];
  seconds: number;
  failures: number;
}

/** `connections` closed loops calling `read` for `seconds`. */
async function loop(read: Read, connections: number, seconds: number): Promise<LoopResult> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        let ok = false;
        try {
          ok = await read();
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - t);
        if (!ok) failures++;
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000, failures };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 0.5);

async function restJson(
  pbUrl: string,
  path: string,
  token: string | null,
): Promise<{ ok: boolean; json: { items?: Array<Record<string, unknown>> } }> {
  const response = await fetch(`${pbUrl}${path}`, { headers: token ? { authorization: token } : {} });
  const json = (await response.json()) as { items?: Array<Record<string, unknown>> };
  return { ok: response.ok && Array.isArray(json.items), json };
}

const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
const orIds = (field: string, ids: string[]) => ids.map((id) => `${field}="${id}"`).join(" || ");

interface Reads {
  name: string;
  direct: Read;
  gateway: Read;
}

async function memberSession(system: PocketBase, pbUrl: string, email: string): Promise<string> {
  const pb = new PocketBase(pbUrl);
  await pb.collection("users").authWithPassword(email, DEMO_PASSWORD);
  void system;
  return pb.authStore.token;
}

/** The three member lists, direct and through the gateway, for `token` (null: a guest, news and wall only). */
async function listReads(
  url: string,
  pbUrl: string,
  token: string | null,
): Promise<[Reads, Reads & { listOnly: Read }, ...Reads[]]> {
  const ops = await webOperations();
  const gql = (name: string, variables: Record<string, unknown>) => async () =>
    (await graphqlRequest(url, token, { name, query: ops.get(name)!, variables })).ok;

  const news: Reads = {
    name: "news list",
    // In the news list's own order (the gateway's POSTS_NEWEST), so both sides ask PocketBase the same.
    direct: async () =>
      (
        await restJson(
          pbUrl,
          `/api/collections/posts/records?${q({ page: 1, perPage: 11, skipTotal: 1, filter: 'status = "published"', sort: "-publishedAt,-created,-id", expand: "cover" })}`,
          token,
        )
      ).ok,
    gateway: gql("NewsPage", {}),
  };
  const wallList = () =>
    restJson(
      pbUrl,
      `/api/collections/prayer_requests/records?${q({ page: 1, perPage: 21, skipTotal: 1, filter: '(status = "approved" || status = "answered") && visibility != "pastoral"', sort: "-created,-id" })}`,
      token,
    );
  const wall: Reads & { listOnly: Read } = {
    name: "prayer wall",
    // The wall's list alone: what its rule costs this caller (the scale scenario compares it).
    listOnly: async () => (await wallList()).ok,
    direct: async () => {
      const list = wallList();
      // The caller's own state (prayed today, flagged, mine): rule-scoped lists, as the gateway reads them.
      const own = token
        ? ["prayer_marks", "prayer_flags", "prayer_request_private"].map((c) =>
            restJson(
              pbUrl,
              `/api/collections/${c}/records?${q({ page: 1, perPage: 200, skipTotal: 1, sort: "-created" })}`,
              token,
            ),
          )
        : [];
      const results = await Promise.all([list, ...own]);
      return results.every((r) => r.ok);
    },
    gateway: gql("PrayerWall", { first: 20, filter: "ALL" }),
  };
  const directory: Reads = {
    name: "directory",
    direct: async () => {
      const [households] = await Promise.all([
        restJson(
          pbUrl,
          `/api/collections/households/records?${q({ page: 1, perPage: 21, skipTotal: 1, filter: "(inDirectory = true)", sort: "name,id" })}`,
          token,
        ),
        restJson(
          pbUrl,
          `/api/collections/households/records?${q({ page: 1, perPage: 1, filter: "(inDirectory = true)", fields: "id" })}`,
          token,
        ),
      ]);
      const hIds = (households.json.items ?? []).slice(0, 20).map((h) => h.id as string);
      if (!hIds.length) return false;
      const [people, addresses] = await Promise.all([
        restJson(
          pbUrl,
          `/api/collections/people/records?${q({ page: 1, perPage: 1000, skipTotal: 1, filter: orIds("household", hIds) })}`,
          token,
        ),
        restJson(
          pbUrl,
          `/api/collections/addresses/records?${q({ page: 1, perPage: 1000, skipTotal: 1, filter: orIds("household", hIds) })}`,
          token,
        ),
      ]);
      const pIds = (people.json.items ?? []).filter((p) => p.inDirectory).map((p) => p.id as string);
      const rows = await Promise.all(
        ["person_emails", "person_phones", "person_birthdays"].map((c) =>
          restJson(
            pbUrl,
            `/api/collections/${c}/records?${q({ page: 1, perPage: 1000, skipTotal: 1, filter: orIds("person", pIds) })}`,
            token,
          ),
        ),
      );
      return people.ok && addresses.ok && rows.every((r) => r.ok);
    },
    gateway: gql("DirectoryPage", { first: 20, search: null }),
  };
  return token ? [news, wall, directory] : [news, wall];
}

const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(
    [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n"),
  );
}

async function writeJson(path: string, report: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(report, null, 2));
  console.log(`JSON written to ${path}`);
}

/** P1 for the member lists at concurrency 10. */
export async function runLists(options: ListsOptions): Promise<{ targetsMet: boolean; correct: boolean }> {
  const system = new PocketBase(options.pbUrl);
  system.autoCancellation(false);
  await system
    .collection("_superusers")
    .authWithPassword(options.superuser.email, options.superuser.password);
  process.stdout.write("Seeding full pages (the Sunday church)… ");
  const seeded = await seedScale(system, { ...SCALE_SHAPES.sunday, members: 2 }, DEMO_PASSWORD);
  console.log(`${f(seeded.seconds, 0)} s`);
  const token = await memberSession(system, options.pbUrl, seeded.memberEmails[0]!);
  const reads = await listReads(options.url, options.pbUrl, token);
  for (const read of reads) {
    if (!(await read.direct()) || !(await read.gateway()))
      throw new Error(`${read.name}: a warm-up read failed.`);
    await loop(read.direct, 10, 1);
    await loop(read.gateway, 10, 1);
  }
  const REPETITIONS = 3;
  const results: Record<string, { ratios: number[]; direct: LoopResult[]; gateway: LoopResult[] }> = {};
  for (const read of reads) results[read.name] = { ratios: [], direct: [], gateway: [] };
  // Interleaved: each repetition measures every read, direct and gateway in alternating order.
  for (let rep = 0; rep < REPETITIONS; rep++) {
    for (const read of reads) {
      process.stdout.write(`Repetition ${rep + 1}/${REPETITIONS}: ${read.name}…\n`);
      const order: Array<"direct" | "gateway"> =
        rep % 2 === 0 ? ["direct", "gateway"] : ["gateway", "direct"];
      const got: Partial<Record<"direct" | "gateway", LoopResult>> = {};
      for (const side of order) got[side] = await loop(read[side], 10, options.seconds);
      const r = results[read.name]!;
      r.direct.push(got.direct!);
      r.gateway.push(got.gateway!);
      r.ratios.push(
        got.gateway!.latencies.length /
          got.gateway!.seconds /
          (got.direct!.latencies.length / got.direct!.seconds),
      );
    }
  }
  const rows = [
    [
      "read (member, c=10)",
      "direct req/s",
      "gateway req/s",
      "ratio (median of 3)",
      "direct p95",
      "gateway p95",
      "target",
      "result",
    ],
  ];
  let targetsMet = true;
  let failures = 0;
  const summary: Record<string, unknown> = {};
  for (const read of reads) {
    const r = results[read.name]!;
    const rps = (list: LoopResult[]) => median(list.map((l) => l.latencies.length / l.seconds));
    const p95 = (list: LoopResult[]) => percentile(sorted(list.flatMap((l) => l.latencies)), 0.95);
    const ratio = median(r.ratios);
    const ok = ratio >= 0.6;
    if (!ok) targetsMet = false;
    failures += [...r.direct, ...r.gateway].reduce((n, l) => n + l.failures, 0);
    rows.push([
      read.name,
      f(rps(r.direct)),
      f(rps(r.gateway)),
      `${f(ratio, 2)}× (${r.ratios.map((x) => f(x, 2)).join(", ")})`,
      `${f(p95(r.direct))} ms`,
      `${f(p95(r.gateway))} ms`,
      "≥ 0.60×",
      ok ? "PASS" : "FAIL",
    ]);
    summary[read.name] = {
      ratios: r.ratios,
      medianRatio: ratio,
      directRps: rps(r.direct),
      gatewayRps: rps(r.gateway),
      directP95: p95(r.direct),
      gatewayP95: p95(r.gateway),
    };
  }
  console.log("\nP1 for the member lists (gateway vs direct PocketBase, concurrency 10, interleaved)\n");
  printTable(rows);
  console.log(`Failed reads: ${failures}`);
  await writeJson(options.jsonPath, {
    scenario: "lists",
    date: new Date().toISOString(),
    machine: machine(),
    secondsPerSlice: options.seconds,
    repetitions: REPETITIONS,
    reads: summary,
    failures,
    targetsMet,
  });
  return { targetsMet, correct: failures === 0 };
}

/** p50 of `read` at concurrency 1 for `seconds`, interleaved with the other reads of the same round. */
async function p50s(
  reads: Array<[string, Read]>,
  seconds: number,
): Promise<Record<string, { p50: number; failures: number }>> {
  const latencies: Record<string, number[]> = {};
  const failures: Record<string, number> = {};
  for (const [name] of reads) {
    latencies[name] = [];
    failures[name] = 0;
  }
  // One-second slices in rotating order, so that load drift reaches every read alike.
  for (let slice = 0; slice < seconds; slice++) {
    const order = reads.map((_, i) => reads[(i + slice) % reads.length]!);
    for (const [name, read] of order) {
      const r = await loop(read, 1, 1);
      latencies[name]!.push(...r.latencies);
      failures[name]! += r.failures;
    }
  }
  return Object.fromEntries(
    reads.map(([name]) => [name, { p50: median(latencies[name]!), failures: failures[name]! }]),
  );
}

/** F4: member vs guest at scale, and the growth of each list's p50. */
export async function runScale(options: ListsOptions): Promise<{ targetsMet: boolean; correct: boolean }> {
  const system = new PocketBase(options.pbUrl);
  system.autoCancellation(false);
  await system
    .collection("_superusers")
    .authWithPassword(options.superuser.email, options.superuser.password);
  const member = await memberSession(system, options.pbUrl, "member@grace.example");
  const measure = async () => {
    const [m, g] = await Promise.all([
      listReads(options.url, options.pbUrl, member),
      listReads(options.url, options.pbUrl, null),
    ]);
    const reads: Array<[string, Read]> = [
      ["news list, guest, direct", g[0]!.direct],
      ["news list, member, direct", m[0]!.direct],
      ["news list, guest, gateway", g[0]!.gateway],
      ["news list, member, gateway", m[0]!.gateway],
      ["prayer wall list, guest, direct", g[1].listOnly],
      ["prayer wall list, member, direct", m[1].listOnly],
      ["prayer wall, guest, gateway", g[1]!.gateway],
      ["prayer wall, member, gateway", m[1]!.gateway],
      ["directory, member, gateway", m[2]!.gateway],
    ];
    for (const [, read] of reads) await loop(read, 1, 0.3); // warm-up
    return p50s(reads, options.seconds);
  };
  console.log("Scale: measuring on the demo church…");
  const before = await measure();
  const shape = SCALE_SHAPES.scale;
  process.stdout.write(
    `Seeding ${shape.people} people / ${shape.households} households, ${shape.posts} posts, ${shape.prayerRequests} prayer requests… `,
  );
  const seeded = await seedScale(system, shape, DEMO_PASSWORD);
  console.log(`${f(seeded.seconds, 0)} s`);
  console.log("Scale: measuring at scale…");
  const after = await measure();

  const rows = [["read (c=1)", "p50 demo", "p50 at scale", "growth"]];
  for (const name of Object.keys(after))
    rows.push([
      name,
      `${f(before[name]!.p50, 2)} ms`,
      `${f(after[name]!.p50, 2)} ms`,
      `${f(after[name]!.p50 / before[name]!.p50, 2)}×`,
    ]);
  console.log("\nF4: lists at scale (QUALITY.md)\n");
  printTable(rows);
  const ratio = (list: string) => ({
    direct: after[`${list}, member, direct`]
      ? after[`${list}, member, direct`]!.p50 / after[`${list}, guest, direct`]!.p50
      : Number.NaN,
    gateway: after[`${list}, member, gateway`]!.p50 / after[`${list}, guest, gateway`]!.p50,
  });
  const news = ratio("news list");
  const wall = ratio("prayer wall");
  const wallList =
    after["prayer wall list, member, direct"]!.p50 / after["prayer wall list, guest, direct"]!.p50;
  // The target is what the rules cost a member (F4: "members pay what guests pay"): the news list
  // both ways, and the wall's list. The member's whole wall also reads their own state (prayed today,
  // flagged, their requests: three more PocketBase reads a guest has none of), so it is reported.
  const targetsMet = news.direct <= 1.5 && news.gateway <= 1.5 && wallList <= 1.5;
  console.log(
    `\nMember ÷ guest at scale (target ≤ 1.5×): news list ${f(news.direct, 2)}× direct, ${f(news.gateway, 2)}× through the gateway; ` +
      `prayer wall list ${f(wallList, 2)}× direct: ${targetsMet ? "PASS" : "FAIL"}`,
  );
  console.log(
    `Reported: the member's whole wall (the list and their own state) ÷ the guest's, through the gateway: ${f(wall.gateway, 2)}×`,
  );
  const failures = Object.values(before)
    .concat(Object.values(after))
    .reduce((n, r) => n + r.failures, 0);
  console.log(`Failed reads: ${failures}`);
  await writeJson(options.jsonPath, {
    scenario: "scale",
    date: new Date().toISOString(),
    machine: machine(),
    shape,
    seedSeconds: seeded.seconds,
    p50Demo: before,
    p50Scale: after,
    memberOverGuest: {
      newsDirect: news.direct,
      newsGateway: news.gateway,
      wallListDirect: wallList,
      wallGateway: wall.gateway,
    },
    targetsMet,
    failures,
  });
  return { targetsMet, correct: failures === 0 };
}
