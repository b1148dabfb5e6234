/** What a subscriber receives: a change PocketBase allowed it to see, or "refetch, you may have missed some". */
export type BridgeEvent<T> =
  { type: "change"; action: "create" | "update" | "delete"; record: T } | { type: "resync" };

/**
 * A bounded queue between the bridge (which pushes as PocketBase sends) and one subscriber's HTTP
 * stream (which pulls as fast as its client reads: the Node adapter waits for "drain"). When a slow
 * client lets `limit` events pile up, the backlog is replaced by one `resync` marker: memory stays
 * bounded and the client refetches instead of replaying stale changes.
 */
export class EventQueue<T> implements AsyncIterableIterator<BridgeEvent<T>> {
  private queue: BridgeEvent<T>[] = [];
  private waiting: ((result: IteratorResult<BridgeEvent<T>>) => void) | null = null;
  private closed = false;
  /** How many times the backlog overflowed (for stats and tests). */
  overflows = 0;
  /**
   * Settles once PocketBase confirmed the subscription (or it failed and the bridge retries and will
   * send a RESYNC). A resolver that awaits it before returning the stream guarantees its client every
   * change from the moment the stream opens: subscribe, then query, and nothing falls in between.
   */
  ready: Promise<void> = Promise.resolve();

  private readonly limit: number;
  private readonly onClose: () => void;

  constructor(limit: number, onClose: () => void) {
    this.limit = limit;
    this.onClose = onClose;
  }

  get size(): number {
    return this.queue.length;
  }

  push(event: BridgeEvent<T>): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
      return;
    }
    if (event.type === "resync") {
      // A resync supersedes everything queued before it.
      this.queue = [event];
      return;
    }
    if (this.queue.length >= this.limit) {
      this.overflows += 1;
      this.queue = [{ type: "resync" }];
      return;
    }
    this.queue.push(event);
  }

  next(): Promise<IteratorResult<BridgeEvent<T>>> {
    const event = this.queue.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Called when the subscriber goes away (client disconnected, subscription completed). */
  return(): Promise<IteratorResult<BridgeEvent<T>>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
    this.onClose();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * A subscription's stream: each event the queue delivers, as `map` turns it into what the client
 * receives (`undefined`: nothing for this client; skip it). Ending the stream closes the queue.
 */
export function mapEvents<T, U>(
  queue: AsyncIterator<BridgeEvent<T>> & { return(): Promise<unknown> },
  map: (event: BridgeEvent<T>) => U | undefined | Promise<U | undefined>,
): AsyncIterableIterator<U> {
  const iterator: AsyncIterableIterator<U> = {
    async next() {
      for (;;) {
        const result = await queue.next();
        if (result.done) return { done: true, value: undefined };
        const value = await map(result.value);
        if (value !== undefined) return { done: false, value };
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
