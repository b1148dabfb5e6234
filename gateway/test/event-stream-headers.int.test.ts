// Event streams carry `X-Accel-Buffering: no` (issue 10): behind nginx with proxy buffering on, live
// updates would otherwise wait in nginx's buffer. Both ways to subscribe are covered: Yoga's own SSE
// on /graphql and graphql-sse's single connection at /graphql/stream (what the web app uses).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, GRAPHQL_SSE_ENDPOINT } from "../src/yoga.ts";
import type { Gateway } from "../src/index.ts";
import { testGateway } from "./helpers.ts";
import { SseSubscription } from "./sse.ts";

let gateway: Gateway;
beforeAll(async () => {
  gateway = await testGateway();
});
afterAll(async () => {
  await gateway.close();
});

const call = (path: string, init: RequestInit) =>
  gateway.yoga.fetch(`http://flock.test${path}`, init, { clientIp: "203.0.113.9" });

describe("event streams", () => {
  it("a subscription over /graphql is an event stream that nginx must not buffer", async () => {
    const stream = await SseSubscription.open(gateway, {
      query: "subscription { settingsChanged { churchName } }",
      headers: { [CSRF_HEADER]: "1" },
      clientIp: "203.0.113.9",
    });
    try {
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
      // The stream starts (Yoga sends a keep-alive comment), then the client goes away.
      await stream.waitFor(() => stream.raw.length > 0, "the first bytes");
    } finally {
      await stream.close();
    }
  });

  it("the graphql-sse stream at /graphql/stream too", async () => {
    const reserved = await call(GRAPHQL_SSE_ENDPOINT, { method: "PUT", headers: { [CSRF_HEADER]: "1" } });
    expect(reserved.status).toBe(201);
    const token = await reserved.text();
    const stream = await call(GRAPHQL_SSE_ENDPOINT, {
      method: "GET",
      headers: { accept: "text/event-stream", "x-graphql-event-stream-token": token, [CSRF_HEADER]: "1" },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    await stream.body?.cancel();
  });

  it("ordinary answers are left alone", async () => {
    const response = await call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", [CSRF_HEADER]: "1" },
      body: JSON.stringify({ query: "{ settings { churchName } }" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-accel-buffering")).toBeNull();
  });
});
