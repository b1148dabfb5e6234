import type { GatewayContext } from "../../context.ts";
import type { GroupMessageRecord } from "../../pocketbase/records.ts";

/** A live chat event: the record as PocketBase sent it (null for REMOVED and RESYNC). */
export interface GroupMessageEventModel {
  kind: "ADDED" | "UPDATED" | "REMOVED" | "RESYNC";
  id: string | null;
  message: GroupMessageRecord | null;
}

/**
 * One group's chat, live: PocketBase's changes of group_messages as the subscriber's rules allow them
 * (members only), narrowed to the group by a PocketBase filter on the topic. A message leaving the
 * group (deleted by its author or a leader) is REMOVED; a gap (reconnect, slow client) is RESYNC.
 */
export async function subscribeToGroupChat(
  ctx: GatewayContext,
  groupId: string,
): Promise<AsyncIterableIterator<GroupMessageEventModel>> {
  const queue = ctx.realtime.subscribe<GroupMessageRecord>(
    await ctx.realtimeIdentity(),
    "group_messages",
    "*",
    { filter: ctx.pb.filter("group = {:g}", { g: groupId }) },
  );
  await queue.ready;
  const iterator: AsyncIterableIterator<GroupMessageEventModel> = {
    async next() {
      for (;;) {
        const result = await queue.next();
        if (result.done) return { done: true, value: undefined };
        const event = result.value;
        if (event.type === "resync")
          return { done: false, value: { kind: "RESYNC", id: null, message: null } };
        const record = event.record;
        if (record.group !== groupId) continue;
        if (event.action === "delete")
          return { done: false, value: { kind: "REMOVED", id: record.id, message: null } };
        return {
          done: false,
          value: { kind: event.action === "create" ? "ADDED" : "UPDATED", id: record.id, message: record },
        };
      }
    },
    async return() {
      await queue.return();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
