import { afterEach, describe, expect, it, vi } from "vitest";
import { ApolloClient, ApolloLink, gql, InMemoryCache } from "@apollo/client";
import { CombinedGraphQLErrors, ServerError, ServerParseError } from "@apollo/client/errors";
import { jsonHttpLink } from "./http-link.ts";

// fetch is the boundary the link talks to: each test answers as the gateway (or a proxy) would.
const answers: Array<(request: Request) => Response | Promise<Response>> = [];
const requests: Request[] = [];
vi.stubGlobal("fetch", async (input: string, init: RequestInit) => {
  const request = new Request(new URL(input, "http://church.test"), init);
  requests.push(request);
  const answer = answers.shift();
  if (!answer) throw new Error("no answer prepared");
  return answer(request);
});
afterEach(() => {
  answers.length = 0;
  requests.length = 0;
});

const json = (body: unknown, status = 200, type = "application/graphql-response+json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

const SETTINGS = gql`
  query Settings($locale: String) {
    settings {
      churchName
    }
  }
`;
const RENAME = gql`
  mutation Rename($name: String!) {
    rename(name: $name)
  }
`;

function client() {
  return new ApolloClient({
    link: jsonHttpLink("/graphql", { "x-graphql-yoga-csrf": "1" }),
    cache: new InMemoryCache(),
  });
}

describe("jsonHttpLink", () => {
  it("POSTs what Apollo's HttpLink posts, with the CSRF header and the session cookie", async () => {
    answers.push(() => json({ data: { rename: true } }));
    const result = await client().mutate({ mutation: RENAME, variables: { name: "Grace", unused: 1 } });
    expect(result.data).toEqual({ rename: true });
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(new URL(request!.url).pathname).toBe("/graphql");
    expect(request!.credentials).toBe("same-origin");
    expect(request!.headers.get("x-graphql-yoga-csrf")).toBe("1");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.headers.get("accept")).toBe("application/graphql-response+json,application/json;q=0.9");
    const body = (await request!.json()) as Record<string, unknown>;
    expect(body.operationName).toBe("Rename");
    // Only the variables the operation uses, as HttpLink sends them.
    expect(body.variables).toEqual({ name: "Grace" });
    expect(body.query).toMatch(/^mutation Rename\(\$name: String!\) \{\s+rename\(name: \$name\)/);
    // HttpLink's client-awareness extension (for Apollo's hosted analytics) is not sent.
    expect(body).not.toHaveProperty("extensions");
  });

  it("reads GraphQL errors in a GraphQL response whatever its status (a 4xx from Yoga)", async () => {
    answers.push(() =>
      json({ errors: [{ message: "Too many attempts", extensions: { code: "RATE_LIMITED" } }] }, 429),
    );
    const error = await client()
      .mutate({ mutation: RENAME, variables: { name: "x" } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(CombinedGraphQLErrors.is(error)).toBe(true);
    expect((error as CombinedGraphQLErrors).errors[0]!.extensions?.code).toBe("RATE_LIMITED");
  });

  it("makes a plain error page over 299 a ServerError with its status, and unreadable text a ServerParseError", async () => {
    answers.push(
      () => new Response("<h1>Bad gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    const down = await client()
      .query({ query: SETTINGS, fetchPolicy: "network-only" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(ServerError.is(down)).toBe(true);
    expect((down as ServerError).statusCode).toBe(502);

    answers.push(
      () => new Response("not json", { status: 200, headers: { "content-type": "application/json" } }),
    );
    const garbled = await client()
      .query({ query: SETTINGS, fetchPolicy: "network-only" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(ServerParseError.is(garbled)).toBe(true);

    answers.push(() => json({ hello: "world" }, 200, "application/json"));
    const malformed = await client()
      .query({ query: SETTINGS, fetchPolicy: "network-only" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(ServerError.is(malformed)).toBe(true);
    expect((malformed as Error).message).toMatch(/malformed for query 'Settings'/);
  });

  it("passes a network failure on as fetch's TypeError (handleError's NETWORK)", async () => {
    answers.push(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await client()
      .query({ query: SETTINGS, fetchPolicy: "network-only" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TypeError);
  });

  it("cancels the request when nobody listens any more", async () => {
    let aborted = false;
    answers.push(
      (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener("abort", () => {
            aborted = true;
            reject(new DOMException("aborted", "AbortError"));
          }),
        ),
    );
    const link = jsonHttpLink("/graphql", {});
    const subscription = ApolloLink.execute(link, { query: SETTINGS }, { client: client() }).subscribe({
      error: () => undefined,
    });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    subscription.unsubscribe();
    await vi.waitFor(() => expect(aborted).toBe(true));
  });
});
