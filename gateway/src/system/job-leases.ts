import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { SystemClient } from "../pocketbase/client.ts";

/**
 * Which gateway replica runs a system job (issue 33): before each run a replica takes or renews the job's
 * lease row in PocketBase (pb_hooks/leases.pb.js decides inside one write transaction), so with several
 * replicas up each run happens on exactly one of them, and when the holder dies another takes over once
 * its lease runs out. One gateway alone always gets its leases.
 */
export class JobLeases {
  /** This replica among the others (`replicaId`), as the lease rows name it. */
  readonly holder: string;
  private readonly system: SystemClient;

  constructor(system: SystemClient, holder = replicaId(0)) {
    this.system = system;
    this.holder = holder;
  }

  /** Whether this replica holds `job` for the next `leaseMs` (and so runs it now). */
  async claim(job: string, leaseMs: number): Promise<boolean> {
    const pb = await this.system.get();
    const answer = await pb.send<{ held: boolean }>("/api/flock/leases/claim", {
      method: "POST",
      body: { job, holder: this.holder, seconds: Math.max(1, Math.ceil(leaseMs / 1000)) },
    });
    return answer.held;
  }

  /** Give `job` back (on shutdown), so another replica runs it at its next tick. */
  async release(job: string): Promise<void> {
    const pb = await this.system.get();
    await pb.send("/api/flock/leases/release", { method: "POST", body: { job, holder: this.holder } });
  }
}

/**
 * A replica's name in the lease rows: its host (a pod's or container's name) and the port it serves, so
 * a gateway that restarts after a crash is the same holder and takes its jobs back at once instead of
 * waiting for its old leases to run out. Without a port (0: tests' in-process gateways), a random part.
 */
export function replicaId(port: number): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, "-")
      .slice(0, 60) || "host";
  return `${host}:${port || randomBytes(6).toString("hex")}`;
}

/**
 * How long a lease lasts: two of the job's intervals and 5 s more, so the holder renews it at every tick
 * with room for a late one, and a dead holder's job moves within about two intervals.
 */
export const leaseMsFor = (intervalMs: number) => 2 * intervalMs + 5_000;
