import { randomBytes } from "node:crypto";
import type { SystemClient } from "./client.ts";

/**
 * System jobs take rows of a durable queue (webhook_deliveries, mail_outbox) through
 * POST /api/flock/queues/claim (pb_hooks/queues.pb.js): one serialized write stamps the rows with this
 * taker's claim until the lease ends, so two gateway processes never send the same row at once, and a
 * taker that dies mid-send loses its rows to the next one when the lease runs out.
 */
export type QueueName = "webhook_deliveries" | "mail_outbox";

export async function claimRows<T extends { claim: string }>(
  system: SystemClient,
  queue: QueueName,
  limit: number,
  leaseSeconds: number,
): Promise<T[]> {
  if (limit < 1) return [];
  const pb = await system.get();
  const claim = randomBytes(12).toString("hex");
  const rows = await pb.send<T[]>("/api/flock/queues/claim", {
    method: "POST",
    body: { queue, claim, limit, leaseSeconds },
  });
  // Only rows stamped with this claim are ours (the answer is checked, not trusted).
  return rows.filter((row) => row.claim === claim);
}

/** The fields that give a claimed row back once its attempt is recorded. */
export const released = { claim: "", claimedUntil: "" } as const;
