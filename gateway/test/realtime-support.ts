// A PocketBase of their own for the realtime tests: the resilience test kills and restarts it (the
// worker's one from the global setup must stay up for the worker's next files), and the backpressure
// test floods the wall with thousands of requests that no later file should find on its first page.
// It starts from the global setup's migrated template (a copy, with its superuser), not from nothing.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { inject } from "vitest";
import {
  resolvePocketBaseBinary,
  startPocketBase,
  type PocketBaseProcess,
} from "../../scripts/lib/pocketbase.ts";
import { freePort } from "../../scripts/lib/stack.ts";
import { createGateway, prepareGateway, type Gateway } from "../src/index.ts";
import type { PrayerRequestRecord } from "../src/pocketbase/records.ts";
import { PASSWORD, testConfig } from "./helpers.ts";

export const WALL_SUBSCRIPTION = "subscription { prayerWall { kind id request { id body } } }";

export interface WallEvent {
  data?: {
    prayerWall: {
      kind: "ADDED" | "UPDATED" | "REMOVED" | "RESYNC";
      id: string | null;
      request: { id: string; body: string } | null;
    };
  };
  errors?: unknown[];
}

export class DedicatedPocketBase {
  readonly bin = resolvePocketBaseBinary();
  readonly superuser = inject("superuser");
  process: PocketBaseProcess | null = null;
  private constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<DedicatedPocketBase> {
    const pb = new DedicatedPocketBase(await mkdtemp(join(tmpdir(), "flock-realtime-")), await freePort());
    await cp(inject("pbTemplateDir"), pb.dataDir, { recursive: true });
    await pb.restart();
    return pb;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Start (again) on the same port and data directory, as a supervisor restarts a crashed PocketBase. */
  async restart(): Promise<void> {
    this.process = await startPocketBase({
      bin: this.bin,
      dataDir: this.dataDir,
      port: this.port,
      quiet: true,
    });
  }

  /** A crash: SIGKILL, no clean shutdown, every open connection cut. */
  async kill(): Promise<void> {
    const child = this.process?.process;
    this.process = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    await exited;
  }

  async stop(): Promise<void> {
    await this.process?.stop();
    this.process = null;
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /** The superuser client (arranging data, and the "system job" that approves requests). */
  async system(): Promise<PocketBase> {
    const pb = new PocketBase(this.url);
    pb.autoCancellation(false);
    await pb.collection("_superusers").authWithPassword(this.superuser.email, this.superuser.password);
    return pb;
  }

  /** A gateway against this PocketBase, listening on a free port (SSE needs a real socket). */
  async gateway(): Promise<{ gateway: Gateway; url: string }> {
    const gateway = createGateway(testConfig({ pbUrl: this.url, superuser: this.superuser }));
    await prepareGateway(gateway);
    return { gateway, url: await gateway.listen() };
  }

  /** A verified user with an active person; returns its PocketBase token. */
  async member(label: string): Promise<{ id: string; token: string }> {
    const su = await this.system();
    const person = await su
      .collection("people")
      .create({ firstName: label, lastName: "Realtime", recordStatus: "active" });
    const email = `${label}-${Date.now()}@realtime.test`;
    const user = await su.collection("users").create({
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      name: `${label} Realtime`,
      verified: true,
      person: person.id,
      status: "active",
    });
    const auth = await new PocketBase(this.url).collection("users").authWithPassword(email, PASSWORD);
    return { id: user.id, token: auth.token };
  }
}

/** An approved public request, written by the system client (as the moderation job's approval is). */
export function approvedPublicRequest(system: PocketBase, body: string): Promise<PrayerRequestRecord> {
  return system.collection("prayer_requests").create<PrayerRequestRecord>({
    body,
    visibility: "public",
    anonymous: false,
    authorName: "Realtime Test",
    status: "approved",
    approvedAt: new Date().toISOString(),
  });
}

export const kindOf = (event: { data: WallEvent }) => event.data.data?.prayerWall.kind;
