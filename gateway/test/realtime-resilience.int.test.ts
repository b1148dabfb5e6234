// QUALITY.md P6 and R1: PocketBase crashes (SIGKILL) while clients are subscribed to the prayer wall
// through the gateway. The gateway must stay up and say so honestly (/healthz 200, /readyz 503,
// queries answer SERVICE_UNAVAILABLE), and once PocketBase is back every subscriber must be told to
// refetch (RESYNC) and receive new changes again within 10 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "node:http";
import type PocketBase from "pocketbase";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import type { Gateway } from "../src/index.ts";
import {
  approvedPublicRequest,
  DedicatedPocketBase,
  kindOf,
  WALL_SUBSCRIPTION,
  type WallEvent,
} from "./realtime-support.ts";

const GUESTS = 14;
const PER_MEMBER = 3;
/** QUALITY.md P6. */
const RECOVERY_BUDGET_MS = 10_000;

let pocketbase: DedicatedPocketBase;
let gateway: Gateway;
let url: string;
/** A second gateway whose first subscriber arrives while PocketBase is down. */
let lateGateway: Gateway;
let lateUrl: string;
let system: PocketBase;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const clients: GraphQLSseClient<WallEvent>[] = [];

beforeAll(async () => {
  pocketbase = await DedicatedPocketBase.start();
  ({ gateway, url } = await pocketbase.gateway());
  ({ gateway: lateGateway, url: lateUrl } = await pocketbase.gateway());
  system = await pocketbase.system();
});

afterAll(async () => {
  for (const client of clients) client.close();
  agent.destroy();
  await gateway?.close();
  await lateGateway?.close();
  await pocketbase?.stop();
});

const graphql = async (query: string, token?: string) => {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    },
  };
};

const received = (client: GraphQLSseClient<WallEvent>, id: string) =>
  client.events.some((e) => e.data.data?.prayerWall.id === id && kindOf(e) === "ADDED");

describe("the realtime bridge when PocketBase crashes and comes back", () => {
  it("keeps the gateway answering, then every subscriber resyncs and receives new requests within 10 s", async () => {
    const [alice, bob] = await Promise.all([pocketbase.member("alice"), pocketbase.member("bob")]);
    const tokens = [
      ...Array<null>(GUESTS).fill(null),
      ...Array<string>(PER_MEMBER).fill(alice.token),
      ...Array<string>(PER_MEMBER).fill(bob.token),
    ];
    for (const token of tokens)
      clients.push(new GraphQLSseClient<WallEvent>({ url, query: WALL_SUBSCRIPTION, token, agent }));
    await Promise.all(clients.map((c) => c.open()));
    // One PocketBase connection per viewer: the guests share one, alice and bob have one each.
    await expect
      .poll(() => gateway.services.realtime.stats())
      .toMatchObject({ connections: 3, subscribers: clients.length });

    // Every subscriber receives a change before the crash (the subscriptions really are live).
    const before = await approvedPublicRequest(system, "Before the crash: please pray for our youth camp.");
    await Promise.all(
      clients.map((c) =>
        c.waitFor(() => received(c, before.id), 5000, "the request created before the crash"),
      ),
    );

    await pocketbase.kill();

    // R1: the gateway stays up, reports itself not ready, and answers queries with SERVICE_UNAVAILABLE (no stack).
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    for (const token of [undefined, alice.token]) {
      const wall = await graphql("{ prayerWall(first: 5) { edges { node { id body } } } }", token);
      expect(wall.status).toBe(200);
      expect(wall.body.errors?.[0]?.extensions?.code).toBe("SERVICE_UNAVAILABLE");
      expect(JSON.stringify(wall.body)).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
    }
    // The streams stay open through the outage: clients are not cut off just because PocketBase is.
    expect(clients.filter((c) => c.ended)).toEqual([]);
    // A guest subscribing now, on a gateway with no PocketBase connection yet, gets its stream (the
    // bridge keeps trying to connect, which PocketBase's SDK does not do for a first connection).
    const late = new GraphQLSseClient<WallEvent>({ url: lateUrl, query: WALL_SUBSCRIPTION, agent });
    clients.push(late);
    await late.open();
    // A few of PocketBase's reconnection attempts fail before it is back (its SDK backs off up to 2 s).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // Counted before the restart, not after it resolves: a gateway may reconnect and send its RESYNC
    // in the moment between PocketBase answering and restart() noticing (the late gateway did, under load).
    const resyncs = clients.map((c) => c.events.length);
    const restartedAt = Date.now();
    await pocketbase.restart();
    const healthyAt = Date.now();
    // P6: each subscriber is told to refetch, which the bridge does only once its connection has
    // resubscribed; a change made after that reaches everyone.
    await Promise.all(
      clients.map((c, i) =>
        c.waitFor(
          (events) => events.slice(resyncs[i]).some((e) => kindOf(e) === "RESYNC"),
          RECOVERY_BUDGET_MS - (Date.now() - restartedAt),
          "a RESYNC",
        ),
      ),
    );
    const resyncedAt = Date.now();
    const after = await approvedPublicRequest(system, "After the restart: thank you for praying with us.");
    await Promise.all(
      clients.map((c) =>
        c.waitFor(
          () => received(c, after.id),
          Math.max(1, RECOVERY_BUDGET_MS - (Date.now() - restartedAt)),
          "the request created after the restart",
        ),
      ),
    );
    const deliveredAt = Math.max(
      ...clients.map((c) => c.events.find((e) => e.data.data?.prayerWall.id === after.id)!.receivedAt),
    );

    for (const [i, client] of clients.entries()) {
      const sinceRestart = client.events.slice(resyncs[i]).map(kindOf);
      // RESYNC comes before the new request, so the client refetches what it missed during the outage.
      expect(sinceRestart.indexOf("RESYNC")).toBeLessThan(sinceRestart.indexOf("ADDED"));
      expect(client.events.every((e) => !e.data.errors)).toBe(true);
      expect(client.ended).toBeNull();
    }
    expect(deliveredAt - restartedAt).toBeLessThanOrEqual(RECOVERY_BUDGET_MS);
    expect(gateway.services.realtime.stats()).toMatchObject({
      connections: 3,
      subscribers: clients.length - 1,
      reconnects: 3,
    });
    expect(lateGateway.services.realtime.stats()).toMatchObject({
      connections: 1,
      subscribers: 1,
      reconnects: 1,
    });
    await expect.poll(async () => (await fetch(`${url}/readyz`)).status).toBe(200);

    console.log(
      `[P6] ${clients.length} subscribers (${GUESTS} guests, 2 members × ${PER_MEMBER}, 1 guest who subscribed during the outage): PocketBase healthy ${healthyAt - restartedAt} ms after restart; ` +
        `all RESYNCed ${resyncedAt - restartedAt} ms after restart; new request delivered to all ${deliveredAt - restartedAt} ms after restart (budget ${RECOVERY_BUDGET_MS} ms).`,
    );
  });
});
