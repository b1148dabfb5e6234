import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamRecordUpdate } from "./stream-upload.ts";

// A live-memory probe: collect garbage before each sample, so the peak is what is really held.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

// Sized to tell a stream from a whole-file copy, not to measure (96 MB made a unit test slow on a busy machine).
const SIZE = 24 * 1024 * 1024;
let dir: string;
let server: Server;
let url: string;
const received: { bytes: number; head: string; auth: string | undefined; type: string | undefined } = {
  bytes: 0,
  head: "",
  auth: undefined,
  type: undefined,
};

/** Live ArrayBuffer memory above `memory.base` after a collection, kept at its highest in `memory.peak`. */
const memory = { base: 0, peak: 0, samples: 0 };
const sampleMemory = () => {
  gc();
  memory.samples++;
  memory.peak = Math.max(memory.peak, process.memoryUsage().arrayBuffers - memory.base);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flock-stream-"));
  await writeFile(join(dir, "big.mp3"), Buffer.alloc(SIZE, 7));
  // A receiver that reads slowly (as PocketBase writing to a busy disk might): backpressure must hold.
  // It stalls after every 8th chunk (not every chunk: ~1,500 timers made the test itself slow on a
  // busy machine, while ~190 stalls still keep the sender waiting on a full socket throughout).
  let chunks = 0;
  server = createServer((req, res) => {
    received.auth = req.headers.authorization;
    received.type = req.headers["content-type"];
    req.on("data", (chunk: Buffer) => {
      if (received.bytes < 1024) received.head += chunk.subarray(0, 1024).toString("latin1");
      received.bytes += chunk.length;
      if (++chunks % 8 !== 0) return;
      // The receiver runs in this process: sampling here measures throughout the transfer, while the
      // sender waits on a full socket (no timer, which a busy event loop would run late).
      sampleMemory();
      req.pause();
      setTimeout(() => req.resume(), 2);
    });
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "abc" })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("streaming a staged file to PocketBase", () => {
  it("sends the whole multipart body while holding only a few chunks in memory", async () => {
    gc();
    memory.base = process.memoryUsage().arrayBuffers;
    const result = await streamRecordUpdate(
      url,
      "user-token",
      "sermons",
      "rec123",
      { audioSize: SIZE, audioType: "audio/mpeg" },
      {
        field: "audio",
        path: join(dir, "big.mp3"),
        name: "big.mp3",
        type: "audio/mpeg",
        size: SIZE,
      },
    );
    console.log(
      `[stream-upload] ${SIZE / 1048576} MB sent; peak live ArrayBuffers +${(memory.peak / 1048576).toFixed(1)} MB`,
    );
    expect(result).toEqual({ id: "abc" });
    expect(received.auth).toBe("user-token");
    expect(received.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(received.head).toContain('name="audioSize"');
    expect(received.head).toContain('name="audio"; filename="big.mp3"');
    expect(received.bytes).toBeGreaterThan(SIZE);
    // Far below the file's size (a file-backed Blob as a fetch body held all of it on Node 20.20): after
    // a collection about 1 MB is live at any point, whatever the file's size.
    expect(memory.samples).toBeGreaterThan(20);
    expect(memory.peak).toBeLessThan(SIZE / 4);
  });
});
