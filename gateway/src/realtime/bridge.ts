import PocketBase, { type RecordSubscription } from "pocketbase";
import { EventSource } from "eventsource";
import { EventQueue, type BridgeEvent } from "./event-queue.ts";

// Node 20 has no EventSource; the PocketBase SDK needs one for realtime.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

/** Who is subscribing: a signed-in user (with the token PocketBase will judge) or a guest. */
export interface BridgeViewer {
  userId: string | null;
  token: string | null;
}

export interface TopicOptions {
  /** PocketBase filter applied by PocketBase on top of the collection's rules (build it with pb.filter). */
  filter?: string;
  expand?: string;
}

export interface BridgeStats {
  /** Open PocketBase realtime connections (one per distinct viewer, one for all guests). */
  connections: number;
  subscribers: number;
  /** Events waiting in subscriber queues, summed. */
  queued: number;
  /** Times a slow subscriber's backlog was replaced by a resync. */
  overflows: number;
  /** PocketBase reconnections seen (idle timeouts, the 30-minute limit, restarts). */
  reconnects: number;
}

/** Events a subscriber may fall behind before its backlog is replaced by one RESYNC. */
export const DEFAULT_QUEUE_LIMIT = 100;
/**
 * Waits before opening a viewer's connection again when PocketBase could not be reached at all (its
 * SDK retries by itself only connections that once succeeded). Short enough for QUALITY.md P6.
 */
const RETRY_DELAYS_MS = [200, 500, 1000, 2000];

interface TopicEntry {
  collection: string;
  topic: string;
  query: Record<string, string> | undefined;
  queues: Set<EventQueue<unknown>>;
  unsubscribe: Promise<(() => Promise<void>) | null>;
}

/** Seconds since the epoch at which a JWT expires (0 when unreadable). */
function tokenExpiry(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp?: unknown;
    };
    return typeof payload.exp === "number" ? payload.exp : 0;
  } catch {
    return 0;
  }
}

/**
 * One PocketBase realtime (SSE) connection for one viewer, shared by all of that viewer's GraphQL
 * subscriptions. PocketBase fixes a realtime connection's auth when it subscribes and applies the
 * collection's list/view rules to every event for it, so each viewer gets exactly what its token may
 * read: the gateway never filters with superuser data.
 */
class ViewerConnection {
  private pb!: PocketBase;
  private readonly topics = new Map<string, TopicEntry>();
  private connected: Promise<void> = Promise.resolve();
  private connects = 0;
  /** A connection attempt failed: subscribers may have missed changes and are told to refetch when it works. */
  private missedChanges = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  reconnects = 0;

  private readonly pbUrl: string;
  private token: string | null;

  constructor(pbUrl: string, token: string | null) {
    this.pbUrl = pbUrl;
    this.token = token;
    this.open();
  }

  /**
   * A new PocketBase client with every current topic. PB_CONNECT arrives on every (re)connection,
   * after the topics were (re)submitted: after PocketBase's idle timeout (5 min), its connection limit
   * (30 min) or a restart, the SDK reconnects and resubmits the topics, and the subscribers may have
   * missed changes in between; they are told to refetch.
   */
  private open(): void {
    const pb = new PocketBase(this.pbUrl);
    pb.autoCancellation(false);
    if (this.token) pb.authStore.save(this.token, null);
    this.pb = pb;
    this.connected = pb.realtime
      .subscribe("PB_CONNECT", () => {
        this.connects += 1;
        this.failures = 0;
        if (this.connects > 1 || this.missedChanges) {
          this.missedChanges = false;
          this.reconnects += 1;
          this.broadcast({ type: "resync" });
        }
      })
      .then(
        () => undefined,
        // PocketBase was unreachable for the first connection, which its SDK does not retry.
        () => this.retryLater(pb),
      );
    for (const entry of this.topics.values()) this.subscribeTopic(pb, entry);
  }

  private retryLater(failed: PocketBase): void {
    if (this.closed || failed !== this.pb) return;
    this.missedChanges = true;
    // Forget the failed client's listeners, so that nothing is delivered twice once it is replaced.
    void failed.realtime.unsubscribe().catch(() => undefined);
    const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)]!;
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) this.open();
    }, delay);
  }

  private subscribeTopic(pb: PocketBase, entry: TopicEntry): void {
    entry.unsubscribe = pb
      .collection(entry.collection)
      .subscribe(
        entry.topic,
        (event: RecordSubscription<unknown>) => {
          for (const q of entry.queues)
            q.push({
              type: "change",
              action: event.action as "create" | "update" | "delete",
              record: event.record,
            });
        },
        entry.query ? { query: entry.query } : undefined,
      )
      // Unreachable PocketBase is handled by retryLater (PB_CONNECT fails too). A refused topic (a
      // token that expired meanwhile) leaves its subscribers without events; their queries still go
      // through the rules.
      .catch(() => null);
  }

  /** A later subscription of the same user may bring a fresher token: used from the next (re)subscription on. */
  useToken(token: string): void {
    if (!this.token || tokenExpiry(token) <= tokenExpiry(this.token)) return;
    this.token = token;
    this.pb.authStore.save(token, null);
  }

  get empty(): boolean {
    return this.topics.size === 0;
  }

  queues(): EventQueue<unknown>[] {
    return [...this.topics.values()].flatMap((entry) => [...entry.queues]);
  }

  add(
    key: string,
    collection: string,
    topic: string,
    options: TopicOptions | undefined,
    queue: EventQueue<unknown>,
  ): void {
    const existing = this.topics.get(key);
    if (existing) {
      existing.queues.add(queue);
      queue.ready = existing.unsubscribe.then(() => undefined);
      return;
    }
    const query: Record<string, string> = {};
    if (options?.filter) query.filter = options.filter;
    if (options?.expand) query.expand = options.expand;
    const entry: TopicEntry = {
      collection,
      topic,
      query: Object.keys(query).length ? query : undefined,
      queues: new Set([queue]),
      unsubscribe: Promise.resolve(null),
    };
    this.topics.set(key, entry);
    // While a retry is pending, the next client subscribes every topic (this one included).
    if (!this.retryTimer) this.subscribeTopic(this.pb, entry);
    queue.ready = entry.unsubscribe.then(() => undefined);
  }

  remove(key: string, queue: EventQueue<unknown>): void {
    const entry = this.topics.get(key);
    if (!entry) return;
    entry.queues.delete(queue);
    if (entry.queues.size > 0) return;
    this.topics.delete(key);
    void entry.unsubscribe.then((unsubscribe) => unsubscribe?.()).catch(() => undefined);
  }

  private broadcast(event: BridgeEvent<unknown>): void {
    for (const queue of this.queues()) queue.push(event);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const queue of this.queues()) queue.close();
    await this.connected;
    await this.pb.realtime.unsubscribe().catch(() => undefined);
    // With PocketBase down, unsubscribing sends nothing and the SDK would keep trying to reconnect
    // every 2 s until PocketBase is back; its (TypeScript-private) disconnect stops that now.
    (this.pb.realtime as unknown as { disconnect?: () => void }).disconnect?.();
  }
}

/**
 * GraphQL subscriptions over PocketBase realtime (STACK.md): one PocketBase connection per distinct
 * viewer per gateway process, ref-counted by that viewer's subscriptions and closed with the last
 * one; one shared connection for guests. Every subscriber has a bounded queue (see EventQueue).
 */
export class RealtimeBridge {
  private readonly connections = new Map<string, ViewerConnection>();
  private retiredStats = { overflows: 0, reconnects: 0 };

  private readonly pbUrl: string;
  private readonly queueLimit: number;

  constructor(pbUrl: string, queueLimit = DEFAULT_QUEUE_LIMIT) {
    this.pbUrl = pbUrl;
    this.queueLimit = queueLimit;
  }

  /** Changes of `collection` (`topic` "*" or a record id) that the viewer may see, until the iterator is returned. */
  subscribe<T>(viewer: BridgeViewer, collection: string, topic = "*", options?: TopicOptions): EventQueue<T> {
    const viewerKey = viewer.userId && viewer.token ? `user:${viewer.userId}` : "guest";
    let connection = this.connections.get(viewerKey);
    if (!connection) {
      connection = new ViewerConnection(this.pbUrl, viewerKey === "guest" ? null : viewer.token);
      this.connections.set(viewerKey, connection);
    } else if (viewerKey !== "guest") {
      connection.useToken(viewer.token!);
    }
    const key = `${collection}/${topic}?${options?.filter ?? ""}&${options?.expand ?? ""}`;
    const owner = connection;
    const queue: EventQueue<T> = new EventQueue<T>(this.queueLimit, () => {
      this.retiredStats.overflows += queue.overflows;
      owner.remove(key, queue as EventQueue<unknown>);
      if (owner.empty && this.connections.get(viewerKey) === owner) {
        this.connections.delete(viewerKey);
        this.retiredStats.reconnects += owner.reconnects;
        void owner.close();
      }
    });
    connection.add(key, collection, topic, options, queue as EventQueue<unknown>);
    return queue;
  }

  /** Ends a user's subscriptions (sign-out, suspension): their PocketBase connection must not outlive the session. */
  async closeViewer(userId: string): Promise<void> {
    const connection = this.connections.get(`user:${userId}`);
    if (!connection) return;
    this.connections.delete(`user:${userId}`);
    this.retiredStats.reconnects += connection.reconnects;
    await connection.close();
  }

  stats(): BridgeStats {
    const queues = [...this.connections.values()].flatMap((c) => c.queues());
    return {
      connections: this.connections.size,
      subscribers: queues.length,
      queued: queues.reduce((n, q) => n + q.size, 0),
      overflows: this.retiredStats.overflows + queues.reduce((n, q) => n + q.overflows, 0),
      reconnects:
        this.retiredStats.reconnects + [...this.connections.values()].reduce((n, c) => n + c.reconnects, 0),
    };
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }
}
