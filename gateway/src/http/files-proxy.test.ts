/**
 * The file proxy when a transfer breaks half-way: PocketBase dropping the connection, or the reader
 * going away. Neither may take the gateway down (an 'error' on a stream nobody listens to is an
 * uncaught exception: the whole process exits), and a reader who leaves stops the upstream transfer.
 * The upstream here is a stand-in for PocketBase's file API that misbehaves on purpose.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { proxyFile } from "./files-proxy.ts";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A gateway that only proxies files, to `upstream`. */
const gatewayTo = (upstream: string) =>
  listen(
    createServer((req, res) => void proxyFile(req, res, new URL(req.url!, "http://gateway"), upstream, null)),
  );

/** GET `url`, resolving with what arrived and how the response ended. */
function download(
  url: string,
  stopAfterBytes = Infinity,
): Promise<{ status: number; bytes: number; ended: "complete" | "aborted" }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res: IncomingMessage) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= stopAfterBytes) req.destroy(); // the reader leaves
      });
      res.on("end", () => resolve({ status: res.statusCode!, bytes, ended: "complete" }));
      res.on("aborted", () => resolve({ status: res.statusCode!, bytes, ended: "aborted" }));
      res.on("close", () =>
        resolve({ status: res.statusCode!, bytes, ended: res.complete ? "complete" : "aborted" }),
      );
    });
    req.on("error", (error) => (stopAfterBytes < Infinity ? undefined : reject(error)));
    req.end();
  });
}

describe("the file proxy when a transfer breaks", () => {
  it("PocketBase closing the connection mid-file ends the reader's response, and the gateway lives on", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { "content-type": "audio/mpeg", "content-length": String(1_000_000) });
        res.write(Buffer.alloc(64 * 1024));
        setTimeout(() => res.socket?.destroy(), 20);
      }),
    );
    const gateway = await gatewayTo(upstream);
    const broken = await download(`${gateway}/files/sermons/abc/talk.mp3`);
    expect(broken).toMatchObject({ status: 200, ended: "aborted" });
    expect(broken.bytes).toBeLessThan(1_000_000);
    // Still serving.
    expect((await download(`${gateway}/files/nope`)).status).toBe(404);
  });

  it("a reader who leaves mid-file stops the transfer from PocketBase", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const upstream = await listen(
      createServer((req, res) => {
        res.writeHead(200, { "content-type": "audio/mpeg", "content-length": String(100 * 1024 * 1024) });
        const chunk = Buffer.alloc(64 * 1024);
        const timer = setInterval(() => res.write(chunk), 1);
        req.socket.on("close", () => {
          clearInterval(timer);
          upstreamClosed();
        });
      }),
    );
    const gateway = await gatewayTo(upstream);
    const left = await download(`${gateway}/files/sermons/abc/talk.mp3`, 256 * 1024);
    expect(left.bytes).toBeGreaterThanOrEqual(256 * 1024);
    await closed; // the proxy let go of its upstream request (else this waits for 100 MB)
    expect((await download(`${gateway}/files/nope`)).status).toBe(404);
  });
});
