import type { SystemClient } from "../pocketbase/client.ts";
import type { PostRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";
import { startPeriodicJob, type JobOptions } from "./periodic-job.ts";

/**
 * System job: publish scheduled posts whose time has come. The schedule lives in the database
 * (status "scheduled" + publishAt), so a restart loses nothing: the first run after start
 * publishes everything that fell due while the gateway was down, with its intended publishAt as
 * the publication date.
 */
export async function publishDuePosts(system: SystemClient, now = new Date()): Promise<string[]> {
  const pb = await system.get();
  const due = await pb.collection("posts").getFullList<PostRecord>({
    filter: pb.filter('status = "scheduled" && publishAt != "" && publishAt <= {:now}', {
      now: toPocketBaseDate(now),
    }),
    fields: "id,publishAt,revision",
  });
  for (const post of due) {
    await pb.collection("posts").update(post.id, {
      status: "published",
      publishedAt: post.publishAt,
      revision: (post.revision ?? 0) + 1,
    });
  }
  return due.map((p) => p.id);
}

/** Run `publishDuePosts` now and then every `intervalMs`; returns a stop function. */
export function startScheduledPublishing(system: SystemClient, options: JobOptions = {}): () => void {
  return startPeriodicJob({
    name: "scheduler",
    intervalMs: options.intervalMs ?? 30_000,
    leases: options.leases,
    run: () => publishDuePosts(system),
    report: (ids) => (ids.length ? `published ${ids.length} scheduled post(s)` : null),
    failure: "could not publish scheduled posts",
  });
}
