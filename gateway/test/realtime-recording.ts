import { expect } from "vitest";
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
 * has the settings event it has had every event it was going to get: no waiting on timing.
 */
export async function recordRealtime<P extends string, C extends string>(options: {
  personas: readonly P[];
  collections: readonly C[];
  client: (persona: P) => PocketBase;
  su: PocketBase;
  touchAll: () => Promise<void>;
}): Promise<RealtimeRecording<P, C>> {
  const received = new Map<string, Set<string>>();
  const sentinel = new Map<P, number>();
  const clients: PocketBase[] = [];
  for (const persona of options.personas) {
    const pb = options.client(persona);
    clients.push(pb);
    for (const collection of options.collections) {
      const key = `${persona}/${collection}`;
      received.set(key, new Set());
      await pb.collection(collection).subscribe("*", (event) => received.get(key)!.add(event.record.id));
    }
    sentinel.set(persona, 0);
    await pb.collection("settings").subscribe("*", () => sentinel.set(persona, sentinel.get(persona)! + 1));
  }
  await options.touchAll();
  const settings = (await options.su.collection("settings").getFullList())[0]!;
  await options.su.collection("settings").update(settings.id, {});
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && options.personas.some((p) => sentinel.get(p)! < 1)) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(Object.fromEntries(sentinel)).toEqual(Object.fromEntries(options.personas.map((p) => [p, 1])));
  return {
    received: (persona, collection) => received.get(`${persona}/${collection}`)!,
    async close() {
      for (const pb of clients) await pb.realtime.unsubscribe();
    },
  };
}
