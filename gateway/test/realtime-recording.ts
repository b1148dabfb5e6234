import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";

export interface RealtimeRecording<P extends string, C extends string> {
  /** Ids of the records whose events reached `persona`'s subscription to `collection`. */
  received(persona: P, collection: C): Set<string>;
  close(): Promise<void>;
}

/**
 * The authorization tables' realtime column ("marker last"): every persona subscribes to `*` of every
 * collection and to the public settings row; `touchAll` changes every target (denied ones included),
 * then the settings row changes. PocketBase sends each client its events in order, so once a persona
 * has that settings event (known by its `updated`) it has had every event it was going to get: no
 * waiting on timing.
 */
export async function recordRealtime<P extends string, C extends string>(options: {
  personas: readonly P[];
  collections: readonly C[];
  client: (persona: P) => PocketBase;
  su: PocketBase;
  touchAll: () => Promise<void>;
}): Promise<RealtimeRecording<P, C>> {
  const received = new Map<string, Set<string>>();
  /** The latest settings change each persona heard of (its `updated`, PocketBase's sortable format). */
  const sentinel = new Map<P, string>();
  const clients: PocketBase[] = [];
  for (const persona of options.personas) {
    const pb = options.client(persona);
    clients.push(pb);
    for (const collection of options.collections) {
      const key = `${persona}/${collection}`;
      received.set(key, new Set());
      await pb.collection(collection).subscribe("*", (event) => received.get(key)!.add(event.record.id));
    }
    sentinel.set(persona, "");
    await pb.collection("settings").subscribe("*", (event) => {
      const updated = String(event.record.updated ?? "");
      if (updated > sentinel.get(persona)!) sentinel.set(persona, updated);
    });
  }
  await options.touchAll();
  const settings = (await options.su.collection("settings").getFullList())[0]!;
  // Our own change of the settings row is the marker. Another change of it (a test elsewhere on this
  // PocketBase) may arrive too, earlier or later: wait for ours, not for a count.
  const marker = String((await options.su.collection("settings").update(settings.id, {})).updated);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && options.personas.some((p) => sentinel.get(p)! < marker))
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(
    options.personas.filter((p) => sentinel.get(p)! < marker),
    "personas without the marker",
  ).toEqual([]);
  return {
    received: (persona, collection) => received.get(`${persona}/${collection}`)!,
    async close() {
      for (const pb of clients) await pb.realtime.unsubscribe();
    },
  };
}

/**
 * The realtime column of an authorization table: one test per collection × persona asserting that a
 * `*` subscription received exactly the targets the persona may list. `su` is read lazily (the
 * tables create their system client in beforeAll).
 */
export function describeRealtimeColumn<P extends string, C extends string>(table: {
  personas: readonly P[];
  collections: readonly C[];
  /** Target keys of each collection (the table's READ rows). */
  targetKeys: (collection: C) => string[];
  targetId: (collection: C, key: string) => string;
  allowedTargets: (collection: C, persona: P) => string[];
  client: (persona: P) => PocketBase;
  su: () => PocketBase;
}): void {
  describe("realtime: a `*` subscription receives exactly the rows the persona may list", () => {
    let realtime: RealtimeRecording<P, C>;

    beforeAll(async () => {
      const su = table.su();
      realtime = await recordRealtime({
        personas: table.personas,
        collections: table.collections,
        client: table.client,
        su,
        // Every target changes, the denied ones included.
        touchAll: async () => {
          for (const collection of table.collections) {
            for (const key of table.targetKeys(collection))
              await su.collection(collection).update(table.targetId(collection, key), {});
          }
        },
      });
    });

    afterAll(() => realtime.close());

    const rows = table.collections.flatMap((collection) =>
      table.personas.map((persona) => ({ collection, persona })),
    );
    it.each(rows)("$collection as $persona", ({ collection, persona }) => {
      const keyOf = new Map(
        table.targetKeys(collection).map((key) => [table.targetId(collection, key), key]),
      );
      const got = [...realtime.received(persona, collection)]
        .filter((id) => keyOf.has(id))
        .map((id) => keyOf.get(id)!)
        .sort();
      expect(got).toEqual(table.allowedTargets(collection, persona));
    });
  });
}
