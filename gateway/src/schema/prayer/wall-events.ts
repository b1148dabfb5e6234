import type { GatewayContext } from "../../context.ts";
import type { PrayerRequestRecord } from "../../pocketbase/records.ts";
import type { EventQueue } from "../../realtime/event-queue.ts";
import type { RealtimeBridge } from "../../realtime/bridge.ts";
import type { PrayerWallEvent, WallEventKind } from "../__generated__/types.ts";
import { forgetPrayerLoaders } from "./loaders.ts";

/**
 * On the wall: approved or answered, not pastoral (pastoral requests never are, PrayerVisibility) and
 * not a group's (those are on their group's page only, even for moderators, who may read them).
 */
export const isOnWall = (r: Pick<PrayerRequestRecord, "status" | "visibility" | "group">) =>
  (r.status === "approved" || r.status === "answered") && r.visibility !== "pastoral" && !r.group;

/** On a group's wall (Group.prayerRequests): a group's request, approved or answered. */
export const isOnGroupWall = (r: Pick<PrayerRequestRecord, "status" | "group">) =>
  (r.status === "approved" || r.status === "answered") && !!r.group;

type WallEvent = Omit<PrayerWallEvent, "request"> & { request: PrayerRequestRecord | null };

/**
 * Open wall subscriptions per gateway (keyed by its bridge). PocketBase sends a subscriber an update
 * only while the subscriber may still view the record: when a request leaves a member's view (three
 * flags send it back to moderation, a moderator rejects it) the member's connection hears nothing.
 * The gateway knows when its own mutations do that and tells every wall to refetch (RESYNC carries no
 * data, so it reveals nothing about requests a subscriber may not see).
 */
const openWalls = new WeakMap<RealtimeBridge, Set<EventQueue<PrayerRequestRecord>>>();

export function wallLeftSomeonesView(realtime: RealtimeBridge): void {
  for (const queue of openWalls.get(realtime) ?? []) queue.push({ type: "resync" });
}

/**
 * The subscriber's wall: PocketBase's changes of prayer_requests as this viewer's rules allow them,
 * mapped to ADDED / UPDATED / REMOVED / RESYNC. The gateway filters by status too, so a pending request
 * is never ADDED to a wall even for moderators (who may read it). `onThisWall` says which requests the
 * wall shows: the prayer wall's by default, or one group's (Subscription.groupPrayer).
 */
export async function subscribeToWall(
  ctx: GatewayContext,
  onThisWall: (r: PrayerRequestRecord) => boolean = isOnWall,
): Promise<AsyncIterableIterator<WallEvent>> {
  const queue = ctx.realtime.subscribe<PrayerRequestRecord>(
    await ctx.realtimeIdentity(),
    "prayer_requests",
    "*",
  );
  // The stream opens once PocketBase confirmed the topic: the client may then query without a gap.
  await queue.ready;
  let walls = openWalls.get(ctx.realtime);
  if (!walls) {
    walls = new Set();
    openWalls.set(ctx.realtime, walls);
  }
  walls.add(queue);
  const registry = walls;

  const toWallEvent = (event: Awaited<ReturnType<typeof queue.next>>["value"]): WallEvent | null => {
    if (!event) return null;
    if (event.type === "resync") return { kind: "RESYNC", id: null, request: null };
    const record = event.record;
    const removed: WallEvent = { kind: "REMOVED", id: record.id, request: null };
    if (event.action === "delete") return removed;
    if (event.action === "create")
      return onThisWall(record) ? { kind: "ADDED", id: record.id, request: record } : null;
    return onThisWall(record)
      ? { kind: "UPDATED" as WallEventKind, id: record.id, request: record }
      : removed;
  };

  const iterator: AsyncIterableIterator<WallEvent> = {
    async next() {
      for (;;) {
        const result = await queue.next();
        if (result.done) {
          registry.delete(queue);
          return { done: true, value: undefined };
        }
        const mapped = toWallEvent(result.value);
        if (!mapped) continue;
        // Each event is answered as things are now (counts, "prayed today"), not from an earlier event's cache.
        forgetPrayerLoaders(ctx);
        return { done: false, value: mapped };
      }
    },
    // Called when the client goes away: closes the queue, which releases the viewer's PocketBase
    // connection with its last subscription (a pending next() ends at once).
    async return() {
      registry.delete(queue);
      await queue.return();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
