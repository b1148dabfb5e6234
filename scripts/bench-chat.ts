// QUALITY.md P5 for group chat (issue 15), `npm run bench -- --scenario=chat`: one group with 200
// members, each with their own `groupMessages` subscription through the gateway (so 200 distinct
// viewers: 200 PocketBase realtime connections, each judged by the members-only rules), and
// CHANGES messages written by the system client, one every PACE_MS, each body carrying the time it
// was sent. Delivery latency = arrival − send time (one machine, one clock). Targets as P5: p50 ≤ 100 ms,
// p99 ≤ 500 ms, none lost.
import { randomUUID } from "node:crypto";
import { Agent } from "node:http";
import PocketBase from "pocketbase";
import { GraphQLSseClient } from "./lib/sse-client.ts";

export interface ChatBenchOptions {
  url: string;
  pbUrl: string;
  superuser: { email: string; password: string };
  members?: number;
  changes?: number;
  paceMs?: number;
}

interface ChatPayload {
  data?: { groupMessages: { kind: string; message: { body: string } | null } };
  errors?: unknown[];
}

const MARK = "P5 chat bench";
const QUERY =
  "subscription($g: ID!) { groupMessages(groupId: $g) { kind id message { id body authorName created } } }";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], q: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
    : Number.NaN;

export async function runChatP5(options: ChatBenchOptions): Promise<{ targetsMet: boolean }> {
  const count = options.members ?? 200;
  const changes = options.changes ?? 20;
  const paceMs = options.paceMs ?? 250;
  const system = new PocketBase(options.pbUrl);
  system.autoCancellation(false);
  await system
    .collection("_superusers")
    .authWithPassword(options.superuser.email, options.superuser.password);
  const run = randomUUID().slice(0, 6);
  const group = await system.collection("groups").create({
    name: `Chat bench ${run}`,
    slug: `chat-bench-${run}`,
    type: "team",
    locationDisplay: "hidden",
    visibility: "hidden",
    joinPolicy: "closed",
    rosterVisibility: "leaders",
    chatEnabled: true,
    status: "active",
  });
  // Members with logins; tokens by impersonation (no password hashing for 200 accounts).
  const tokens: string[] = [];
  let author = "";
  for (let i = 0; i < count; i++) {
    const person = await system
      .collection("people")
      .create({ firstName: "Bench", lastName: `Member ${i}`, recordStatus: "active" });
    if (i === 0) author = person.id;
    const user = await system.collection("users").create({
      email: `chat-bench-${run}-${i}@bench.example`,
      password: `bench-password-${run}`,
      passwordConfirm: `bench-password-${run}`,
      verified: true,
      person: person.id,
      status: "active",
    });
    await system
      .collection("group_members")
      .create({ group: group.id, person: person.id, role: i === 0 ? "leader" : "member", status: "active" });
    tokens.push((await system.collection("users").impersonate(user.id, 3600)).authStore.token);
  }
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const clients = tokens.map(
    (token) =>
      new GraphQLSseClient<ChatPayload>({
        url: options.url,
        query: QUERY,
        variables: { g: group.id },
        token,
        agent,
      }),
  );
  try {
    const openStarted = Date.now();
    for (let i = 0; i < clients.length; i += 25)
      await Promise.all(clients.slice(i, i + 25).map((c) => c.open()));
    const openSeconds = (Date.now() - openStarted) / 1000;
    await sleep(500);
    for (let n = 0; n < changes; n++) {
      const sentAt = Date.now();
      await system.collection("group_messages").create({
        group: group.id,
        author,
        authorName: "Bench",
        body: `${MARK} #${n} sent=${sentAt}`,
        clientKey: randomUUID(),
      });
      await sleep(paceMs);
    }
    const expected = clients.length * changes;
    const received = () =>
      clients.reduce(
        (n, c) =>
          n + c.events.filter((e) => e.data.data?.groupMessages.message?.body.startsWith(MARK)).length,
        0,
      );
    const deadline = Date.now() + 5000;
    while (received() < expected && Date.now() < deadline) await sleep(100);
    const latencies: number[] = [];
    let errors = 0;
    for (const client of clients) {
      for (const event of client.events) {
        if (event.data.errors) errors += 1;
        const body = event.data.data?.groupMessages.message?.body ?? "";
        const match = /sent=(\d+)/.exec(body);
        if (match && body.startsWith(MARK)) latencies.push(event.receivedAt - Number(match[1]));
      }
    }
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const lost = expected - latencies.length;
    const targetsMet = p50 <= 100 && p99 <= 500 && lost === 0 && errors === 0;
    const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
    console.log(
      [
        "",
        "P5 (chat): a group's messages through the gateway to its members (QUALITY.md)",
        "",
        `  ${clients.length} members, each subscribed as themself (${clients.length} PocketBase realtime connections), opened in ${openSeconds.toFixed(1)} s`,
        `  ${changes} messages, one every ${paceMs} ms; ${expected} deliveries expected, ${latencies.length} received${errors ? `, ${errors} events with GraphQL errors` : ""}`,
        "",
        `  p50 delivery   ${p50.toFixed(0).padStart(5)} ms   target ≤ 100 ms   ${verdict(p50 <= 100)}`,
        `  p99 delivery   ${p99.toFixed(0).padStart(5)} ms   target ≤ 500 ms   ${verdict(p99 <= 500)}`,
        `  max delivery   ${(latencies.at(-1) ?? Number.NaN).toFixed(0).padStart(5)} ms`,
        `  lost           ${String(lost).padStart(5)}      target 0          ${verdict(lost === 0)}`,
        "",
      ].join("\n"),
    );
    return { targetsMet };
  } finally {
    for (const client of clients) client.close();
    agent.destroy();
  }
}
