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

const DEFAULT_QUEUE_LIMIT = 100;

interface TopicEntry {
  queues: Set<EventQueue<unknown>>;
  unsubscribe: Promise<(() => Promise<void>) | null>;
}

/**
 * One PocketBase realtime (SSE) connection for one viewer, shared by all of that viewer's GraphQL
 * subscriptions. PocketBase fixes a realtime connection's auth when it subscribes and applies the
 * collection's list/view rules to every event for it, so each viewer gets exactly what its token may
 * read: the gateway never filters with superuser data.
 */
class ViewerConnection {
  readonly pb: PocketBase;
  private readonly topics = new Map<string, TopicEntry>();
  private readonly connected: Promise<(() => Promise<void>) | null>;
  private connects = 0;
  reconnects = 0;

  constructor(pbUrl: string, token: string | null) {
    this.pb = new PocketBase(pbUrl);
    this.pb.autoCancellation(false);
    if (token) this.pb.authStore.save(token, null);
    // PB_CONNECT arrives on every (re)connection: after PocketBase's idle timeout (5 min), its
    // connection limit (30 min) or a restart, the SDK reconnects and resubmits the topics, and the
    // subscribers may have missed changes in between; they are told to refetch.
    this.connected = this.pb.realtime
      .subscribe("PB_CONNECT", () => {
        this.connects += 1;
        if (this.connects > 1) {
          this.reconnects += 1;
          this.broadcast({ type: "resync" });
        }
      })
      .catch(() => null);
  }

  get empty(): boolean {
    return this.topics.size === 0;
  }

  queues(): EventQueue<unknown>[] {
    return [...this.topics.values()].flatMap((entry) => [...entry.queues]);
  }

  add(key: string, collection: string, topic: string, options: TopicOptions | undefined, queue: EventQueue<unknown>): void {
    const existing = this.topics.get(key);
    if (existing) {
      existing.queues.add(queue);
      return;
    }
    const entry: TopicEntry = { queues: new Set([queue]), unsubscribe: Promise.resolve(null) };
    const query: Record<string, string> = {};
    if (options?.filter) query.filter = options.filter;
    if (options?.expand) query.expand = options.expand;
    entry.unsubscribe = this.pb
      .collection(collection)
      .subscribe(
        topic,
        (event: RecordSubscription<unknown>) => {
          for (const q of entry.queues) q.push({ type: "change", action: event.action as "create" | "update" | "delete", record: event.record });
        },
        Object.keys(query).length ? { query } : undefined,
      )
      // PocketBase refused the topic (for example a token that expired meanwhile): the subscribers
      // simply receive nothing; their queries still go through the rules.
      .catch(() => null);
    this.topics.set(key, entry);
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
    for (const queue of this.queues()) queue.close();
    await this.connected;
    await this.pb.realtime.unsubscribe().catch(() => undefined);
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

  constructor(
    private readonly pbUrl: string,
    private readonly queueLimit = DEFAULT_QUEUE_LIMIT,
  ) {}

  /** Changes of `collection` (`topic` "*" or a record id) that the viewer may see, until the iterator is returned. */
  subscribe<T>(viewer: BridgeViewer, collection: string, topic = "*", options?: TopicOptions): EventQueue<T> {
    const viewerKey = viewer.userId && viewer.token ? `user:${viewer.userId}` : "guest";
    let connection = this.connections.get(viewerKey);
    if (!connection) {
      connection = new ViewerConnection(this.pbUrl, viewerKey === "guest" ? null : viewer.token);
      this.connections.set(viewerKey, connection);
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
      reconnects: this.retiredStats.reconnects + [...this.connections.values()].reduce((n, c) => n + c.reconnects, 0),
    };
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }
}
