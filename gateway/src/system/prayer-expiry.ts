import type { SystemClient } from "../pocketbase/client.ts";
import type { PrayerRequestRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";
import { startPeriodicJob, type JobOptions } from "./periodic-job.ts";

/**
 * System job: archive prayer requests on the wall (approved or answered) whose expiresAt has passed
 * (PRODUCT.md §5, settings.prayerExpiryDays sets expiresAt on approval). The deadline lives in the
 * database, so a restart loses nothing: the first run after start archives whatever expired while
 * the gateway was down. Saved through PocketBase, so every open wall hears the request leave.
 */
export async function archiveExpiredPrayerRequests(
  system: SystemClient,
  now = new Date(),
): Promise<string[]> {
  const pb = await system.get();
  const expired = await pb.collection("prayer_requests").getFullList<Pick<PrayerRequestRecord, "id">>({
    filter: pb.filter(
      '(status = "approved" || status = "answered") && expiresAt != "" && expiresAt <= {:now}',
      {
        now: toPocketBaseDate(now),
      },
    ),
    fields: "id",
    batch: 200,
  });
  const archived: string[] = [];
  for (const request of expired) {
    try {
      await pb.collection("prayer_requests").update(request.id, { status: "archived" });
      archived.push(request.id);
    } catch (error) {
      // One bad row (deleted meanwhile) must not keep the others on the wall; the next run retries.
      console.error(
        `[prayer-expiry] could not archive ${request.id}:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return archived;
}

/** Run `archiveExpiredPrayerRequests` now and then every `intervalMs`; returns a stop function. */
export function startPrayerExpiry(system: SystemClient, options: JobOptions = {}): () => void {
  return startPeriodicJob({
    name: "prayer-expiry",
    intervalMs: options.intervalMs ?? 60_000,
    leases: options.leases,
    run: () => archiveExpiredPrayerRequests(system),
    report: (ids) => (ids.length ? `archived ${ids.length} expired prayer request(s)` : null),
    failure: "could not archive expired requests",
  });
}
