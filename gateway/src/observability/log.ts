import { format as formatText } from "node:util";
import { currentRequestId } from "./scope.ts";

/*
 * The gateway's log (docs/DEPLOYMENT.md "Observability"): JSON lines for log collectors — one object per
 * line with time, level, msg and fields (component, job, requestId…) — or the familiar text lines
 * ("[component] message") for a person at a terminal. LOG_FORMAT picks one; the default is json when
 * NODE_ENV=production, text otherwise. A line written while a request is being answered carries its
 * request id (observability/scope.ts) without being passed it.
 */

export type LogLevel = "info" | "warn" | "error";
export type LogFormat = "json" | "text";
export const LOG_FORMATS: readonly LogFormat[] = ["json", "text"];

/** A line's fields. `component` or `job` names who speaks (the text format's "[tag]"); `error` is an error. */
export interface LogFields {
  component?: string;
  job?: string;
  requestId?: string;
  error?: unknown;
  [name: string]: unknown;
}

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (a job's name, a component). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  format: LogFormat;
  /**
   * Where a finished line goes (without its line break). Default: JSON lines to stdout (info) and stderr
   * (warn, error); text through console.log / console.warn / console.error, as the gateway always wrote.
   */
  write?: (level: LogLevel, line: string) => void;
  now?: () => Date;
}

/** LOG_FORMAT's value, or the default for the environment; null when LOG_FORMAT is set to something else. */
export function logFormatFromEnv(env: NodeJS.ProcessEnv): LogFormat | null {
  const value = env.LOG_FORMAT?.trim().toLowerCase();
  if (!value) return env.NODE_ENV === "production" ? "json" : "text";
  return (LOG_FORMATS as readonly string[]).includes(value) ? (value as LogFormat) : null;
}

const writeToStd = (level: LogLevel, line: string) =>
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);

const CONSOLE = { info: "log", warn: "warn", error: "error" } as const;

/** A field's value in a text line: strings as they are, anything else as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** An error as a JSON log field: what it says, its code or status if it has one, and where it came from. */
function errorField(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === "object" && error !== null ? error : String(error);
  const extra = error as Error & { code?: unknown; status?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof extra.code === "string" || typeof extra.code === "number" ? { code: extra.code } : {}),
    ...(typeof extra.status === "number" ? { status: extra.status } : {}),
    ...(error.stack ? { stack: error.stack } : {}),
  };
}

/** JSON.stringify that never throws: cycles, bigints and errors nested in fields are written, not fatal. */
function jsonLine(entry: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(entry, (_key, value: unknown) => {
    if (typeof value === "bigint") return value.toString();
    if (value instanceof Error) return errorField(value);
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return "[Circular]";
      seen.add(value);
    }
    return value;
  });
}

export function createLogger(options: LoggerOptions, base: LogFields = {}): Logger {
  const write = options.write ?? writeToStd;
  const { write: textSink } = options;
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, given: LogFields = {}) => {
    const fields: LogFields = { ...base, ...given };
    if (options.format === "json") {
      const { error, ...rest } = fields;
      const requestId = rest.requestId ?? currentRequestId() ?? undefined;
      const entry: Record<string, unknown> = { time: now().toISOString(), level, msg, ...rest };
      if (requestId !== undefined) entry.requestId = requestId;
      if (error !== undefined) entry.error = errorField(error);
      write(level, jsonLine(entry));
      return;
    }
    // Text: "[tag] message key=value …" and the error as console.error shows it (with its stack). The
    // request id stays out of a person's terminal: the JSON lines carry it.
    const { component, job, error, requestId: _requestId, ...rest } = fields;
    const tag = job ?? component;
    const extras = Object.entries(rest)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${fieldText(value)}`);
    const text = [tag ? `[${tag}] ${msg}` : msg, ...extras].join(" ");
    if (textSink) textSink(level, error === undefined ? text : formatText("%s", text, error));
    else if (error === undefined) console[CONSOLE[level]](text);
    else console[CONSOLE[level]](text, error);
  };
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(options, { ...base, ...fields }),
  };
}

let processLogger: Logger | null = null;

/** The process's logger: LOG_FORMAT's format (main.ts checks its value at start; a wrong one falls back here). */
export const log: Logger = {
  info: (msg, fields) => current().info(msg, fields),
  warn: (msg, fields) => current().warn(msg, fields),
  error: (msg, fields) => current().error(msg, fields),
  child: (fields) => {
    // Resolved per line, so that a child made at import time follows configureLog.
    const line = (level: LogLevel) => (msg: string, more?: LogFields) =>
      current()[level](msg, { ...fields, ...more });
    return {
      info: line("info"),
      warn: line("warn"),
      error: line("error"),
      child: (f) => log.child({ ...fields, ...f }),
    };
  },
};

function current(): Logger {
  processLogger ??= createLogger({ format: logFormatFromEnv(process.env) ?? "text" });
  return processLogger;
}

/** Sets the process's log format (main.ts, from LOG_FORMAT). */
export function configureLog(format: LogFormat): void {
  processLogger = createLogger({ format });
}

/** "[tag] rest" → the tag and the rest, as the gateway's console lines are written. */
const TAGGED = /^\[([\w.-]+)\]:?\s*([^]*)$/;

/**
 * In JSON format, every console.log/warn/error of the process (a library's, a line not yet moved to the
 * logger) becomes one JSON line too: a multi-line stack printed raw would break the one-object-per-line
 * stream. The leading "[tag]" becomes the line's component, an Error argument its `error` field.
 */
export function routeConsoleToLog(logger: Logger = log): void {
  const route =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      const error = args.find((arg) => arg instanceof Error);
      const rest = args.filter((arg) => arg !== error);
      const text = rest.length ? formatText(...(rest as [unknown, ...unknown[]])) : "";
      const tagged = TAGGED.exec(text);
      const fields: LogFields = {};
      if (tagged) fields.component = tagged[1];
      if (error) fields.error = error;
      logger[level]((tagged ? tagged[2]! : text).replace(/:\s*$/, ""), fields);
    };
  console.log = route("info");
  console.info = route("info");
  console.warn = route("warn");
  console.error = route("error");
}
