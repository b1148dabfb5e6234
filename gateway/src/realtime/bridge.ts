import PocketBase, { type RecordSubscription } from "pocketbase";
import { EventSource } from "eventsource";
import { EventQueue, type BridgeEvent } from "./event-queue.ts";
import { credentialKey, tokenExpiresAt, type StreamCredential } from "./credentials.ts";

// Node 20 has no EventSource; the PocketBase SDK needs one for realtime.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

/** Who is subscribing: a signed-in user or an API client (with the token PocketBase will judge), or a guest. */
export interface BridgeViewer {
  token: string | null;
  /** What the stream lives by; the bridge ends it when the credential ends (null: a guest). */
  credential: StreamCredential | null;
}

/** Which credentials of open streams have ended (realtime/credentials.ts#endedCredentials reads them). */
export type CredentialCheck = (credentials: StreamCredential[]) => Promise<StreamCredential[]>;

export interface BridgeOptions {
  queueLimit?: number;
  /** Checks the open streams' credentials every `checkEveryMs` while any is open. */
  checkCredentials?: CredentialCheck;
  checkEveryMs?: number;
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
/**
 * How often open streams' credentials are checked: a credential ended in another gateway process (or
 * straight in PocketBase) ends its streams within this plus one list call, inside QUALITY.md I4's 5 s.
 */
export const CREDENTIAL_CHECK_MS = 2_000;

interface TopicEntry {
  collection: string;
  topic: string;
  query: Record<string, string> | undefined;
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
  readonly credential: StreamCredential | null;

  constructor(pbUrl: string, token: string | null, credential: StreamCredential | null) {
    this.pbUrl = pbUrl;
    this.token = token;
    this.credential = credential;
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

  /**
   * A later subscription with the same credential may bring a fresher token (a slid session, a renewed
   * impersonation): used from the next (re)subscription on, and the session then expires with it.
   */
  useToken(token: string, credential: StreamCredential | null): void {
    if (!this.token || tokenExpiresAt(token) <= tokenExpiresAt(this.token)) return;
    this.token = token;
    this.pb.authStore.save(token, null);
    if (this.credential?.kind === "user" && credential?.kind === "user")
      this.credential.expiresAt = Math.max(this.credential.expiresAt, credential.expiresAt);
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
  private checkTimer: NodeJS.Timeout | null = null;
  private checking = false;

  private readonly pbUrl: string;
  private readonly queueLimit: number;
  private readonly checkCredentials: CredentialCheck | null;
  private readonly checkEveryMs: number;

  constructor(pbUrl: string, options: BridgeOptions = {}) {
    this.pbUrl = pbUrl;
    this.queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.checkCredentials = options.checkCredentials ?? null;
    this.checkEveryMs = options.checkEveryMs ?? CREDENTIAL_CHECK_MS;
  }

  /** Changes of `collection` (`topic` "*" or a record id) that the viewer may see, until the iterator is returned. */
  subscribe<T>(viewer: BridgeViewer, collection: string, topic = "*", options?: TopicOptions): EventQueue<T> {
    // One connection per credential: a user's streams after a sign-out elsewhere (a new tokenKey) never
    // share the connection of the streams that must end.
    const credential = viewer.token ? viewer.credential : null;
    const viewerKey = credential ? credentialKey(credential) : "guest";
    let connection = this.connections.get(viewerKey);
    if (!connection) {
      connection = new ViewerConnection(this.pbUrl, credential ? viewer.token : null, credential);
      this.connections.set(viewerKey, connection);
      if (credential) this.startChecking();
    } else if (credential) {
      connection.useToken(viewer.token!, credential);
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

  /**
   * Ends the streams of a user's sessions (sign-out, password change, suspension) or of an API client
   * (revoked) at once in this process; other processes end theirs at their next credential check.
   */
  async endCredential(kind: StreamCredential["kind"], id: string): Promise<void> {
    await this.end(
      (credential) =>
        credential.kind === kind &&
        (credential.kind === "user" ? credential.userId : credential.clientId) === id,
    );
  }

  private async end(ended: (credential: StreamCredential) => boolean): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [key, connection] of this.connections) {
      if (!connection.credential || !ended(connection.credential)) continue;
      this.connections.delete(key);
      this.retiredStats.reconnects += connection.reconnects;
      closing.push(connection.close());
    }
    if (!this.credentialed().length) this.stopChecking();
    await Promise.all(closing);
  }

  private credentialed(): StreamCredential[] {
    return [...this.connections.values()].flatMap((c) => (c.credential ? [c.credential] : []));
  }

  /** Checks open streams' credentials on a timer that runs only while one is open (and never holds the process). */
  private startChecking(): void {
    if (!this.checkCredentials || this.checkTimer) return;
    this.checkTimer = setInterval(() => void this.checkNow(), this.checkEveryMs);
    this.checkTimer.unref();
  }

  private stopChecking(): void {
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.checkTimer = null;
  }

  /** One check of every open credential (skipped while the previous one still runs). */
  async checkNow(): Promise<void> {
    const credentials = this.credentialed();
    if (!this.checkCredentials || this.checking) return;
    if (!credentials.length) {
      this.stopChecking();
      return;
    }
    this.checking = true;
    try {
      const ended = new Set(await this.checkCredentials(credentials));
      if (ended.size) await this.end((credential) => ended.has(credential));
    } catch (error) {
      // PocketBase unreachable: its realtime streams are down too; the next check tries again.
      console.error("[realtime] could not check the open streams' credentials:", error);
    } finally {
      this.checking = false;
    }
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
    this.stopChecking();
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }
}
