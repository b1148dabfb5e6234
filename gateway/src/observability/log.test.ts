import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger, logFormatFromEnv, routeConsoleToLog, type LogLevel } from "./log.ts";
import { runInScope } from "./scope.ts";

const NOW = new Date("2026-03-01T09:30:00.000Z");

/** A logger whose lines are kept, with a fixed clock. */
function recording(format: "json" | "text") {
  const lines: Array<{ level: LogLevel; line: string }> = [];
  const logger = createLogger({
    format,
    now: () => NOW,
    write: (level, line) => lines.push({ level, line }),
  });
  return {
    logger,
    lines,
    parsed: () => lines.map(({ line }) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("JSON lines", () => {
  it("one object per line: time, level, msg, then the fields", () => {
    const { logger, lines, parsed } = recording("json");
    logger.info("published 2 scheduled posts", { job: "scheduler", published: 2 });
    logger.warn("mail not sent", { component: "mail" });
    expect(lines.map((l) => l.level)).toEqual(["info", "warn"]);
    expect(lines[0]!.line).toBe(
      '{"time":"2026-03-01T09:30:00.000Z","level":"info","msg":"published 2 scheduled posts","job":"scheduler","published":2}',
    );
    expect(parsed()[1]).toEqual({
      time: "2026-03-01T09:30:00.000Z",
      level: "warn",
      msg: "mail not sent",
      component: "mail",
    });
  });

  it("keeps a message or an error with line breaks on one line, the error with its message and stack", () => {
    const { logger, lines, parsed } = recording("json");
    const error = Object.assign(new Error("PocketBase said no\nat all"), { status: 503 });
    logger.error("could not run\nthe digest", { job: "staff-digest", error });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line).not.toContain("\n");
    const [entry] = parsed();
    expect(entry).toMatchObject({ level: "error", msg: "could not run\nthe digest", job: "staff-digest" });
    expect(entry!.error).toEqual({
      name: "Error",
      message: "PocketBase said no\nat all",
      status: 503,
      stack: expect.stringContaining("log.test.ts"),
    });
  });

  it("names the request being answered, and a given requestId wins", () => {
    const { logger, parsed } = recording("json");
    logger.info("outside");
    runInScope({ metrics: null, requestId: "req-42" }, () => {
      logger.info("inside");
      logger.info("explicit", { requestId: "other-1" });
    });
    expect(parsed().map((entry) => entry.requestId)).toEqual([undefined, "req-42", "other-1"]);
  });

  it("never throws on what it cannot write plainly (cycles, bigints)", () => {
    const { logger, parsed } = recording("json");
    const cycle: Record<string, unknown> = { name: "a" };
    cycle.self = cycle;
    logger.info("odd fields", { cycle, big: 12n });
    expect(parsed()[0]).toMatchObject({ cycle: { name: "a", self: "[Circular]" }, big: "12" });
  });

  it("a child logger adds its fields to every line", () => {
    const { logger, parsed } = recording("json");
    logger.child({ job: "webhooks" }).error("delivery failed", { delivery: "d1" });
    expect(parsed()[0]).toMatchObject({ job: "webhooks", delivery: "d1", msg: "delivery failed" });
  });
});

describe("text lines", () => {
  it('are the familiar "[tag] message" lines, fields after, no request id', () => {
    const { logger, lines } = recording("text");
    runInScope({ metrics: null, requestId: "req-42" }, () =>
      logger.info("published 2 scheduled posts", { job: "scheduler", count: 2, ids: ["a", "b"] }),
    );
    logger.info("Flock gateway listening on http://localhost:3000");
    expect(lines.map((l) => l.line)).toEqual([
      '[scheduler] published 2 scheduled posts count=2 ids=["a","b"]',
      "Flock gateway listening on http://localhost:3000",
    ]);
  });

  it("go through the console by default, the error as its own argument (its stack printed as before)", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const error = new Error("boom");
      createLogger({ format: "text" }).error("request failed", { component: "http", error });
      expect(errors).toHaveBeenCalledWith("[http] request failed", error);
    } finally {
      errors.mockRestore();
    }
  });
});

describe("LOG_FORMAT", () => {
  it("json in production, text elsewhere, unless LOG_FORMAT says; null for a value it does not know", () => {
    expect(logFormatFromEnv({ NODE_ENV: "production" })).toBe("json");
    expect(logFormatFromEnv({})).toBe("text");
    expect(logFormatFromEnv({ NODE_ENV: "production", LOG_FORMAT: "text" })).toBe("text");
    expect(logFormatFromEnv({ LOG_FORMAT: "JSON" })).toBe("json");
    expect(logFormatFromEnv({ LOG_FORMAT: "yaml" })).toBeNull();
  });
});

describe("routeConsoleToLog", () => {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  afterEach(() => Object.assign(console, saved));

  it("turns the tree's console lines into JSON lines: the [tag] a component, an Error the error field", () => {
    const { logger, lines, parsed } = recording("json");
    routeConsoleToLog(logger);
    console.log("[webhooks] delivery d1 failed for good");
    console.error("[mail-outbox] could not send:", new Error("SMTP down"));
    console.warn("no tag here", 3);
    expect(lines.map((l) => l.level)).toEqual(["info", "error", "warn"]);
    const [first, second, third] = parsed();
    expect(first).toMatchObject({ component: "webhooks", msg: "delivery d1 failed for good" });
    expect(second).toMatchObject({
      component: "mail-outbox",
      msg: "could not send",
      error: { message: "SMTP down" },
    });
    expect(third).toMatchObject({ msg: "no tag here 3" });
    expect(third).not.toHaveProperty("component");
  });
});
