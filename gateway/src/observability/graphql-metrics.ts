import type { Plugin } from "graphql-yoga";
import { Kind, type DocumentNode, type ExecutionResult } from "graphql";
import { WEB_OPERATIONS } from "../schema/__generated__/web-operations.ts";
import type { GatewayMetrics } from "./metrics.ts";

/**
 * The metrics' name for an operation: its own when it is one of the web app's operations
 * (web/src/**\/*.graphql, listed by codegen), else "other". A client may send any operationName; only
 * the app's few hundred names ever become a label value.
 */
export function operationLabel(name: string | null | undefined, known: ReadonlySet<string> = WEB_OPERATIONS) {
  return name && known.has(name) ? name : "other";
}

/** An error's code as a label: the catalogue's UPPER_SNAKE codes as they are, UNKNOWN without one. */
export function errorCodeLabel(code: unknown): string {
  if (code === undefined || code === null) return "UNKNOWN";
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : "OTHER";
}

/** The name of the operation a document runs: the one asked for, else its only operation's. */
function operationName(document: DocumentNode, asked: string | null | undefined): string | null {
  if (asked) return asked;
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return operations.length === 1 ? (operations[0]!.name?.value ?? null) : null;
}

const isStream = (result: unknown): result is AsyncIterable<unknown> =>
  typeof result === "object" && result !== null && Symbol.asyncIterator in result;

const errorsOf = (result: unknown): ExecutionResult["errors"] =>
  Array.isArray(result) || isStream(result) ? undefined : (result as ExecutionResult | null)?.errors;

/**
 * GraphQL's metrics (observability/metrics.ts): each operation counted by name and outcome and timed
 * from its parameters to its result (a subscription: until its stream starts), and every error in a
 * result counted by its code. Subscriptions over /graphql/stream (graphql-sse) have no parameters
 * step in Yoga: they are counted when they start, not timed.
 */
export function useGraphQLMetrics(metrics: GatewayMetrics): Plugin {
  const operations = new WeakMap<Request, { started: number; name: string | null }>();
  const countErrors = (result: unknown) => {
    for (const error of errorsOf(result) ?? []) metrics.graphqlError(errorCodeLabel(error.extensions?.code));
  };
  const requestOf = (context: unknown) => (context as { request?: Request } | null)?.request;
  return {
    onParams({ request, params }) {
      operations.set(request, { started: performance.now(), name: params.operationName ?? null });
    },
    onExecute({ args }) {
      const operation = operations.get(requestOf(args.contextValue)!);
      if (operation) operation.name = operationName(args.document, args.operationName ?? operation.name);
    },
    onSubscribe({ args }) {
      const request = requestOf(args.contextValue);
      const operation = request && operations.get(request);
      const name = operationName(args.document, args.operationName);
      if (operation) {
        operation.name = name ?? operation.name;
        return;
      }
      return {
        onSubscribeResult({ result }) {
          const errors = errorsOf(result);
          metrics.graphqlOperation(operationLabel(name), errors?.length ? "error" : "ok", null);
          countErrors(result);
        },
      };
    },
    onResultProcess({ request, result }) {
      countErrors(result);
      const operation = operations.get(request);
      if (!operation) return;
      operations.delete(request);
      const outcome = errorsOf(result)?.length ? "error" : "ok";
      metrics.graphqlOperation(
        operationLabel(operation.name),
        outcome,
        (performance.now() - operation.started) / 1000,
      );
    },
  };
}
