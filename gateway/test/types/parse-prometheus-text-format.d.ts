// Minimal types for parse-prometheus-text-format 1.1.1 (it ships none): what gateway/test/metrics.int.test.ts reads.
declare module "parse-prometheus-text-format" {
  export interface Sample {
    labels?: Record<string, string>;
    /** Counters, gauges and untyped samples. */
    value?: string;
    /** Histograms: cumulative counts by upper bound ("0.05", "+Inf"). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface MetricFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
