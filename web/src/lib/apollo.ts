import { ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { Observable } from "rxjs";
import { getOperationAST, OperationTypeNode, print } from "graphql";
import type { Client } from "graphql-sse";
import { jsonHttpLink } from "./http-link.ts";

/** The gateway refuses GET and multipart GraphQL requests without this header (CSRF prevention). */
export const CSRF_HEADERS = { "x-graphql-yoga-csrf": "1" } as const;

/** Reconnections of several subscriptions after one outage arrive together: one refetch covers them. */
const RESYNC_COALESCE_MS = 1000;
/** graphql-sse doubles its wait after each failed attempt without limit (8.5 minutes after ten minutes away). */
const MAX_RETRY_WAIT_MS = 30_000;

/** Waits before the next attempt: doubling up to a ceiling, and no longer once the browser is back online. */
function waitBeforeRetry(retries: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(1000 * 2 ** retries, MAX_RETRY_WAIT_MS) + Math.random() * 1000);
    window.addEventListener("online", done);
  });
}

/**
 * Tells a screen that the event stream came back after a drop, for what a refetch cannot heal on its
 * own (the group chat pages back through everything said meanwhile). One stream per tab, so one target.
 */
const streamEvents = new EventTarget();
export function onStreamReconnected(listener: () => void): () => void {
  streamEvents.addEventListener("reconnected", listener);
  return () => streamEvents.removeEventListener("reconnected", listener);
}

/**
 * Subscriptions over Server-Sent Events, the transport GraphQL Yoga speaks (Apollo's own multipart
 * subscriptions get 406 from Yoga). graphql-sse retries after a dropped connection, but events sent
 * while it was away are lost: after a reconnection `onReconnected` runs so the app can refetch what
 * it shows (the gap heals without a reload).
 */
class SseLink extends ApolloLink {
  // graphql-sse is loaded with the first subscription, keeping it out of the first page load.
  private client: Promise<Client<true>> | null = null;
  private resyncTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly onReconnected: () => void) {
    super();
  }

  private getClient(): Promise<Client<true>> {
    this.client ??= import("graphql-sse").then(({ createClient }) =>
      createClient<true>({
        // One event stream per tab for all subscriptions (the gateway's graphql-sse endpoint).
        url: "/graphql/stream",
        singleConnection: true,
        // Non-lazy: the client's own loop owns reconnection. In lazy mode every subscription dropped
        // its reference to the connection after a network error, so racing reconnects left one
        // stream per subscription open (seen in e2e: three on /prayer). The stream opens with the
        // first subscription anyway, since the client itself is created then.
        lazy: false,
        headers: () => ({ ...CSRF_HEADERS }),
        credentials: "same-origin",
        retryAttempts: Infinity,
        retry: waitBeforeRetry,
        // After a drop the stream reconnects and re-subscribes: refetch once, since changes may
        // have been missed meanwhile.
        on: {
          connected: (reconnected) => {
            if (reconnected) this.scheduleResync();
          },
        },
      }),
    );
    return this.client;
  }

  private scheduleResync() {
    if (this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      this.onReconnected();
    }, RESYNC_COALESCE_MS);
  }

  override request(operation: ApolloLink.Operation): Observable<ApolloLink.Result> {
    return new Observable<ApolloLink.Result>((sink) => {
      let dispose: (() => void) | null = null;
      let closed = false;
      void this.getClient().then(
        (client) => {
          if (closed) return;
          dispose = client.subscribe(
            {
              query: print(operation.query),
              variables: operation.variables,
              operationName: operation.operationName ?? undefined,
            },
            {
              next: (value) => sink.next(value as ApolloLink.Result),
              error: (error) => sink.error(error),
              complete: () => sink.complete(),
            },
          );
        },
        (error: unknown) => sink.error(error),
      );
      return () => {
        closed = true;
        dispose?.();
      };
    });
  }
}

export function createApolloClient(): ApolloClient {
  const http = jsonHttpLink("/graphql", { ...CSRF_HEADERS });
  const isSubscription = ({ query }: ApolloLink.Operation) =>
    getOperationAST(query)?.operation === OperationTypeNode.SUBSCRIPTION;
  // Refetch the queries on screen (not the cache's standby ones) once a dropped stream is back.
  const sse = new SseLink(() => {
    void client.refetchObservableQueries().catch(() => undefined);
    streamEvents.dispatchEvent(new Event("reconnected"));
  });
  const client: ApolloClient = new ApolloClient({
    link: ApolloLink.split(isSubscription, sse, http),
    cache: new InMemoryCache({
      typePolicies: {
        // Singletons: one settings record, one viewer per browser session.
        Settings: { keyFields: [] },
        Viewer: { keyFields: [] },
      },
    }),
  });
  return client;
}
