import { useGraphQLSSE } from "@graphql-yoga/plugin-graphql-sse";
import { randomUUID } from "node:crypto";
import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { createFetch } from "@whatwg-node/fetch";
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionNode,
} from "graphql";
import { ClientResponseError } from "pocketbase";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { useDisableIntrospection } from "@graphql-yoga/plugin-disable-introspection";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import {
  apiIdentityOf,
  createContextFactory,
  sessionOf,
  setApiIdentity,
  type GatewayServices,
  type ServerContext,
} from "./context.ts";
import { API_TOKEN_RATE, INVALID_API_TOKEN, isApiToken, tokenMayCall } from "./access/api-tokens.ts";
import { ErrorCode, forbidden, payloadTooLarge, serviceUnavailable } from "./errors.ts";
import { typeDefs } from "./schema/__generated__/typeDefs.ts";
import { resolvers } from "./schema/resolvers.ts";
import { GRAPHQL_LIMITS, LIMITS } from "@flock/shared/limits";
import { useGraphQLMetrics } from "./observability/graphql-metrics.ts";
import { currentRequestId } from "./observability/scope.ts";
import { log } from "./observability/log.ts";

export const CSRF_HEADER = "x-graphql-yoga-csrf";
/** Browsers' subscriptions: graphql-sse in single connection mode (one event stream per tab). */
export const GRAPHQL_SSE_ENDPOINT = "/graphql/stream";

/** Adds the session cookies that resolvers asked for (sign-in, sliding refresh, sign-out). */
const useSessionCookies = (): Plugin => ({
  onResponse({ request, response }) {
    const session = sessionOf(request);
    if (!session?.outgoingCookies.length) return;
    for (const cookie of session.outgoingCookies) response.headers.append("set-cookie", cookie);
    response.headers.set("cache-control", "no-store");
  },
});

/** What a request's GraphQL result said about rate limits, for its HTTP response. */
const rateLimits = new WeakMap<Request, { retryAfterSeconds: number; dataIsNull: boolean }>();

/**
 * Every RATE_LIMITED answer carries `Retry-After` (the longest wait it names). The status follows
 * GraphQL over HTTP: 429 only where the spec lets a well-formed request have a non-200 answer, an
 * `application/json` answer to a POST whose `data` is null (the legacy media type; a field error
 * with partial data MUST be 200). `application/graphql-response+json` answers (the web app's Apollo
 * Client asks for it) keep 200: the request was executed, so the result is a "partial response".
 */
const useRateLimitResponses = (): Plugin => ({
  onResultProcess({ request, result }) {
    if (Array.isArray(result) || !result || Symbol.asyncIterator in result) return;
    const waits = (result.errors ?? [])
      .filter((error) => error.extensions?.code === ErrorCode.RATE_LIMITED)
      .map((error) => Number(error.extensions?.retryAfterSeconds) || 60);
    if (waits.length)
      rateLimits.set(request, { retryAfterSeconds: Math.max(...waits), dataIsNull: result.data == null });
  },
  onResponse({ request, response, setResponse }) {
    const limited = rateLimits.get(request);
    if (!limited) return;
    response.headers.set("retry-after", String(Math.max(1, Math.ceil(limited.retryAfterSeconds))));
    const json = response.headers.get("content-type")?.startsWith("application/json");
    if (request.method === "POST" && json && limited.dataIsNull && response.status === 200) {
      setResponse(
        new Response(response.body, {
          status: 429,
          statusText: "Too Many Requests",
          headers: response.headers,
        }),
      );
    }
  },
});

/**
 * Every event stream (subscriptions over /graphql and /graphql/stream) tells nginx not to buffer it:
 * with proxy buffering on, nginx would hold events until its buffer fills, and live updates would
 * arrive minutes late or never (docs/DEPLOYMENT.md also turns buffering off for both locations).
 */
const useEventStreamHeaders = (): Plugin => ({
  onResponse({ response }) {
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return;
    response.headers.set("x-accel-buffering", "no");
  },
});

/**
 * The graphql-sse endpoint answers from `onRequest`, before Yoga's CSRF check (which runs when the
 * body is parsed): every request to it must carry the CSRF header, which a cross-site form or
 * image can never send. The browser client sends it on each of its requests.
 */
const useStreamCsrfPrevention = (): Plugin => ({
  onRequest({ request, endResponse }) {
    if (!new URL(request.url).pathname.endsWith(GRAPHQL_SSE_ENDPOINT) || request.headers.has(CSRF_HEADER))
      return;
    endResponse(
      Response.json(
        {
          errors: [
            { message: "This request is missing its CSRF header.", extensions: { code: "BAD_REQUEST" } },
          ],
        },
        { status: 403 },
      ),
    );
  },
});

const bearerOf = (request: Request) =>
  request.headers
    .get("authorization")
    ?.replace(/^Bearer\s+/i, "")
    .trim() || null;

const tokenError = (status: number, message: string, code: string, headers: Record<string, string>) =>
  Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });

/**
 * Requests with an API token (`Authorization: Bearer flock_…`, access/api-tokens.ts): a token that is
 * unknown, revoked or expired is refused with 401 — never served as a guest; a valid one acts as its
 * client (the context reads it) within its rate limit, which every answer states in the IETF draft's
 * `RateLimit` and `RateLimit-Policy` headers (and 429 with `Retry-After` once used up).
 */
const useApiTokens = (services: GatewayServices): Plugin<ServerContext> => {
  const usage = new WeakMap<Request, { remaining: number; resetSeconds: number }>();
  // draft-ietf-httpapi-ratelimit-headers (the current draft): RateLimit-Policy names the policy with
  // its quota (q) per window (w, seconds); RateLimit says what is left of it (r) and in how many
  // seconds the oldest counted request leaves the sliding window (t), so t counts down between requests.
  const POLICY = "api-token";
  const rateHeaders = (remaining: number, resetSeconds: number) => ({
    "ratelimit-policy": `"${POLICY}";q=${API_TOKEN_RATE.limit};w=${API_TOKEN_RATE.windowMs / 1000}`,
    ratelimit: `"${POLICY}";r=${remaining};t=${resetSeconds}`,
  });
  return {
    // Synchronous unless the request carries an API token: an async hook would make every request wait a turn.
    onRequest({ request, endResponse, serverContext }) {
      const bearer = bearerOf(request);
      if (!isApiToken(bearer)) return;
      return checkToken(bearer, request, endResponse, serverContext);
    },
    onResponse({ request, response }) {
      const used = apiIdentityOf(request) && usage.get(request);
      if (!used) return;
      for (const [name, value] of Object.entries(rateHeaders(used.remaining, used.resetSeconds)))
        response.headers.set(name, value);
    },
  };

  /** Refuses an unknown, revoked or expired token (401) or a used-up allowance (429); else the request acts as its client. */
  async function checkToken(
    bearer: string,
    request: Request,
    endResponse: (response: Response) => void,
    serverContext: unknown,
  ): Promise<void> {
    const identity = await services.apiTokens.authenticate(bearer);
    if (typeof identity === "string") {
      endResponse(
        tokenError(401, INVALID_API_TOKEN.message, ErrorCode.UNAUTHENTICATED, {
          ...INVALID_API_TOKEN.headers,
        }),
      );
      return;
    }
    const key = `api-token:${identity.client.id}`;
    const { limiter } = services;
    const taken = await limiter.take(key, API_TOKEN_RATE.limit, API_TOKEN_RATE.windowMs);
    if (!taken.allowed) {
      endResponse(
        tokenError(429, "Too many requests with this API token. Try again later.", ErrorCode.RATE_LIMITED, {
          "retry-after": String(taken.retryAfter),
          ...rateHeaders(0, taken.retryAfter),
        }),
      );
      return;
    }
    usage.set(request, { remaining: taken.remaining, resetSeconds: taken.resetSeconds });
    setApiIdentity(request, identity);
    const ip = (serverContext as ServerContext | undefined)?.clientIp ?? "unknown";
    void services.apiTokens
      .touch(identity.client, ip)
      .catch((error: unknown) => console.error("[api-tokens] could not record last use:", error));
  }
};

/** The root fields an operation selects (through fragments too), by their schema name. */
function rootFields(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])),
  );
  const names: string[] = [];
  const visit = (selections: readonly SelectionNode[], seen: Set<string>) => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet.selections, seen);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet.selections, seen);
      }
    }
  };
  visit(operation.selectionSet.selections, new Set());
  return names;
}

/**
 * A request with an API token may call only the mutations its scopes allow (access/api-tokens.ts
 * TOKEN_MUTATIONS): any other is FORBIDDEN before a resolver runs, so no form that is open to
 * visitors (which the gateway would otherwise take the token's caller for) writes anything.
 */
const useTokenWrites = (): Plugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const identity = apiIdentityOf((args.contextValue as { request: Request }).request);
    if (!identity) return;
    const document = args.document as DocumentNode;
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = args.operationName
      ? operations.find((o) => o.name?.value === args.operationName)
      : operations[0];
    if (operation?.operation !== OperationTypeNode.MUTATION) return;
    const refused = rootFields(operation, document).filter(
      (name) => name !== "__typename" && !tokenMayCall(name, identity.client.scopes),
    );
    if (!refused.length) return;
    setResultAndStopExecution({
      data: null,
      errors: [
        forbidden(
          `This API token may not call ${refused.join(", ")}: a token writes only what a write scope allows.`,
          "token_scope",
        ),
      ],
    });
  },
});

/**
 * CSRF protection is for browsers' cookies: a request carrying an API token (which no cross-site
 * page can attach) does not need the CSRF header.
 */
const useCsrfPreventionForCookies = (): Plugin => {
  const csrf = useCSRFPrevention({ requestHeaders: [CSRF_HEADER] });
  return {
    onRequestParse(payload) {
      if (isApiToken(bearerOf(payload.request))) return;
      return csrf.onRequestParse?.(payload);
    },
  };
};

/** Yoga's multipart parser reports an oversized file as REQUEST_ENTITY_TOO_LARGE; ours says PAYLOAD_TOO_LARGE. */
const usePayloadTooLarge = (): Plugin => ({
  onRequestParse({ requestParser, setRequestParser }) {
    if (!requestParser) return;
    setRequestParser(async (request) => {
      try {
        return await requestParser(request);
      } catch (error) {
        if (isGraphQLError(error) && error.extensions?.code === "REQUEST_ENTITY_TOO_LARGE") {
          const tooLarge = payloadTooLarge(LIMITS.imageMaxBytes);
          throw new GraphQLError(tooLarge.message, {
            extensions: { ...tooLarge.extensions, http: { status: 413 } },
          });
        }
        throw error;
      }
    });
  },
});

/** graphql-js's "Did you mean …?" ending (unknown fields, arguments, types and enum values). */
const SUGGESTION = /\s*Did you mean [^]*\?$/;

function withoutSuggestion(error: GraphQLError): GraphQLError {
  if (!SUGGESTION.test(error.message)) return error;
  return new GraphQLError(error.message.replace(SUGGESTION, ""), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * Production answers name no schema member the caller did not write: suggestions would map the
 * schema field by field while introspection is off. Validation errors are rewritten here; maskError
 * strips any other error that passes through unmasked.
 */
const useNoFieldSuggestions = (): Plugin => ({
  onValidate() {
    return ({ valid, result, setResult }) => {
      if (!valid)
        setResult(result.map((error) => (isGraphQLError(error) ? withoutSuggestion(error) : error)));
    };
  },
});

/**
 * Errors of our catalogue pass through; PocketBase being unreachable becomes SERVICE_UNAVAILABLE;
 * anything else is masked to "Something went wrong." with a request id that is also logged.
 */
function maskError(error: unknown, production: boolean): GraphQLError {
  const masked = maskUnexpected(error);
  return production ? withoutSuggestion(masked) : masked;
}

function maskUnexpected(error: unknown): GraphQLError {
  // Duck-typed rather than instanceof: test runners may load graphql's CJS and ESM builds side by side.
  const graphQLError = isGraphQLError(error) ? error : null;
  const original: unknown = graphQLError?.originalError ?? error;
  if (isGraphQLError(original) && typeof original.extensions?.code === "string") {
    return new GraphQLError(original.message, {
      nodes: graphQLError?.nodes,
      path: graphQLError?.path,
      extensions: original.extensions,
    });
  }
  if (original instanceof ClientResponseError && (original.status === 0 || original.status >= 502)) {
    const unavailable = serviceUnavailable();
    return new GraphQLError(unavailable.message, {
      path: graphQLError?.path,
      extensions: unavailable.extensions,
    });
  }
  if (graphQLError && !graphQLError.originalError) return graphQLError; // parse/validation errors: safe to show
  // The request's own id (its X-Request-Id) when it came through the server, so the answer, the log line
  // and PocketBase's side all name one request.
  const requestId = currentRequestId() ?? randomUUID();
  log.error(`request ${requestId} failed`, { component: "graphql", requestId, error: original });
  return new GraphQLError("Something went wrong.", {
    path: graphQLError?.path,
    extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
  });
}

function isGraphQLError(value: unknown): value is GraphQLError {
  return (
    value instanceof GraphQLError ||
    (value instanceof Error && value.name === "GraphQLError" && "extensions" in value)
  );
}

export function createGatewayYoga(services: GatewayServices) {
  const { config } = services;
  const allowedOrigins = new Set([new URL(config.publicUrl).origin, ...config.corsOrigins]);
  return createYoga<ServerContext>({
    schema: createSchema({ typeDefs, resolvers: resolvers as never }),
    context: createContextFactory(services) as never,
    graphqlEndpoint: "/graphql",
    graphiql: !config.production && {
      title: "Flock GraphQL",
      headers: JSON.stringify({ [CSRF_HEADER]: "1" }),
    },
    landingPage: false,
    // Unexpected errors are logged with their request id in maskError; expected ones are not noise.
    logging: false,
    batching: false,
    maskedErrors: { maskError: (error) => maskError(error, config.production) },
    // Only the app's own origin (and configured integrator origins) may call with credentials;
    // Yoga would otherwise echo any Origin. Other origins get `false` (no CORS headers at all):
    // an empty `origin: []` would mean "any origin" to Yoga's CORS plugin and echo it back.
    cors: (request) => {
      const origin = request.headers.get("origin");
      return origin && allowedOrigins.has(origin)
        ? {
            origin: [origin],
            credentials: true,
            methods: ["GET", "POST"],
            allowedHeaders: ["content-type", CSRF_HEADER, "authorization"],
          }
        : false;
    },
    multipart: true,
    // server.ts checks Content-Length instead: Yoga's streaming limit wraps every body (~10% CPU).
    maxRequestBodySize: false,
    // Upload limits are enforced while the multipart body is parsed, before any resolver runs.
    fetchAPI: createFetch({ formDataLimits: FORM_DATA_LIMITS }),
    plugins: [
      useGraphQLMetrics(services.metrics),
      useApiTokens(services),
      useTokenWrites(),
      useCsrfPreventionForCookies(),
      maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, propagateOnRejection: true, exposeLimits: true }),
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, propagateOnRejection: true, exposeLimits: true }),
      maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens, propagateOnRejection: true, exposeLimits: true }),
      ...(config.production ? [useDisableIntrospection(), useNoFieldSuggestions()] : []),
      useSessionCookies(),
      useEventStreamHeaders(),
      useRateLimitResponses(),
      usePayloadTooLarge(),
      // GraphQL over SSE in "single connection" mode at /graphql/stream: a browser tab runs all its
      // subscriptions (settings, notifications, the prayer wall…) over ONE event stream. With one
      // stream per subscription, two open tabs used up HTTP/1.1's six connections per site and
      // stalled every other request. Operations still go through Yoga's parse/validate (armor
      // limits), context (the caller's cookie) and error masking.
      useStreamCsrfPrevention(),
      useGraphQLSSE({ endpoint: GRAPHQL_SSE_ENDPOINT }),
    ],
  });
}

/** Request size limits, checked by server.ts from Content-Length. */
export const MAX_JSON_REQUEST_BYTES = 1_000_000;
export const MAX_UPLOAD_REQUEST_BYTES = LIMITS.imageMaxBytes + 1_000_000;

/** Multipart upload limits (the largest allowed file is an image, PRODUCT.md §6). */
const FORM_DATA_LIMITS = {
  fileSize: LIMITS.imageMaxBytes + 1,
  files: 5,
  fieldSize: 1_000_000,
  headerSize: 10_000,
};
