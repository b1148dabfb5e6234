/**
 * System jobs run once across gateway replicas (issue 33): the lease route (pb_hooks/leases.pb.js) hands a
 * job to one holder at a time, inside one write transaction; a periodic job with leases runs only on the
 * holder; a holder that stops gives the job back; nobody but the system reads or takes a lease. Two
 * processes on one PocketBase, end to end, are in replicas.int.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type PocketBase from "pocketbase";
import { SystemClient } from "../src/pocketbase/client.ts";
import { JobLeases, leaseMsFor, replicaId } from "../src/system/job-leases.ts";
import { startPeriodicJob } from "../src/system/periodic-job.ts";
import { createUser, pbAs, pbUrl, restStatus, system, type TestUser } from "./helpers.ts";

let su: PocketBase;
let member: TestUser;
const replica = () => new JobLeases(new SystemClient(pbUrl(), inject("superuser")));
/** A job name of this test's own, so no other file's lease is in the way. */
const jobName = () => `test-${randomUUID().slice(0, 8)}`;
const leaseOf = (job: string) =>
  su.collection("job_leases").getFirstListItem(su.filter("job = {:job}", { job }));
const stops: Array<() => void> = [];

beforeAll(async () => {
  su = await system();
  member = await createUser();
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe("the lease route", () => {
  it("gives a job to one holder; the holder renews it; another gets it once it ran out or was given back", async () => {
    const [a, b] = [replica(), replica()];
    const job = jobName();
    expect(await a.claim(job, 60_000)).toBe(true);
    expect(await b.claim(job, 60_000)).toBe(false);
    expect(await a.claim(job, 60_000)).toBe(true);
    expect(await leaseOf(job)).toMatchObject({ holder: a.holder, runs: 2 });

    await b.release(job); // not b's: nothing changes
    expect(await b.claim(job, 60_000)).toBe(false);
    await a.release(job);
    expect(await b.claim(job, 60_000)).toBe(true);
    expect(await leaseOf(job)).toMatchObject({ holder: b.holder, runs: 3 });

    // A lease that ran out (its holder died) goes to whoever asks next.
    await su
      .collection("job_leases")
      .update((await leaseOf(job)).id, { expiresAt: "2020-01-01 00:00:00.000Z" });
    expect(await a.claim(job, 60_000)).toBe(true);
    expect(await leaseOf(job)).toMatchObject({ holder: a.holder, runs: 4 });
  });

  it("a gateway restarted after a crash is the same holder (host and port) and takes its jobs back at once", async () => {
    const system = () => new SystemClient(pbUrl(), inject("superuser"));
    const job = jobName();
    const before = new JobLeases(system(), replicaId(3000));
    expect(before.holder).toMatch(/:3000$/);
    expect(await before.claim(job, 60_000)).toBe(true);
    // SIGKILL: no release. The restarted process, same host and port, is not kept waiting 60 s.
    expect(await new JobLeases(system(), replicaId(3000)).claim(job, 60_000)).toBe(true);
    // Another replica (another port) still is.
    expect(await new JobLeases(system(), replicaId(3001)).claim(job, 60_000)).toBe(false);
    // In-process gateways without a port are each their own holder.
    expect(replicaId(0)).not.toBe(replicaId(0));
  });

  it("two replicas asking at once, twenty times each: every run is granted to exactly one", async () => {
    const [a, b] = [replica(), replica()];
    const job = jobName();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => Promise.all([a.claim(job, 60_000), b.claim(job, 60_000)])),
    );
    const byA = answers.filter(([heldByA]) => heldByA).length;
    const byB = answers.filter(([, heldByB]) => heldByB).length;
    // The first grant decides the holder; every later ask of the holder renews, the other's are refused.
    expect(Math.min(byA, byB)).toBe(0);
    expect(byA + byB).toBe(20);
    expect((await leaseOf(job)).runs).toBe(20);
  });

  it("refuses a malformed job, holder or length", async () => {
    const pb = await new SystemClient(pbUrl(), inject("superuser")).get();
    const claim = (body: object) =>
      restStatus(() => pb.send("/api/flock/leases/claim", { method: "POST", body }));
    expect(await claim({ job: "Bad Name", holder: "h", seconds: 5 })).toBe(400);
    expect(await claim({ job: "ok", holder: "has spaces", seconds: 5 })).toBe(400);
    expect(await claim({ job: "ok", holder: "h", seconds: 0 })).toBe(400);
    expect(await claim({ job: "ok", holder: "h", seconds: 1.5 })).toBe(400);
  });

  it.each([
    ["a visitor", () => pbAs(null)],
    ["a member", () => pbAs(member)],
  ])("%s can neither take a lease nor read or change one", async (_who, client) => {
    const job = jobName();
    expect(await replica().claim(job, 60_000)).toBe(true);
    const lease = await leaseOf(job);
    const pb = client();
    const body = { job, holder: "intruder", seconds: 60 };
    expect(
      await restStatus(() => pb.send("/api/flock/leases/claim", { method: "POST", body })),
    ).toBeGreaterThanOrEqual(401);
    expect(
      await restStatus(() => pb.send("/api/flock/leases/release", { method: "POST", body })),
    ).toBeGreaterThanOrEqual(401);
    expect(await restStatus(() => pb.collection("job_leases").getList(1, 10))).toBe(403);
    expect(await restStatus(() => pb.collection("job_leases").getOne(lease.id))).toBe(403);
    expect(await restStatus(() => pb.collection("job_leases").update(lease.id, { holder: "intruder" }))).toBe(
      403,
    );
    expect(await restStatus(() => pb.collection("job_leases").delete(lease.id))).toBe(403);
    expect(
      await restStatus(() =>
        pb
          .collection("job_leases")
          .create({ job: jobName(), holder: "x", expiresAt: "2030-01-01 00:00:00.000Z" }),
      ),
    ).toBe(403);
    expect(await leaseOf(job)).toMatchObject({ holder: lease.holder, runs: 1 });
  });
});

describe("a periodic job under leases", () => {
  it("runs on one of two replicas only, each run numbered once; when that one stops, the other takes over", async () => {
    const [a, b] = [replica(), replica()];
    const name = jobName();
    const runs: string[] = [];
    const start = (leases: JobLeases, who: string) =>
      startPeriodicJob({
        name,
        intervalMs: 200,
        leases,
        run: async () => void runs.push(who),
        report: () => null,
        failure: "could not run",
      });
    const stop = { a: start(a, "a"), b: start(b, "b") };
    stops.push(stop.a, stop.b); // stopping twice is harmless
    await expect.poll(() => runs.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    const leader = runs[0]!;
    expect(new Set(runs)).toEqual(new Set([leader]));
    // Every run the lease granted was run once (give or take the one under way as we read).
    const granted = (await leaseOf(name)).runs;
    expect(Math.abs(granted - runs.length)).toBeLessThanOrEqual(1);

    // The leader stops (and gives the job back): the other replica runs it from its next tick.
    stop[leader as "a" | "b"]();
    const follower = leader === "a" ? "b" : "a";
    await expect
      .poll(() => runs.filter((who) => who === follower).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    const after = runs.slice(runs.indexOf(follower));
    expect(new Set(after)).toEqual(new Set([follower]));
  });

  it("a lease lasts two intervals and five seconds: a dead holder's job moves within that", () => {
    expect(leaseMsFor(30_000)).toBe(65_000);
    expect(leaseMsFor(200)).toBe(5_400);
  });
});
