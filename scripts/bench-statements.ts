// `npm run bench:statements`: giving statements for a whole church (issue 29: "statements for 2,000
// households with 50,000 gifts, with time and peak memory in PERFORMANCE.md (target ≤ 60 s, ≤ 300 MB)").
// A benchmark, not a test: the figures go to docs/PERFORMANCE.md, and only a wrong answer fails the
// command, never a slow one.
//
// Starts a throw-away stack (scripts/lib/bench-stack.ts: the gateway in its own process, as in
// production) and writes a church as the system: four funds (one not deductible), 2,000 households of
// one or two adults, and 50,000 gifts through 2026 (some split across two funds, one donor in twenty
// giving individually), written through PocketBase's batch API so its giving hook sets each gift's unit
// and splits as on every write. A treasurer signs in through the gateway and starts the run for 2026 as
// the staff screen does (startGivingStatementRun), following its progress every half second.
//
// Measured: the time from the start to the run's DONE, and resident memory sampled every 100 ms: the
// statements worker's (the child process the gateway forks for a run; its VmHWM, the kernel's own
// high-water mark), the gateway's and PocketBase's.
// Checked: the zip holds one statement per giving unit, and a sample of statements' totals agree with
// the gifts written.
//
// Options:
//   --households=<n>  households (default 2000)
//   --gifts=<n>       gifts (default 50000)
//   --cpu-prof        write a V8 CPU profile of the gateway process to $TMPDIR/flock-bench-profiles/
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import PocketBase from "pocketbase";
import { superuserCredentials } from "./lib/stack.ts";
import { ACCEPT, CSRF_HEADER, SESSION_COOKIE, signInAsBrowser } from "./lib/browser-client.ts";
import { PROFILE_DIR, startBenchStack, stopBenchStack } from "./lib/bench-stack.ts";
import { pdfText } from "./lib/pdf-text.ts";
import { pool } from "./lib/seed-scale.ts";
import { cpuSeconds, machine } from "./bench-sunday.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const HOUSEHOLDS = Number(option("households") ?? 2000);
const GIFTS = Number(option("gifts") ?? 50_000);
const TARGET_SECONDS = 60;
const TARGET_MB = 300;
const YEAR = 2026;
/** Gifts per batch request (PocketBase's batch API: one transaction each). */
const PER_BATCH = 500;
const PASSWORD = "bench-statements-1";

const f = (n: number, digits = 0) => n.toFixed(digits);

/** A process's resident memory now and its high-water mark, in MB (Linux /proc). */
async function memoryMb(pid: number): Promise<{ rss: number; hwm: number }> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/** The gateway's child processes running a statements run (statement-worker-entry.mjs). */
async function statementWorkers(gatewayPid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== gatewayPid) continue;
      if ((await readFile(`/proc/${entry}/cmdline`, "utf8")).includes("statement-worker"))
        found.push(Number(entry));
    } catch {
      // It ended meanwhile.
    }
  }
  return found;
}

/** A deterministic pseudo-random sequence (the same church every run). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Seeded {
  /** Expected total per unit key ("household:<id>" / "person:<id>"), in cents. */
  totals: Map<string, number>;
  treasurerEmail: string;
}

async function seed(system: PocketBase): Promise<Seeded> {
  const rand = random(29);
  const funds: { id: string }[] = [];
  for (const [i, [name, deductible]] of (
    [
      ["General", true],
      ["Building", true],
      ["Missions", true],
      ["Coffee bar", false],
    ] as const
  ).entries())
    funds.push(
      await system
        .collection("funds")
        .create({ name, deductible, visibility: i < 3 ? "public" : "hidden", sort: (i + 1) * 10 }),
    );
  const treasurerRole = await system.collection("roles").getFirstListItem('name = "Treasurer"');
  const treasurerEmail = "treasurer@bench.test";
  await system.collection("users").create({
    email: treasurerEmail,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    name: "Bench Treasurer",
    verified: true,
    status: "active",
    roles: [treasurerRole.id],
  });

  // PocketBase's batch API: each request one transaction of PER_BATCH records (hooks run for each).
  await system.settings.update({
    batch: { enabled: true, maxRequests: PER_BATCH, timeout: 60, maxBodySize: 0 },
  });
  /** Create `rows` in `collection`, PER_BATCH a request; the created records' ids in order. */
  async function createAll(collection: string, rows: Record<string, unknown>[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < rows.length; i += PER_BATCH) {
      const batch = system.createBatch();
      for (const row of rows.slice(i, i + PER_BATCH)) batch.collection(collection).create(row);
      ids.push(...(await batch.send()).map((answer) => (answer.body as { id: string }).id));
    }
    return ids;
  }

  // Households of one or two adults, each with an address; donors are their people.
  const households = await createAll(
    "households",
    Array.from({ length: HOUSEHOLDS }, (_, h) => ({ name: `The Family${h} household` })),
  );
  await createAll(
    "addresses",
    households.map((household, h) => ({
      household,
      street1: `${h + 1} Chapel Lane`,
      city: "Springfield",
      region: "IL",
      postalCode: "62701",
      country: "US",
      visibility: "private",
    })),
  );
  const adults = households.flatMap((household, h) =>
    Array.from({ length: h % 3 === 0 ? 1 : 2 }, (_, p) => ({
      firstName: p ? "Sam" : "Pat",
      lastName: `Family${h}`,
      household,
      householdRole: p ? "spouse" : "head",
      recordStatus: "active",
    })),
  );
  const personIds = await createAll("people", adults);
  const people = personIds.map((person, i) => ({ person, household: adults[i]!.household }));

  const totals = new Map<string, number>();
  const gifts = Array.from({ length: GIFTS }, (_, g) => {
    const donor = people[Math.floor(rand() * people.length)]!;
    const individual = people.indexOf(donor) % 20 === 7;
    const amountCents = 500 + Math.floor(rand() * 50_000);
    const day = new Date(Date.UTC(YEAR, 0, 1) + Math.floor(rand() * 365) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const fund = funds[Math.floor(rand() * funds.length)]!;
    const splits =
      g % 7 === 0
        ? [
            { fund: funds[0]!.id, amountCents: Math.floor(amountCents / 2) },
            { fund: funds[3]!.id, amountCents: amountCents - Math.floor(amountCents / 2) },
          ]
        : [{ fund: fund.id, amountCents }];
    const key = individual ? `person:${donor.person}` : `household:${donor.household}`;
    totals.set(key, (totals.get(key) ?? 0) + amountCents);
    return {
      person: donor.person,
      individual,
      date: `${day} 00:00:00.000Z`,
      amountCents,
      method: (["cash", "cheque", "card", "bank_transfer", "online"] as const)[g % 5],
      chequeNumber: g % 5 === 1 ? String(1000 + (g % 9000)) : "",
      splits,
      source: "import",
    };
  });
  const batches = Array.from({ length: Math.ceil(gifts.length / PER_BATCH) }, (_, b) =>
    gifts.slice(b * PER_BATCH, (b + 1) * PER_BATCH),
  );
  let written = 0;
  await pool(batches, 2, async (rows) => {
    const batch = system.createBatch();
    for (const row of rows) batch.collection("donations").create(row);
    await batch.send();
    written += rows.length;
    if (written % 10_000 < PER_BATCH) console.log(`  ${written} gifts written`);
  });
  await system.settings.update({ batch: { enabled: false } });
  return { totals, treasurerEmail };
}

async function gql<T>(url: string, cookie: string, query: string, variables: object): Promise<T> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      accept: ACCEPT,
      "content-type": "application/json",
      [CSRF_HEADER]: "1",
      cookie: `${SESSION_COOKIE}=${cookie}`,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`GraphQL refused: ${JSON.stringify(body.errors)}`);
  return body.data;
}

interface RunProgress {
  id: string;
  status: "RUNNING" | "DONE" | "FAILED";
  unitsTotal: number;
  unitsDone: number;
  downloadUrl: string | null;
  error: string | null;
}
const RUN_FIELDS = "id status unitsTotal unitsDone downloadUrl error";

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-statements-"));
  let child: ChildProcess | null = null;
  try {
    console.log("Starting PocketBase and the gateway (production mode, no demo church)…");
    const stack = await startBenchStack(dataDir, { cpuProfile: flag("cpu-prof") });
    child = stack.child;
    const { url, pbUrl, pbPid } = stack.ready;
    const superuser = await superuserCredentials(dataDir);
    const system = new PocketBase(pbUrl);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    const seededAt = performance.now();
    const { totals, treasurerEmail } = await seed(system);
    console.log(
      `Seeded in ${f((performance.now() - seededAt) / 1000)} s: ${HOUSEHOLDS} households, ${GIFTS} gifts, ` +
        `${totals.size} giving units.`,
    );
    const cookie = await signInAsBrowser(url, treasurerEmail, PASSWORD);
    const gatewayPid = child.pid ?? 0;
    const memoryBefore = await memoryMb(gatewayPid);
    const cpuBefore = { gateway: await cpuSeconds(gatewayPid), pocketbase: await cpuSeconds(pbPid) };

    let peakGateway = memoryBefore.rss;
    let peakPocketBase = (await memoryMb(pbPid)).rss;
    // The worker's high-water mark (VmHWM) is its own peak, read while it lives.
    let peakWorker = 0;
    let workerSeen = false;
    /** The worker's CPU time (user + system), as last read while it lived. */
    let workerCpu = 0;
    const sampler = setInterval(() => {
      void memoryMb(gatewayPid).then((m) => (peakGateway = Math.max(peakGateway, m.rss)));
      void memoryMb(pbPid).then((m) => (peakPocketBase = Math.max(peakPocketBase, m.rss)));
      void statementWorkers(gatewayPid).then(async (pids) => {
        for (const pid of pids) {
          const m = await memoryMb(pid);
          if (!Number.isFinite(m.hwm)) continue;
          workerSeen = true;
          peakWorker = Math.max(peakWorker, m.hwm, m.rss);
          const cpu = await cpuSeconds(pid);
          if (Number.isFinite(cpu)) workerCpu = Math.max(workerCpu, cpu);
        }
      });
    }, 100);

    const startedAt = performance.now();
    let progress = (
      await gql<{ startGivingStatementRun: RunProgress }>(
        url,
        cookie,
        `mutation ($from: String!, $to: String!) { startGivingStatementRun(from: $from, to: $to) { ${RUN_FIELDS} } }`,
        { from: `${YEAR}-01-01`, to: `${YEAR}-12-31` },
      )
    ).startGivingStatementRun;
    let lastShown = 0;
    while (progress.status === "RUNNING") {
      await new Promise((resolve) => setTimeout(resolve, 500));
      progress = (
        await gql<{ givingStatementRun: RunProgress }>(
          url,
          cookie,
          `query ($id: ID!) { givingStatementRun(id: $id) { ${RUN_FIELDS} } }`,
          { id: progress.id },
        )
      ).givingStatementRun;
      if (performance.now() - lastShown > 5_000) {
        console.log(`  ${progress.unitsDone} / ${progress.unitsTotal} statements`);
        lastShown = performance.now();
      }
    }
    const seconds = (performance.now() - startedAt) / 1000;
    clearInterval(sampler);
    const memoryAfter = await memoryMb(gatewayPid);
    const cpu = {
      gateway: (await cpuSeconds(gatewayPid)) - cpuBefore.gateway,
      pocketbase: (await cpuSeconds(pbPid)) - cpuBefore.pocketbase,
    };
    if (progress.status !== "DONE" || !progress.downloadUrl) {
      console.error(`The run did not finish: ${progress.status} ${progress.error ?? ""}`);
      return 1;
    }

    // Checked: one statement per unit, and a sample's totals as written.
    const zip = await fetch(`${url}${new URL(progress.downloadUrl).pathname}`, {
      headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    const bytes = new Uint8Array(await zip.arrayBuffer());
    const entries = unzipSync(bytes);
    const names = Object.keys(entries);
    const wrong: string[] = [];
    if (names.length !== totals.size)
      wrong.push(`${names.length} statements for ${totals.size} giving units`);
    const money = (cents: number) =>
      new Intl.NumberFormat("en", { style: "currency", currency: "USD" }).format(cents / 100);
    const sample = [...totals.entries()].filter((_, i) => i % 97 === 0);
    for (const [key, cents] of sample) {
      const id = key.slice(key.indexOf(":") + 1);
      const name = names.find((n) => n.endsWith(`-${id}.pdf`));
      const text = name ? (await pdfText(entries[name]!)).join(" ").replace(/\s+/g, " ") : "";
      if (!text.includes(`Total given ${money(cents)}`)) wrong.push(`${key}: expected ${money(cents)}`);
    }

    const figures = {
      households: HOUSEHOLDS,
      gifts: GIFTS,
      units: totals.size,
      statements: names.length,
      zipMB: Number(f(bytes.length / 1024 / 1024, 1)),
      seconds: Number(f(seconds, 1)),
      workerPeakRssMB: Number(f(peakWorker)),
      workerSeen,
      gatewayPeakRssMB: Number(f(peakGateway)),
      gatewayRssBeforeMB: Number(f(memoryBefore.rss)),
      gatewayHwmMB: Number(f(memoryAfter.hwm)),
      pocketbasePeakRssMB: Number(f(peakPocketBase)),
      cpuSeconds: {
        worker: Number(f(workerCpu, 1)),
        gateway: Number(f(cpu.gateway, 1)),
        pocketbase: Number(f(cpu.pocketbase, 1)),
      },
      sampleChecked: sample.length,
      machine: machine(),
    };
    console.log(JSON.stringify(figures, null, 2));
    console.log(
      `${names.length} statements in ${f(seconds, 1)} s (target ≤ ${TARGET_SECONDS} s); the generating ` +
        `worker's peak RSS ${f(peakWorker)} MB (target ≤ ${TARGET_MB} MB); the gateway's ${f(peakGateway)} MB ` +
        `(${f(memoryBefore.rss)} MB before the run).`,
    );
    if (flag("cpu-prof")) console.log(`CPU profile in ${PROFILE_DIR} once the stack stops.`);
    if (wrong.length) {
      console.error(`Wrong answers:\n  ${wrong.slice(0, 20).join("\n  ")}`);
      return 1;
    }
    return 0;
  } finally {
    if (child) await stopBenchStack(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
