import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from "@apollo/client";
import { Observable } from "rxjs";
import { getOperationAST, OperationTypeNode, print } from "graphql";
import type { Client } from "graphql-sse";

/** The gateway refuses GET and multipart GraphQL requests without this header (CSRF prevention). */
export const CSRF_HEADERS = { "x-graphql-yoga-csrf": "1" } as const;

/**
 * Subscriptions over Server-Sent Events, the transport GraphQL Yoga speaks (Apollo's own multipart
 * subscriptions get 406 from Yoga). graphql-sse retries after a dropped connection; each
 * subscription's next event carries current data, so a gap heals itself.
 */
class SseLink extends ApolloLink {
  // graphql-sse is loaded with the first subscription, keeping it out of the first page load.
  private client: Promise<Client> | null = null;

  private getClient(): Promise<Client> {
    this.client ??= import("graphql-sse").then(({ createClient }) =>
      createClient({ url: "/graphql", headers: () => ({ ...CSRF_HEADERS }), credentials: "same-origin", retryAttempts: Infinity }),
    );
    return this.client;
  }

  override request(operation: ApolloLink.Operation): Observable<ApolloLink.Result> {
    return new Observable<ApolloLink.Result>((sink) => {
      let dispose: (() => void) | null = null;
      let closed = false;
      void this.getClient().then((client) => {
        if (closed) return;
        dispose = client.subscribe(
          { query: print(operation.query), variables: operation.variables, operationName: operation.operationName ?? undefined },
          { next: (value) => sink.next(value as ApolloLink.Result), error: (error) => sink.error(error), complete: () => sink.complete() },
        );
      }, (error: unknown) => sink.error(error));
      return () => {
        closed = true;
        dispose?.();
      };
    });
  }
}

export function createApolloClient(): ApolloClient {
  const http = new HttpLink({ uri: "/graphql", credentials: "same-origin", headers: { ...CSRF_HEADERS } });
  const isSubscription = ({ query }: ApolloLink.Operation) => getOperationAST(query)?.operation === OperationTypeNode.SUBSCRIPTION;
  return new ApolloClient({
    link: ApolloLink.split(isSubscription, new SseLink(), http),
    cache: new InMemoryCache({
      typePolicies: {
        // Singletons: one settings record, one viewer per browser session.
        Settings: { keyFields: [] },
        Viewer: { keyFields: [] },
      },
    }),
  });
}
