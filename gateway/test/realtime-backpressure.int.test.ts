// Backpressure (issue 5): a client that stops reading its subscription (a phone asleep, a stalled
// proxy) must not make the gateway buffer every change for it. The chain is pull-based end to end —
// the Node adapter waits for "drain" before pulling the next SSE chunk from Yoga's stream, which pulls
// the next result from the bridge's EventQueue — so the backlog piles up in one bounded place: the
// subscriber's queue, which turns into a single RESYNC when it overflows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type PocketBase from "pocketbase";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import type { Gateway } from "../src/index.ts";
import { DEFAULT_QUEUE_LIMIT } from "../src/realtime/bridge.ts";
import { approvedPublicRequest, DedicatedPocketBase, kindOf, type WallEvent } from "./realtime-support.ts";

const CHANGES = 2000;
const BODY_LENGTH = 1800;
const WRITERS = 8;
/**
 * The slow client asks for each request's body ten times (aliases, within the limit of 15): ~18 KB
 * per change. The kernel's socket buffers take the first few megabytes whatever the gateway does (on
 * Linux the send buffer grows to net.ipv4.tcp_wmem's maximum, 4 MB here), so the changes must add up
 * to well beyond that before the gateway itself has to hold anything back.
 */
const HEAVY_WALL = `subscription { prayerWall { kind id ${Array.from({ length: 10 }, (_, i) => `b${i}: request { body }`).join(" ")} } }`;

// A full collection before each heap reading, so that the figures compare live data, not garbage.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const liveHeap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

let pocketbase: DedicatedPocketBase;
let gateway: Gateway;
let url: string;
let system: PocketBase;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

beforeAll(async () => {
  pocketbase = await DedicatedPocketBase.start();
  ({ gateway, url } = await pocketbase.gateway());
  system = await pocketbase.system();
});

afterAll(async () => {
  agent.destroy();
  await gateway?.close();
  await pocketbase?.stop();
});

/** `count` approved public requests with long bodies, written by `WRITERS` concurrent system jobs. */
async function flood(count: number, onProgress: () => void): Promise<number> {
  let next = 0;
  let bytes = 0;
  const writer = async () => {
    while (next < count) {
      const n = next++;
      const body = `Flood ${n}: ${"please keep praying for the family. ".repeat(60)}`.slice(0, BODY_LENGTH);
      bytes += body.length;
      await approvedPublicRequest(system, body);
      onProgress();
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return bytes;
}

describe("a subscriber that stops reading", () => {
  it(
    "costs the gateway a bounded queue, not memory per change, and gets a RESYNC when it reads again",
    { timeout: 180_000 },
    async () => {
      const slow = new GraphQLSseClient<WallEvent>({ url, query: HEAVY_WALL, agent });
      // The healthy reader asks for ids only: its received events live in this (the gateway's) heap.
      const reader = new GraphQLSseClient<WallEvent>({
        url,
        query: "subscription { prayerWall { kind id } }",
        agent,
      });
      await Promise.all([slow.open(), reader.open()]);
      await expect.poll(() => gateway.services.realtime.stats().subscribers).toBe(2);

      slow.pause();
      const heapBefore = liveHeap();
      let maxQueued = 0;
      let samples = 0;
      const sample = () => {
        const stats = gateway.services.realtime.stats();
        maxQueued = Math.max(maxQueued, stats.queued);
        samples += 1;
      };
      const bodyBytes = await flood(CHANGES, sample);
      /** What an unbounded pipeline would have had to keep for the paused client. */
      const bytes = bodyBytes * 10;
      // Everything went through the bridge: the healthy reader on the same guest connection got all of it.
      await reader.waitFor(
        (events) => events.filter((e) => kindOf(e) === "ADDED").length === CHANGES,
        30_000,
        `${CHANGES} ADDED events`,
      );
      sample();
      const heapAfter = liveHeap();
      const stats = gateway.services.realtime.stats();

      // Memory: the gateway kept a small fraction of what was sent (bounded queue + socket buffers), where
      // an unbounded pipeline would keep everything the paused socket could not take.
      const growth = heapAfter - heapBefore;
      const ratio = growth / bytes;
      console.log(
        `[backpressure] ${CHANGES} changes (${(bytes / 1e6).toFixed(1)} MB for the paused client): max queued ${maxQueued} (limit ${DEFAULT_QUEUE_LIMIT} per subscriber), ` +
          `overflows ${stats.overflows}, ` +
          `heap growth ${(growth / 1e6).toFixed(2)} MB = ${ratio.toFixed(3)} × those bytes`,
      );
      // Bounded: no queue ever held more than the limit (the sum over both subscribers is checked), and
      // the slow one overflowed into a RESYNC instead of growing.
      expect(samples).toBeGreaterThan(CHANGES);
      expect(maxQueued).toBeLessThanOrEqual(DEFAULT_QUEUE_LIMIT * 2);
      expect(stats.overflows).toBeGreaterThan(0);
      expect(ratio).toBeLessThan(0.25);

      // Reading again: what was already in the socket buffers, then RESYNC (refetch), then live changes.
      const seen = slow.events.length;
      slow.resume();
      await slow.waitFor(
        (events) => events.slice(seen).some((e) => kindOf(e) === "RESYNC"),
        30_000,
        "a RESYNC after resuming",
      );
      const afterResync = await approvedPublicRequest(
        system,
        "After the backlog: live again for the slow client.",
      );
      await slow.waitFor(
        (events) => events.some((e) => e.data.data?.prayerWall.id === afterResync.id),
        10_000,
        "the next change",
      );
      const addedBeforeResync = slow.events.slice(
        0,
        slow.events.findIndex((e) => kindOf(e) === "RESYNC"),
      ).length;
      expect(addedBeforeResync).toBeLessThan(CHANGES);

      // Disconnecting releases the subscriptions and, with the last one, the PocketBase connection.
      slow.close();
      reader.close();
      await expect
        .poll(() => gateway.services.realtime.stats())
        .toMatchObject({ connections: 0, subscribers: 0, queued: 0 });
    },
  );
});
