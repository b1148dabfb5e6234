import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/** What a gateway's metrics take from code that has no gateway at hand (pocketbase/http-fetch.ts, jobs). */
export interface ScopeMetrics {
  pocketBaseCall(method: string, url: string, status: number | null, seconds: number): void;
  jobRun(job: string, outcome: JobOutcome): void;
}

/** How one run of a periodic job went: ran (did its work), skipped (another replica held it), failed. */
export type JobOutcome = "ran" | "skipped" | "failed";

/**
 * The work being done now: which gateway it belongs to (its metrics) and, inside a request, the
 * request's id. server.ts runs each request and the gateway's jobs in one, so a PocketBase call, a log
 * line or a job run deep in a resolver finds both without being passed them. Timers and promises
 * started inside keep it (AsyncLocalStorage).
 */
export interface Scope {
  metrics: ScopeMetrics | null;
  requestId: string | null;
  /** The request's route class for the HTTP metrics (graphql, static, files…), set once it is routed. */
  route?: string;
}

const storage = new AsyncLocalStorage<Scope>();

export function runInScope<T>(scope: Scope, run: () => T): T {
  return storage.run(scope, run);
}

export const currentScope = (): Scope | undefined => storage.getStore();

export const currentRequestId = (): string | null => storage.getStore()?.requestId ?? null;

/**
 * The metrics work outside any scope is counted in: the gateway created last and not closed (in
 * production the process's only one). A test process may hold several gateways; each counts what runs
 * in its own scope.
 */
let unscoped: ScopeMetrics | null = null;
export function setUnscopedMetrics(metrics: ScopeMetrics | null): void {
  unscoped = metrics;
}
export function releaseUnscopedMetrics(metrics: ScopeMetrics): void {
  if (unscoped === metrics) unscoped = null;
}

/** The metrics of the gateway the current work belongs to (see setUnscopedMetrics outside a scope). */
export const metricsInScope = (): ScopeMetrics | null => storage.getStore()?.metrics ?? unscoped;

/** An `X-Request-Id` we pass on as it came: 1–128 visible ASCII characters (no spaces, no controls). */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The incoming `X-Request-Id` when it is a sane token, else a new one (a UUID). */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}
