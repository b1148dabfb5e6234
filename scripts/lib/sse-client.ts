// A raw-HTTP GraphQL-over-SSE client for the realtime tests and `npm run bench` (P5).
//
// Raw node:http rather than fetch/EventSource: the tests must control the socket itself (pause it to
// play a client that stops reading, as a phone going to sleep does), and the benchmark opens
// hundreds of streams where a thin client keeps the load generator's own cost low.
import { request, type Agent, type ClientRequest, type IncomingMessage } from "node:http";

/** One server-sent event: its `event:` name ("message" when absent) and its `data:` lines joined. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * The SSE wire format, read incrementally: feed it text as it arrives, get back the complete events.
 * Comments (keep-alive pings) are skipped; several `data:` lines of one event are joined with "\n".
 * The one parser of the repository's SSE readers (this client, gateway/test/sse.ts).
 */
export class SseParser {
  private buffer = "";

  push(text: string): SseMessage[] {
    this.buffer += text;
    const messages: SseMessage[] = [];
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue; // keep-alive ping
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length || event !== "message") messages.push({ event, data: data.join("\n") });
    }
    return messages;
  }
}

export interface SseEvent<T = unknown> {
  /** When the event's last byte arrived (Date.now(), ms). */
  receivedAt: number;
  /** The parsed `data:` of an `event: next` (a GraphQL execution result). */
  data: T;
}

export interface SseClientOptions {
  /** The gateway's origin, e.g. http://127.0.0.1:4000. */
  url: string;
  query: string;
  variables?: Record<string, unknown>;
  /** A PocketBase token sent as `Authorization: Bearer` (signed-in subscriber); none for a guest. */
  token?: string | null;
  agent?: Agent;
}

/** One GraphQL subscription over SSE (Yoga's "distinct connections" mode: POST with Accept: text/event-stream). */
export class GraphQLSseClient<T = unknown> {
  readonly events: SseEvent<T>[] = [];
  /** Bytes received (SSE framing included). */
  bytes = 0;
  /** Set when the stream ended (server closed it, `event: complete`, or an error). */
  ended: Error | "complete" | "closed" | null = null;
  private readonly parser = new SseParser();
  private req: ClientRequest | null = null;
  private res: IncomingMessage | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly options: SseClientOptions) {}

  /** Resolves once the gateway answered 200 with an event stream (the subscription is set up). */
  open(): Promise<void> {
    const body = JSON.stringify({ query: this.options.query, variables: this.options.variables ?? {} });
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.options.url}/graphql`,
        {
          method: "POST",
          agent: this.options.agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            accept: "text/event-stream",
            ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
          },
        },
        (res) => {
          this.res = res;
          if (
            res.statusCode !== 200 ||
            !String(res.headers["content-type"]).startsWith("text/event-stream")
          ) {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (text += chunk));
            res.on("end", () =>
              reject(new Error(`The subscription was refused (${res.statusCode}): ${text.slice(0, 300)}`)),
            );
            return;
          }
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => this.receive(chunk));
          res.on("end", () => this.finish("closed"));
          res.on("error", (error) => this.finish(error));
          resolve();
        },
      );
      req.on("error", (error) => {
        this.finish(error);
        reject(error);
      });
      req.end(body);
      this.req = req;
    });
  }

  /** Stop reading: the socket's receive buffer fills and TCP pushes back on the gateway. */
  pause(): void {
    this.res?.pause();
  }

  resume(): void {
    this.res?.resume();
  }

  close(): void {
    this.req?.destroy();
    this.finish("closed");
  }

  /** Resolves when `predicate` holds for the events received so far (checked on every event). */
  waitFor(
    predicate: (events: SseEvent<T>[]) => boolean,
    timeoutMs: number,
    what = "the expected events",
  ): Promise<void> {
    if (predicate(this.events)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (predicate(this.events)) {
          cleanup();
          resolve();
        } else if (this.ended) {
          cleanup();
          reject(new Error(`The stream ended (${String(this.ended)}) before ${what} arrived.`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for ${what} (${this.events.length} events received).`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  private receive(chunk: string): void {
    this.bytes += Buffer.byteLength(chunk);
    let changed = false;
    for (const { event, data } of this.parser.push(chunk)) {
      if (event === "next" && data) {
        this.events.push({ receivedAt: Date.now(), data: JSON.parse(data) as T });
        changed = true;
      } else if (event === "complete") {
        this.finish("complete");
      }
    }
    if (changed) for (const waiter of [...this.waiters]) waiter();
  }

  private finish(reason: Error | "complete" | "closed"): void {
    this.ended ??= reason;
    for (const waiter of [...this.waiters]) waiter();
  }
}
