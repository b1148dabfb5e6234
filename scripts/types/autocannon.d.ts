// Minimal types for autocannon 8 (it ships none, and @types/autocannon is not installed): only the
// parts of the programmatic API that scripts/bench.ts and bench-replicas.ts use.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    interface Options {
      url: string;
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Total requests; overrides duration. */
      amount?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** Returning false counts the response as a "mismatch". */
      verifyBody?: (body: string) => boolean;
      workers?: number;
      /** Requests sent in turn on each connection (scripts/bench-replicas.ts). */
      requests?: Array<{ method?: Options["method"]; headers?: Record<string, string>; body?: string }>;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      "2xx": number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      /** (client, statusCode, bytes, responseTimeMs) for every response. */
      on(
        event: "response",
        listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback?: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export default autocannon;
}
