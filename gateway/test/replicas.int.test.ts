/**
 * Gateway replicas (issue 33), as a host runs them: a real redis-server, two gateway processes
 * (gateway/src/main.ts, as the image starts it) on one PocketBase, and nginx in front of them, round
 * robin, configured by the file docs/DEPLOYMENT.md gives (deploy/nginx/flock-replicas.conf). Shown: the
 * sign-in limit and an API token's limit count across both replicas; a system job's runs happen on one
 * replica at a time, each once, and go on once when that replica is killed; a resumable upload whose
 * pieces reach both replicas arrives whole; a subscription opened on one replica hears a change written
 * through the other.
 *
 * Needs the Debian packages redis-server and nginx (.ci/run installs them).
 */
import { type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type PocketBase from "pocketbase";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { THROTTLE } from "@flock/shared/limits";
import { API_TOKEN_RATE } from "../src/access/api-tokens.ts";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import { freePort } from "../../scripts/lib/stack.ts";
import { startNginx, startRedis, startReplica, type Replica } from "../../scripts/lib/replicas.ts";
import { stopProcess } from "../../scripts/lib/processes.ts";
import { createUser, CSRF_HEADER, pbUrl, system, testWorker, type TestUser } from "./helpers.ts";
import { TUS_VERSION } from "./tus-version.ts";
import { toneMp3 } from "../../scripts/lib/mp3.ts";

const run = Math.random().toString(36).slice(2, 8);

let dir = "";
let redis: ChildProcess | null = null;
let nginx: ChildProcess | null = null;
const replicas: Replica[] = [];
let site = "";
let su: PocketBase;
let admin: TestUser;

/** A replica on this worker's PocketBase, sharing `redisUrl`. */
function replica(name: "a" | "b", port: number, redisUrl: string): Promise<Replica> {
  const { email, password } = inject("superuser");
  return startReplica(name, port, {
    PB_URL: pbUrl(),
    PB_SUPERUSER_EMAIL: email,
    PB_SUPERUSER_PASSWORD: password,
    PUBLIC_URL: "http://flock.test",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(testWorker().smtpPort),
    SMTP_FROM: "no-reply@flock.test",
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `test-${run}`,
    // The scheduler every half second, so the test sees many runs (its lease: 2 × 0.5 s + 5 s).
    FLOCK_JOB_INTERVALS: "scheduler=500",
    LOG_FORMAT: "text",
    // Replicas on one machine share the staging folder of resumable uploads (docs/DEPLOYMENT.md).
    UPLOAD_DIR: join(dir, "uploads"),
  });
}

/** POST /graphql through `url` (nginx unless said otherwise). */
async function graphql(
  query: string,
  options: { url?: string; token?: string; variables?: Record<string, unknown> } = {},
) {
  const response = await fetch(`${options.url ?? site}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [CSRF_HEADER]: "1",
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  const body = (await response.json()) as {
    data?: Record<string, unknown> | null;
    errors?: Array<{ extensions?: { code?: string } }>;
  };
  return { status: response.status, upstream: response.headers.get("x-upstream"), body };
}

/** A replica's count of the scheduler's runs by outcome (flock_job_runs_total, read from its /metrics). */
async function schedulerRuns(replica: Replica): Promise<{ ran: number; skipped: number }> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === "flock_job_runs_total");
  const count = (outcome: string) =>
    Number(
      family?.metrics.find((m) => m.labels?.job === "scheduler" && m.labels?.outcome === outcome)?.value ?? 0,
    );
  return { ran: count("ran"), skipped: count("skipped") };
}

/** The job's lease row (pb_hooks/leases.pb.js). */
const lease = (job: string) =>
  su
    .collection("job_leases")
    .getFirstListItem<{ holder: string; runs: number }>(su.filter("job = {:job}", { job }));

/** Which replica a lease holder ("host:port") is. */
const replicaHolding = (holder: string) => replicas.find((r) => r.url.endsWith(`:${holder.split(":")[1]}`));

beforeAll(async () => {
  su = await system();
  admin = await createUser({ roles: ["Administrator"] });
  dir = await mkdtemp(join(tmpdir(), "flock-replicas-"));
  const [redisPort, portA, portB, nginxPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  redis = startRedis(redisPort!, dir);
  // A lease left by another file's gateway that did not stop cleanly would hold the job for a while.
  for (const row of await su.collection("job_leases").getFullList({ filter: 'job = "scheduler"' }))
    await su.collection("job_leases").delete(row.id);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  replicas.push(...(await Promise.all([replica("a", portA!, redisUrl), replica("b", portB!, redisUrl)])));
  nginx = await startNginx([portA!, portB!], nginxPort!, dir).catch((error: Error) => {
    throw new Error(`${error.message}\n${replicas.map((r) => `replica ${r.name}:\n${r.output}`).join("\n")}`);
  });
  site = `http://127.0.0.1:${nginxPort}`;
}, 180_000);

afterAll(async () => {
  await Promise.all([...replicas.map((r) => stopProcess(r.child)), stopProcess(nginx), stopProcess(redis)]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("two gateway replicas behind nginx, sharing Redis and PocketBase", () => {
  it("nginx hands requests to both replicas in turn", async () => {
    const upstreams = new Set<string | null>();
    for (let i = 0; i < 4; i++) upstreams.add((await graphql("{ ping }")).upstream);
    expect([...upstreams].sort()).toEqual(replicas.map((r) => r.url.replace("http://", "")).sort());
  });

  it(`the sign-in limit counts across both: ${THROTTLE.signInFailuresPerAccount} wrong passwords, then the next is refused whichever replica gets it`, async () => {
    const member = await createUser();
    const signIn = () =>
      graphql(
        `
          mutation ($input: SignInInput!) {
            signIn(input: $input) {
              user {
                id
              }
            }
          }
        `,
        {
          variables: { input: { email: member.email, password: "not-the-password" } },
        },
      );
    const answers = [];
    for (let i = 0; i < THROTTLE.signInFailuresPerAccount; i++) answers.push(await signIn());
    expect(answers.map((a) => a.body.errors?.[0]?.extensions?.code)).toEqual(
      answers.map(() => "BAD_USER_INPUT"),
    );
    expect(new Set(answers.map((a) => a.upstream)).size).toBe(2);
    // Both replicas now refuse, each counting what the other saw.
    for (const replica of replicas) {
      const refused = await graphql(
        `
          mutation ($input: SignInInput!) {
            signIn(input: $input) {
              user {
                id
              }
            }
          }
        `,
        {
          url: replica.url,
          variables: { input: { email: member.email, password: member.password } },
        },
      );
      expect(refused.body.errors?.[0]?.extensions?.code, `replica ${replica.name}`).toBe("RATE_LIMITED");
    }
  });

  it(`an API token's ${API_TOKEN_RATE.limit} requests a minute are shared: the ${API_TOKEN_RATE.limit + 1}st is refused on either replica`, async () => {
    const created = await graphql(
      `
        mutation ($input: CreateApiTokenInput!) {
          createApiToken(input: $input) {
            secret
          }
        }
      `,
      { token: admin.token, variables: { input: { name: `Replicas ${run}`, scopes: [] } } },
    );
    const secret = (created.body.data?.createApiToken as { secret: string }).secret;
    const statuses: number[] = [];
    const upstreams = new Set<string | null>();
    // Twenty at a time through nginx, as an integrator's sync would send them.
    for (let sent = 0; sent < API_TOKEN_RATE.limit; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, API_TOKEN_RATE.limit - sent) }, () =>
          graphql("{ ping }", { token: secret }),
        ),
      );
      for (const answer of batch) {
        statuses.push(answer.status);
        upstreams.add(answer.upstream);
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(API_TOKEN_RATE.limit);
    expect(upstreams.size).toBe(2);
    for (const replica of replicas) {
      const refused = await graphql("{ ping }", { url: replica.url, token: secret });
      expect(refused.status, `replica ${replica.name}`).toBe(429);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    }
  });

  it("a resumable sermon upload whose pieces reach different replicas arrives whole (one UPLOAD_DIR)", async () => {
    const editor = await createUser({ roles: ["Editor"] });
    const bytes = toneMp3(8);
    const tus = (method: string, url: string, extra: Record<string, string> = {}, body?: BodyInit) =>
      fetch(url, {
        method,
        headers: { "tus-resumable": TUS_VERSION, authorization: `Bearer ${editor.token}`, ...extra },
        ...(body ? { body } : {}),
      });
    const metadata = `filename ${Buffer.from("sermon.mp3").toString("base64")},filetype ${Buffer.from("audio/mpeg").toString("base64")}`;
    const created = await tus("POST", `${site}/uploads/audio`, {
      "upload-length": String(bytes.length),
      "upload-metadata": metadata,
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get("location")!, site).pathname;
    const upstreams = new Set([created.headers.get("x-upstream")]);
    const chunk = Math.ceil(bytes.length / 4);
    for (let offset = 0; offset < bytes.length; offset += chunk) {
      const piece = bytes.subarray(offset, offset + chunk);
      const sent = await tus(
        "PATCH",
        `${site}${path}`,
        { "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
        new Uint8Array(piece),
      );
      expect(sent.status, `the piece at ${offset}`).toBe(204);
      upstreams.add(sent.headers.get("x-upstream"));
    }
    expect(upstreams.size).toBe(2);
    for (const replica of replicas) {
      const head = await tus("HEAD", `${replica.url}${path}`);
      expect(head.headers.get("upload-offset"), `replica ${replica.name}`).toBe(String(bytes.length));
    }
  });

  it("a subscription opened on one replica hears a change written through the other", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const stream = new GraphQLSseClient<{ data?: { settingsChanged: { tagline: string } } }>({
      url: a.url,
      query: "subscription { settingsChanged { tagline } }",
    });
    await stream.open();
    const before = await graphql("{ settings { tagline } }", { url: b.url });
    const tagline = `Across replicas ${run}`;
    try {
      const saved = await graphql(
        `
          mutation ($input: UpdateSettingsInput!) {
            updateSettings(input: $input) {
              tagline
            }
          }
        `,
        { url: b.url, token: admin.token, variables: { input: { tagline } } },
      );
      expect(saved.body.errors).toBeUndefined();
      await stream.waitFor(
        (events) => events.some((e) => e.data.data?.settingsChanged.tagline === tagline),
        15_000,
        "the new tagline on replica a",
      );
    } finally {
      stream.close();
      const old = (before.body.data?.settings as { tagline: string }).tagline;
      await graphql(
        `
          mutation ($input: UpdateSettingsInput!) {
            updateSettings(input: $input) {
              tagline
            }
          }
        `,
        {
          url: b.url,
          token: admin.token,
          variables: { input: { tagline: old } },
        },
      );
    }
  });

  it("a system job runs on one replica at a time, each run once; when that replica is killed the other goes on", async () => {
    // Both replicas tick every 0.5 s; the lease lets one of them run.
    await expect
      .poll(async () => (await lease("scheduler").catch(() => null))?.runs ?? 0, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(6);
    const first = await lease("scheduler");
    const holder = replicaHolding(first.holder);
    expect(holder, `a holder among the replicas: ${first.holder}`).toBeDefined();
    // It keeps the job: a few seconds later the same replica holds it, and every run in between was granted
    // once, numbered by PocketBase's transaction.
    await new Promise((done) => setTimeout(done, 2_000));
    const later = await lease("scheduler");
    expect(later.holder).toBe(first.holder);
    expect(later.runs).toBeGreaterThan(first.runs);
    // Each replica's own count: the holder ran every run, the other ran none and skipped its ticks; the
    // runs between them are the runs PocketBase granted (give or take one under way as they are read).
    const other = replicas.find((r) => r !== holder)!;
    // Runs go on while we read (every 0.5 s, slower on a busy machine): the holder's count must fall
    // between the granted runs read just before and just after it.
    const grantedBefore = (await lease("scheduler")).runs;
    const [held, idle] = await Promise.all([schedulerRuns(holder!), schedulerRuns(other)]);
    const grantedAfter = (await lease("scheduler")).runs;
    expect(idle.ran).toBe(0);
    expect(idle.skipped).toBeGreaterThan(0);
    expect(held.ran).toBeGreaterThanOrEqual(grantedBefore - 1);
    expect(held.ran).toBeLessThanOrEqual(grantedAfter);

    // The holder dies without a word (no lease given back): the other takes over once the lease runs out.
    await stopProcess(holder!.child, "SIGKILL");
    const atDeath = (await lease("scheduler")).runs;
    await expect
      .poll(async () => replicaHolding((await lease("scheduler")).holder)?.name, { timeout: 20_000 })
      .toBe(other.name);
    const taken = (await lease("scheduler")).runs;
    await expect
      .poll(async () => (await lease("scheduler")).runs, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(taken + 3);
    expect((await lease("scheduler")).runs).toBeGreaterThan(atDeath);
    // Now the survivor runs them, each once: its own count follows the granted runs after the takeover.
    const survivorBefore = (await lease("scheduler")).runs;
    const survivor = await schedulerRuns(other);
    const survivorAfter = (await lease("scheduler")).runs;
    expect(survivor.ran).toBeGreaterThanOrEqual(3);
    expect(survivor.ran).toBeGreaterThanOrEqual(survivorBefore - atDeath - 1);
    expect(survivor.ran).toBeLessThanOrEqual(survivorAfter - atDeath + 1);
    // Through nginx the church is still served (the dead replica is skipped).
    const served = await graphql("{ ping }");
    expect(served.status).toBe(200);
    expect(served.upstream).toContain(other.url.replace("http://", ""));
    // Its own length is by design: it waits out a dead holder's lease (2 × 0.5 s + 5 s) besides the runs.
  }, 60_000);
});
