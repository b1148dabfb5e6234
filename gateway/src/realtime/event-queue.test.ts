import { describe, expect, it } from "vitest";
import { EventQueue, type BridgeEvent } from "./event-queue.ts";

const change = (n: number): BridgeEvent<number> => ({ type: "change", action: "update", record: n });

describe("EventQueue", () => {
  it("hands events to a waiting reader in order", async () => {
    const queue = new EventQueue<number>(10, () => undefined);
    const first = queue.next();
    queue.push(change(1));
    queue.push(change(2));
    expect((await first).value).toEqual(change(1));
    expect((await queue.next()).value).toEqual(change(2));
  });

  it("replaces the backlog of a slow reader with one resync (bounded memory)", async () => {
    const queue = new EventQueue<number>(3, () => undefined);
    for (let n = 0; n < 1000; n++) queue.push(change(n));
    expect(queue.size).toBeLessThanOrEqual(3);
    expect(queue.overflows).toBeGreaterThan(0);
    // Whatever survived the last overflow starts with the resync marker.
    expect((await queue.next()).value).toEqual({ type: "resync" });
  });

  it("a resync supersedes queued changes", async () => {
    const queue = new EventQueue<number>(10, () => undefined);
    queue.push(change(1));
    queue.push({ type: "resync" });
    expect(queue.size).toBe(1);
    expect((await queue.next()).value).toEqual({ type: "resync" });
  });

  it("ends a waiting reader and calls onClose once when returned", async () => {
    let closed = 0;
    const queue = new EventQueue<number>(10, () => (closed += 1));
    const pending = queue.next();
    await queue.return();
    await queue.return();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(closed).toBe(1);
    queue.push(change(1));
    expect(queue.size).toBe(0);
  });
});
