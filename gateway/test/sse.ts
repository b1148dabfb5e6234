// The integration tests' one reader of GraphQL subscriptions over server-sent events: through the
// gateway in-process (yoga.fetch; POST with Accept: text/event-stream, Yoga's "distinct connections"
// mode), read as the events arrive. Tests that must hold the socket itself (pause it, open hundreds)
// use scripts/lib/sse-client.ts over node:http instead; both parse with its SseParser.
import { SseParser } from "../../scripts/lib/sse-client.ts";
import type { Gateway } from "../src/index.ts";

/** One `next` event: a GraphQL execution result. */
export interface SubscriptionResult<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export interface SubscribeOptions {
  query: string;
  variables?: Record<string, unknown>;
  /** A PocketBase token sent as `Authorization: Bearer` (a signed-in subscriber); none for a guest. */
  token?: string | null;
  /** The client address the gateway sees (its rate limits are per IP). */
  clientIp?: string;
  headers?: Record<string, string>;
}

export class SseSubscription<T> {
  /** Every result received, in order. */
  readonly results: SubscriptionResult<T>[] = [];
  /** Every byte of the stream as text, keep-alive comments included: to search for what must never appear. */
  raw = "";
  /** Set when the stream ended: the server closed it, sent `complete`, or close() was called. */
  ended: "complete" | "closed" | Error | null = null;
  private readonly abort = new AbortController();
  private readonly waiters = new Set<() => void>();
  private pump: Promise<void> = Promise.resolve();
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  private constructor(readonly response: Response) {}

  /** Subscribe; resolves once the gateway has answered (the stream is open, or refused with its status). */
  static async open<T>(gateway: Gateway, options: SubscribeOptions): Promise<SseSubscription<T>> {
    const abort = new AbortController();
    const response = await gateway.yoga.fetch(
      "http://flock.test/graphql",
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
        body: JSON.stringify({ query: options.query, variables: options.variables ?? {} }),
        signal: abort.signal,
      },
      { clientIp: options.clientIp ?? "203.0.113.1" },
    );
    const subscription = new SseSubscription<T>(response);
    subscription.abort.signal.addEventListener("abort", () => abort.abort());
    if (response.body) {
      subscription.reader = response.body.getReader();
      subscription.pump = subscription.read(subscription.reader);
    } else subscription.finish("closed");
    return subscription;
  }

  /** The data of every result that carried some. */
  get data(): T[] {
    return this.results.flatMap((result) => (result.data ? [result.data] : []));
  }

  /** The errors of every result, in order. */
  get errors(): NonNullable<SubscriptionResult<T>["errors"]> {
    return this.results.flatMap((result) => result.errors ?? []);
  }

  /**
   * Resolves once `predicate` holds for what has arrived (checked on every event); rejects when the
   * stream ends first or after `timeoutMs`, saying what was awaited and what arrived.
   */
  waitFor(predicate: () => boolean, what = "the expected events", timeoutMs = 10_000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (predicate()) {
          cleanup();
          resolve();
        } else if (this.ended) {
          cleanup();
          reject(
            new Error(`The stream ended (${String(this.ended)}) before ${what}; got ${this.received()}`),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No ${what} within ${timeoutMs} ms; got ${this.received()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** The first result that `wanted` accepts, once it has arrived. */
  async next(
    wanted: (result: SubscriptionResult<T>) => boolean,
    what = "matching event",
    timeoutMs = 10_000,
  ): Promise<SubscriptionResult<T>> {
    await this.waitFor(() => this.results.some(wanted), what, timeoutMs);
    return this.results.find(wanted)!;
  }

  /** Stop listening, as a closed tab does. */
  async close(): Promise<void> {
    this.abort.abort();
    this.finish("closed");
    await this.reader?.cancel().catch(() => undefined);
    await this.pump;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parser = new SseParser();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        this.raw += text;
        for (const { event, data } of parser.push(text)) {
          if (event === "complete") this.finish("complete");
          else if (data) this.results.push(JSON.parse(data) as SubscriptionResult<T>);
        }
        for (const waiter of [...this.waiters]) waiter();
      }
      this.finish("closed");
    } catch (error) {
      this.finish(this.abort.signal.aborted ? "closed" : (error as Error));
    }
  }

  private finish(reason: "complete" | "closed" | Error): void {
    this.ended ??= reason;
    for (const waiter of [...this.waiters]) waiter();
  }

  private received(): string {
    return `${this.results.length} events: ${JSON.stringify(this.results).slice(0, 2000)}`;
  }
}
