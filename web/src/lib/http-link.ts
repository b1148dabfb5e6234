import { ApolloLink } from "@apollo/client";
import { ServerError, ServerParseError } from "@apollo/client/errors";
import { filterOperationVariables } from "@apollo/client/link/utils";
import { print } from "@apollo/client/utilities";
import { Observable } from "rxjs";

/** What Apollo's HttpLink asks for: GraphQL over HTTP's media type first, plain JSON for older servers. */
const ACCEPT = "application/graphql-response+json,application/json;q=0.9";

/**
 * Queries and mutations as one JSON POST each, read as Apollo's HttpLink reads a JSON answer:
 * `application/graphql-response+json` is read whatever the status (GraphQL over HTTP), another answer
 * over 299 is a ServerError, text that is not JSON a ServerParseError, JSON with neither `data` nor
 * `errors` a ServerError; a network failure stays fetch's TypeError (handleError tells them apart).
 * The body is HttpLink's too: operationName, the variables the operation uses, extensions, query.
 *
 * Apollo's link also reads multipart answers (@defer, subscriptions over HTTP), does GET, persisted
 * queries and fetch overrides, and adds a "clientLibrary" extension for Apollo's hosted analytics;
 * the gateway answers JSON, subscriptions go over SSE (apollo.ts), and nothing reads the extension:
 * 2.2 KB gzip of every visitor's first load (QUALITY.md F1).
 */
export function jsonHttpLink(uri: string, headers: Record<string, string>): ApolloLink {
  return new ApolloLink(
    (operation) =>
      new Observable<ApolloLink.Result>((observer) => {
        const body: Record<string, unknown> = {
          operationName: operation.operationName,
          variables: filterOperationVariables(operation.variables ?? {}, operation.query),
        };
        if (Object.keys(operation.extensions ?? {}).length) body.extensions = operation.extensions;
        body.query = print(operation.query);
        const controller = new AbortController();
        fetch(uri, {
          method: "POST",
          credentials: "same-origin",
          headers: { accept: ACCEPT, "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
          signal: controller.signal,
        })
          .then(async (response) => {
            operation.setContext({ response });
            const bodyText = await response.text();
            const graphqlResponse = response.headers
              .get("content-type")
              ?.includes("application/graphql-response+json");
            if (!graphqlResponse && response.status >= 300)
              throw new ServerError(`Response not successful: Received status code ${response.status}`, {
                response,
                bodyText,
              });
            let result: unknown;
            try {
              result = JSON.parse(bodyText);
            } catch (error) {
              throw new ServerParseError(error, { response, bodyText });
            }
            if (typeof result !== "object" || result === null || !("data" in result || "errors" in result))
              throw new ServerError(`Server response was malformed for query '${operation.operationName}'.`, {
                response,
                bodyText,
              });
            observer.next(result as ApolloLink.Result);
            observer.complete();
          })
          .catch((error: unknown) => observer.error(error));
        // Unsubscribed (the component left, or the query was replaced): the request is cancelled.
        return () => controller.abort();
      }),
  );
}
