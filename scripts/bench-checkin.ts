// `npx tsx scripts/bench-checkin.ts`: a Sunday rush at child check-in (issue 28: "20 stations checking
// in 300 children in 10 minutes: p95 of a family's check-in (find + submit + label) ≤ 1 s, 0 errors").
// A benchmark, not a test: the figures go to docs/PERFORMANCE.md, and only a wrong answer fails the
// command, never a slow one.
//
// Starts a throw-away stack (scripts/lib/bench-stack.ts) and writes a church as the system: four rooms
// for ages 0–11 (capacity 300, a ratio of 10 children per volunteer, volunteers already serving), a
// session open now, and 150 households, each with a parent whose mobile number ends in its own 4 digits
// and two children of 1 to 10 years. 20 operators (a role with checkin.operate) sign in through the
// gateway: with --desk=stations (the default, as churches run them) one of them adds 20 stations and each
// station redeems its pairing code, so every request carries that station's own credential (an API token
// with the station scope); with --desk=operators the 20 operators' browsers are the stations.
//
// Each station takes its share of the families as they arrive (spread over --minutes, each arrival at a
// random moment of its slot) and does what the station screen does (web/src/features/checkin/
// checkin.graphql): CheckinStationFamilies with the last 4 digits, then CheckinStationCheckIn for both
// children into the rooms the gateway suggested. The label is drawn by the browser from that answer, so
// a family's time is find + submit. Every answer is checked: one family found, two children checked in
// with one code, nobody refused; afterwards PocketBase holds exactly 300 children, the codes of different
// households differ, and the counts the hook keeps agree.
//
// Options:
//   --minutes=<n>   how long the rush lasts (default 10; smaller is harsher: --minutes=1 is ten times the rate)
//   --families=<n>  households of two children (default 150)
//   --stations=<n>  stations (default 20)
//   --desk=<kind>   stations (registered devices, default) or operators (signed-in staff browsers)
//   --cpu-prof      write a V8 CPU profile of the gateway process to $TMPDIR/flock-bench-profiles/
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { DEMO_PASSWORD } from "./lib/seed.ts";
import { pool } from "./lib/seed-scale.ts";
import { superuserCredentials } from "./lib/stack.ts";
import { ACCEPT, CSRF_HEADER, SESSION_COOKIE, signInAsBrowser, webOperation } from "./lib/browser-client.ts";
import { PROFILE_DIR, startBenchStack, stopBenchStack } from "./lib/bench-stack.ts";
import { cpuSeconds, machine, stats } from "./bench-sunday.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const TARGET_P95_MS = 1000;
const MINUTES = Number(option("minutes") ?? 10);
const FAMILIES = Number(option("families") ?? 150);
const STATIONS = Number(option("stations") ?? 20);
const DESK = option("desk") ?? "stations";
if (DESK !== "stations" && DESK !== "operators") throw new Error("--desk is stations or operators");
const ROOMS = [
  { name: "Nursery", minAgeMonths: 0, maxAgeMonths: 23 },
  { name: "Preschool", minAgeMonths: 24, maxAgeMonths: 59 },
  { name: "K–2", minAgeMonths: 60, maxAgeMonths: 95 },
  { name: "Grades 3–5", minAgeMonths: 96, maxAgeMonths: 131 },
];

const f = (n: number, digits = 0) => n.toFixed(digits);
const pbDate = (ms: number) => new Date(ms).toISOString().replace("T", " ");
const birthDate = (months: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return `${d.toISOString().slice(0, 10)} 00:00:00.000Z`;
};

interface Family {
  digits: string;
  children: string[];
}

async function seed(
  system: PocketBase,
): Promise<{ sessionId: string; families: Family[]; operators: string[] }> {
  const role = await system
    .collection("roles")
    .create({ name: "Check-in desk", description: "Runs check-in.", permissions: ["checkin.operate"] });
  const rooms = [];
  for (const [i, room] of ROOMS.entries())
    rooms.push(
      await system
        .collection("checkin_rooms")
        .create({ ...room, capacity: 300, ratio: 10, active: true, sort: (i + 1) * 10 }),
    );
  const session = await system.collection("checkin_sessions").create({
    name: "Sunday 9:00",
    startsAt: pbDate(Date.now() + 20 * 60_000),
    opensMinutes: 30,
    closesMinutes: 240,
    rooms: rooms.map((r) => r.id),
  });
  // Volunteers enough for every room's ratio.
  for (const room of rooms)
    for (let v = 0; v < 30; v++) {
      const person = await system
        .collection("people")
        .create({ firstName: `Vol${v}`, lastName: room.name, recordStatus: "active" });
      await system
        .collection("checkins")
        .create({ session: session.id, room: room.id, person: person.id, kind: "volunteer" });
    }
  const families = await pool(
    Array.from({ length: FAMILIES }, (_, i) => i),
    4,
    async (i): Promise<Family> => {
      const last = `Family${i}`;
      const household = await system.collection("households").create({ name: `${last} household` });
      const parent = await system.collection("people").create({
        firstName: "Pat",
        lastName: last,
        household: household.id,
        householdRole: "head",
        recordStatus: "active",
      });
      const digits = String(1000 + i).padStart(4, "0");
      await system.collection("person_phones").create({
        person: parent.id,
        number: `+1217555${digits}`,
        kind: "mobile",
        isPrimary: true,
        visibility: "private",
      });
      const children = [];
      for (const [c, months] of [12 + ((i * 7) % 60), 60 + ((i * 11) % 60)].entries()) {
        const child = await system.collection("people").create({
          firstName: `Kid${c}`,
          lastName: last,
          household: household.id,
          householdRole: "child",
          recordStatus: "active",
        });
        await system.collection("person_private").create({ person: child.id, birthDate: birthDate(months) });
        children.push(child.id);
      }
      return { digits, children };
    },
  );
  const operators = await pool(
    Array.from({ length: STATIONS }, (_, i) => i),
    4,
    async (i) => {
      const email = `station${i}@bench.example`;
      const person = await system
        .collection("people")
        .create({ firstName: "Station", lastName: String(i), recordStatus: "active" });
      await system.collection("users").create({
        email,
        password: DEMO_PASSWORD,
        passwordConfirm: DEMO_PASSWORD,
        name: `Station ${i}`,
        verified: true,
        person: person.id,
        roles: [role.id],
        status: "active",
      });
      return email;
    },
  );
  return { sessionId: session.id, families, operators };
}

/** How a station calls: an operator's session cookie, or a registered station's credential. */
type Credential = { cookie: string } | { bearer: string };

async function post<T>(
  url: string,
  credential: Credential,
  body: object,
): Promise<{ data?: T; errors?: unknown[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      accept: ACCEPT,
      "content-type": "application/json",
      [CSRF_HEADER]: "1",
      ...("cookie" in credential
        ? { cookie: `${SESSION_COOKIE}=${credential.cookie}` }
        : { authorization: `Bearer ${credential.bearer}` }),
    },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { data?: T; errors?: unknown[] };
}

type FamiliesAnswer = {
  checkinFamilies: { householdId: string; members: { personId: string; suggestedRoomId: string | null }[] }[];
};
type CheckInAnswer = {
  checkIn: { code: string | null; refused: unknown[]; checkins: { id: string; code: string | null }[] };
};

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-checkin-"));
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
    const { sessionId, families, operators } = await seed(system);
    console.log(
      `Seeded in ${f((performance.now() - seededAt) / 1000)} s: ${families.length} households (${families.length * 2} children), ` +
        `${ROOMS.length} rooms, ${operators.length} stations.`,
    );
    const [findQuery, checkInQuery] = await Promise.all([
      webOperation("CheckinStationFamilies"),
      webOperation("CheckinStationCheckIn"),
    ]);
    let credentials: Credential[];
    if (DESK === "operators")
      credentials = (await pool(operators, 4, (email) => signInAsBrowser(url, email, DEMO_PASSWORD))).map(
        (cookie) => ({ cookie }),
      );
    else {
      // Staff add the stations at /admin/checkin; each device redeems its code (as the web does).
      const staff = { cookie: await signInAsBrowser(url, operators[0]!, DEMO_PASSWORD) };
      credentials = await pool(
        Array.from({ length: STATIONS }, (_, i) => i),
        4,
        async (i): Promise<Credential> => {
          const made = await post<{ createCheckinStation: { code: string } }>(url, staff, {
            query: `mutation ($input: CheckinStationInput!) { createCheckinStation(input: $input) { code } }`,
            variables: {
              input: { name: `Station ${i}`, mode: "STAFFED", labelSize: "LABEL_62MM", roomIds: [] },
            },
          });
          const registered = await post<{ registerCheckinStation: { token: string } }>(
            url,
            { cookie: "" },
            {
              query: `mutation ($code: String!) { registerCheckinStation(code: $code) { token } }`,
              variables: { code: made.data!.createCheckinStation.code },
            },
          );
          if (!registered.data) throw new Error(`station ${i}: ${JSON.stringify(registered.errors)}`);
          return { bearer: registered.data.registerCheckinStation.token };
        },
      );
    }

    // Each station's families, in arrival order: family k arrives at a random moment of its slot.
    const durationMs = MINUTES * 60_000;
    const slot = durationMs / families.length;
    const arrivals = families.map((family, k) => ({ family, at: k * slot + Math.random() * slot }));
    const latencies: number[] = [];
    /** Each station's first family apart: its first requests warm the station's session in the gateway. */
    const firstOfStation: number[] = [];
    const wrongs: string[] = [];
    const codes = new Map<string, string>();
    const firstDone = new Set<number>();
    /** The find alone (the rest of a family's time is the submit). */
    const findMs: number[] = [];
    const loadBefore = machine().loadavg;
    const cpuBefore = { gateway: await cpuSeconds(child.pid ?? 0), pocketbase: await cpuSeconds(pbPid) };
    const started = Date.now();
    console.log(
      `The rush: ${families.length} families over ${MINUTES} min at ${credentials.length} stations (${DESK})…`,
    );
    await Promise.all(
      credentials.map(async (cookie, station) => {
        for (const { family, at } of arrivals.filter((_, k) => k % credentials.length === station)) {
          const wait = started + at - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const t0 = performance.now();
          const found = await post<FamiliesAnswer>(url, cookie, {
            operationName: "CheckinStationFamilies",
            variables: { sessionId, search: family.digits },
            query: findQuery,
          });
          findMs.push(performance.now() - t0);
          const match = found.data?.checkinFamilies ?? [];
          if (found.errors || match.length !== 1) {
            wrongs.push(`find ${family.digits}: ${JSON.stringify(found.errors ?? match.length)}`);
            continue;
          }
          const people = match[0]!.members
            .filter((m) => family.children.includes(m.personId))
            .map((m) => ({
              personId: m.personId,
              roomId: m.suggestedRoomId!,
              clientKey: `${family.digits}-${m.personId}`,
            }));
          const done = await post<CheckInAnswer>(url, cookie, {
            operationName: "CheckinStationCheckIn",
            variables: { input: { sessionId, people } },
            query: checkInQuery,
          });
          const ms = performance.now() - t0;
          latencies.push(ms);
          if (!firstDone.has(station)) {
            firstDone.add(station);
            firstOfStation.push(ms);
          }
          const answer = done.data?.checkIn;
          if (
            done.errors ||
            !answer ||
            answer.refused.length ||
            answer.checkins.length !== 2 ||
            !answer.code
          ) {
            wrongs.push(`check in ${family.digits}: ${JSON.stringify(done.errors ?? answer)}`);
            continue;
          }
          if (answer.checkins.some((c) => c.code !== answer.code)) wrongs.push(`${family.digits}: two codes`);
          codes.set(family.digits, answer.code);
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const cpu = {
      gateway: (await cpuSeconds(child.pid ?? 0)) - cpuBefore.gateway,
      pocketbase: (await cpuSeconds(pbPid)) - cpuBefore.pocketbase,
    };

    // Afterwards: what PocketBase holds agrees.
    const children = await system.collection("checkins").getList(1, 1, {
      filter: system.filter('session = {:s} && kind = "child"', { s: sessionId }),
    });
    const counts = await system
      .collection("checkin_counts")
      .getFullList<{ children: number }>({ filter: system.filter("session = {:s}", { s: sessionId }) });
    const counted = counts.reduce((sum, row) => sum + row.children, 0);
    if (children.totalItems !== families.length * 2)
      wrongs.push(`PocketBase holds ${children.totalItems} children, not ${families.length * 2}`);
    if (counted !== families.length * 2) wrongs.push(`the counts say ${counted} children`);
    if (new Set(codes.values()).size !== codes.size) wrongs.push("two households share a code");

    const s = stats(latencies, wrongs.length);
    const m = machine();
    console.log(
      `\nMachine: ${m.cpus} CPU(s) (${m.model}), Node ${m.node}, load average ${loadBefore.join(" / ")} before the rush.`,
    );
    console.log(
      `Families checked in: ${s.count} in ${f(seconds)} s (${f((families.length * 2) / (seconds / 60), 1)} children a minute), ` +
        `${wrongs.length} wrong answers.`,
    );
    console.log(
      `A family's check-in (find + submit): p50 ${f(s.p50)} ms, p95 ${f(s.p95)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms ` +
        `(target p95 ≤ ${TARGET_P95_MS} ms: ${s.p95 <= TARGET_P95_MS ? "met" : "NOT met"}).`,
    );
    const first = stats(firstOfStation);
    const rest = stats(latencies.filter((ms) => !firstOfStation.includes(ms)));
    console.log(
      `  each station's first family: p50 ${f(first.p50)} ms, max ${f(first.max)} ms; ` +
        `the others: p50 ${f(rest.p50)} ms, p95 ${f(rest.p95)} ms, max ${f(rest.max)} ms.`,
    );
    const finds = stats(findMs);
    console.log(`  of which the find: p50 ${f(finds.p50)} ms, p95 ${f(finds.p95)} ms.`);
    console.log(`CPU over the rush: gateway ${f(cpu.gateway, 1)} s, PocketBase ${f(cpu.pocketbase, 1)} s.`);
    for (const wrong of wrongs.slice(0, 5)) console.error(`WRONG: ${wrong}`);
    return wrongs.length ? 1 : 0;
  } finally {
    if (child) await stopBenchStack(child);
    await rm(dataDir, { recursive: true, force: true });
    if (flag("cpu-prof")) console.log(`CPU profile of the gateway written to ${PROFILE_DIR}/`);
  }
}

process.exitCode = await main();
