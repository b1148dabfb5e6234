// QUALITY.md P5 for `npm run bench`: a change reaches 500 SSE subscribers through the gateway with
// p50 ≤ 100 ms, p99 ≤ 500 ms, none lost.
//
// Opens SUBSCRIBERS `prayerWall` subscriptions through the gateway (mostly guests, who share one
// PocketBase connection, plus two signed-in members with their own), then writes CHANGES approved
// public prayer requests through the system client, one every PACE_MS, each body carrying the time
// it was sent. Every subscriber notes when each one arrives. Delivery latency = arrival − send time
// (one machine, one clock). The selection is the web app's own wall subscription document, so
// whatever the app asks for on each event is part of what is measured.
import { print } from "graphql";
import { PrayerWallEventsDocument } from "../web/src/features/prayer/prayer.generated.ts";
import { Agent } from "node:http";
import PocketBase from "pocketbase";
import { GraphQLSseClient } from "./lib/sse-client.ts";

export interface P5Options {
  url: string;
  pbUrl: string;
  superuser: { email: string; password: string };
  /** Signed-in subscribers: [token, how many subscriptions]. */
  members: Array<{ token: string; subscriptions: number }>;
  subscribers?: number;
  changes?: number;
  paceMs?: number;
  /** "card" (default): what the web app asks for; "lean": record fields only. */
  selection?: "card" | "lean";
}

export interface P5Result {
  subscribers: number;
  changes: number;
  expected: number;
  received: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  openSeconds: number;
  targetsMet: boolean;
}

/** Exactly what the web app's wall subscribes with (web/src/features/prayer/prayer.graphql). */
const CARD_SELECTION = print(PrayerWallEventsDocument);
/** Only fields read from the event's record: the transport alone (bridge, Yoga, SSE), no per-viewer lookups. */
const LEAN_SELECTION = "subscription { prayerWall { kind id request { id body } } }";
const MARK = "P5 bench change";

interface WallPayload {
  data?: { prayerWall: { kind: string; request: { body: string } | null } };
  errors?: unknown[];
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runP5(options: P5Options): Promise<P5Result> {
  const total = options.subscribers ?? 500;
  const changes = options.changes ?? 20;
  const paceMs = options.paceMs ?? 250;
  const memberCount = options.members.reduce((n, m) => n + m.subscriptions, 0);
  const tokens: (string | null)[] = [
    ...options.members.flatMap((m) => Array<string>(m.subscriptions).fill(m.token)),
    ...Array<null>(Math.max(0, total - memberCount)).fill(null),
  ];

  // Two sockets per subscriber (this end and the gateway's) in this machine's file-descriptor table.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const query = options.selection === "lean" ? LEAN_SELECTION : CARD_SELECTION;
  const clients = tokens.map(
    (token) => new GraphQLSseClient<WallPayload>({ url: options.url, query, token, agent }),
  );
  const system = new PocketBase(options.pbUrl);
  system.autoCancellation(false);
  await system
    .collection("_superusers")
    .authWithPassword(options.superuser.email, options.superuser.password);

  try {
    const openStarted = Date.now();
    for (let i = 0; i < clients.length; i += 50) {
      try {
        await Promise.all(clients.slice(i, i + 50).map((c) => c.open()));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EMFILE") {
          throw new Error(
            `Out of file descriptors opening ${total} subscriptions: raise the limit (ulimit -n 4096) and run again.`,
          );
        }
        throw error;
      }
    }
    const openSeconds = (Date.now() - openStarted) / 1000;
    await sleep(500); // let the PocketBase subscriptions settle before timing anything

    const sent: number[] = [];
    for (let n = 0; n < changes; n++) {
      const sentAt = Date.now();
      sent.push(sentAt);
      await system.collection("prayer_requests").create({
        body: `${MARK} #${n} sent=${sentAt}`,
        visibility: "public",
        anonymous: false,
        authorName: "Bench",
        status: "approved",
        approvedAt: new Date().toISOString(),
      });
      await sleep(paceMs);
    }
    // Stragglers: wait until everything arrived or five quiet seconds passed.
    const expected = clients.length * changes;
    const countReceived = () =>
      clients.reduce(
        (n, c) => n + c.events.filter((e) => e.data.data?.prayerWall.request?.body.startsWith(MARK)).length,
        0,
      );
    const deadline = Date.now() + 5000;
    while (countReceived() < expected && Date.now() < deadline) await sleep(100);

    const latencies: number[] = [];
    let errors = 0;
    for (const client of clients) {
      for (const event of client.events) {
        if (event.data.errors) errors += 1;
        const match = /sent=(\d+)/.exec(event.data.data?.prayerWall.request?.body ?? "");
        if (match && event.data.data!.prayerWall.request!.body.startsWith(MARK))
          latencies.push(event.receivedAt - Number(match[1]));
      }
    }
    latencies.sort((a, b) => a - b);
    const received = latencies.length;
    const result: P5Result = {
      subscribers: clients.length,
      changes,
      expected,
      received,
      lost: expected - received,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? Number.NaN,
      openSeconds,
      targetsMet: false,
    };
    result.targetsMet = result.p50 <= 100 && result.p99 <= 500 && result.lost === 0;
    const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
    console.log(
      [
        "",
        `P5: realtime delivery through the gateway (QUALITY.md)`,
        "",
        `  ${clients.length} SSE subscribers (${clients.length - memberCount} guests, ${memberCount} signed-in over ${options.members.length} users), opened in ${openSeconds.toFixed(1)} s`,
        `  selection: ${options.selection === "lean" ? "record fields only (--p5-selection=lean)" : "the web app's wall subscription (PrayerWallEvents)"}`,
        `  ${changes} changes, one every ${paceMs} ms; ${expected} deliveries expected, ${received} received${errors ? `, ${errors} events with GraphQL errors` : ""}`,
        "",
        `  p50 delivery   ${result.p50.toFixed(0).padStart(5)} ms   target ≤ 100 ms   ${verdict(result.p50 <= 100)}`,
        `  p99 delivery   ${result.p99.toFixed(0).padStart(5)} ms   target ≤ 500 ms   ${verdict(result.p99 <= 500)}`,
        `  max delivery   ${result.max.toFixed(0).padStart(5)} ms`,
        `  lost           ${String(result.lost).padStart(5)}      target 0          ${verdict(result.lost === 0)}`,
        "",
      ].join("\n"),
    );
    if (errors)
      throw new Error(
        `${errors} subscription events carried GraphQL errors: the figures measure the wrong thing.`,
      );
    return result;
  } finally {
    for (const client of clients) client.close();
    agent.destroy();
  }
}
