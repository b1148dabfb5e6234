// `npm run bench:uploads [-- --mb=40,300]`: sermon audio at real sizes — an hour-long sermon
// (~40 MB) and the limit (300 MB) — through the gateway as an editor's browser sends it: a resumable
// upload (tus, 8 MB chunks) staged on disk, the hand-over to PocketBase (streamed from disk), then a
// Range read from the middle and a whole read, compared byte for byte (sha256) with what was sent.
// Prints the seconds and MB/s of each step and the gateway's peak memory (VmHWM, Linux) after each
// size. The integration tests (gateway/test/sermons.int.test.ts) check the same steps with a 6 MB file.
//
// A throw-away stack (PocketBase + gateway, production settings) runs in a child process (`--serve`),
// so that the 300 MB this process holds is not counted as the gateway's.
import { createHash } from "node:crypto";
import { fork } from "node:child_process";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import PocketBase from "pocketbase";
import { toneMp3 } from "./lib/mp3.ts";
import { startStack } from "./lib/stack.ts";
import { CSRF_HEADER } from "../gateway/src/yoga.ts";
import { TusClient } from "../gateway/test/sermon-support.ts";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const CHUNK = 8 * 1024 * 1024;
const MB = 1024 * 1024;

interface Ready {
  url: string;
  pbUrl: string;
  superuser: { email: string; password: string };
  pid: number;
}

async function serve(dataDir: string): Promise<void> {
  const stack = await startStack({
    dataDir,
    port: 0,
    pbPort: 0,
    webDist: null,
    demo: false,
    quiet: true,
    production: true,
  });
  const stop = () => void stack.stop().finally(() => process.exit(0));
  process.on("message", (message) => message === "stop" && stop());
  process.on("disconnect", stop);
  process.send!({
    url: stack.url,
    pbUrl: stack.pbUrl,
    superuser: stack.superuser,
    pid: process.pid,
  } satisfies Ready);
}

/** The gateway process's peak resident memory in MB (Linux), or NaN elsewhere. */
async function peakMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await run();
  return { value, seconds: (performance.now() - start) / 1000 };
}

async function main(): Promise<void> {
  const sizes = (option("mb") ?? "40,300").split(",").map(Number);
  const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-uploads-"));
  const child = fork(fileURLToPath(import.meta.url), ["--serve", dataDir], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  let failed = false;
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Ready));
      child.once("exit", (code) => reject(new Error(`the stack stopped (${code})`)));
    });
    const system = new PocketBase(ready.pbUrl);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(ready.superuser.email, ready.superuser.password);
    const editorRole = await system.collection("roles").getFirstListItem(system.filter("name = 'Editor'"));
    const person = await system
      .collection("people")
      .create({ firstName: "Bench", lastName: "Editor", recordStatus: "active" });
    const credentials = { email: "editor@bench.test", password: "bench-editor-2026" };
    await system.collection("users").create({
      ...credentials,
      passwordConfirm: credentials.password,
      verified: true,
      name: "Bench Editor",
      person: person.id,
      roles: [editorRole.id],
      status: "active",
    });
    const token = (
      await new PocketBase(ready.pbUrl)
        .collection("users")
        .authWithPassword(credentials.email, credentials.password)
    ).token;
    const graphql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
      const response = await fetch(`${ready.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, [CSRF_HEADER]: "1" },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: T; errors?: unknown[] };
      if (!body.data || body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };

    console.log(
      `sermon audio through the gateway (tus chunks of ${CHUNK / MB} MB), gateway at rest: ${(await peakMb(ready.pid)).toFixed(0)} MB peak RSS`,
    );
    console.log(
      `${"size".padStart(7)} ${"upload".padStart(14)} ${"hand-over".padStart(14)} ${"range".padStart(8)} ${"whole read".padStart(14)} ${"bytes".padStart(6)} ${"gateway peak".padStart(13)}`,
    );
    const tone = toneMp3(8);
    for (const size of sizes) {
      // Real MP3 frames, repeated: the gateway checks the bytes are audio.
      const audio = Buffer.concat(
        Array.from({ length: Math.ceil((size * MB) / tone.length) }, () => tone),
      ).subarray(0, size * MB);
      const upload = await timed(() =>
        new TusClient(ready.url, token).upload(audio, `bench-${size}.mp3`, "audio/mpeg", CHUNK),
      );
      const { createSermon } = await graphql<{ createSermon: { id: string } }>(
        `
          mutation ($input: SermonInput!) {
            createSermon(input: $input) {
              id
            }
          }
        `,
        { input: { title: `Bench ${size} MB ${Date.now()}` } },
      );
      const handOver = await timed(() =>
        graphql<{ attachSermonAudio: { audio: { url: string; size: number } } }>(
          `
            mutation ($s: ID!, $u: ID!) {
              attachSermonAudio(sermonId: $s, uploadId: $u) {
                audio {
                  url
                  size
                }
              }
            }
          `,
          { s: createSermon.id, u: upload.value },
        ),
      );
      await graphql(
        `
          mutation ($id: ID!) {
            publishSermon(id: $id) {
              id
            }
          }
        `,
        { id: createSermon.id },
      );
      const url = `${ready.url}${new URL(handOver.value.attachSermonAudio.audio.url).pathname}`;
      const middle = Math.floor(audio.length / 2);
      const range = await timed(async () => {
        const response = await fetch(url, { headers: { range: `bytes=${middle}-${middle + MB - 1}` } });
        return (
          response.status === 206 &&
          Buffer.from(await response.arrayBuffer()).equals(audio.subarray(middle, middle + MB))
        );
      });
      const whole = await timed(async () => {
        const hash = createHash("sha256");
        const reader = (await fetch(url)).body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) hash.update(read.value);
        return hash.digest("hex");
      });
      const same =
        range.value &&
        whole.value === sha256(audio) &&
        handOver.value.attachSermonAudio.audio.size === audio.length;
      failed ||= !same;
      const rate = (seconds: number) =>
        `${seconds.toFixed(1)} s ${(size / seconds).toFixed(0).padStart(4)} MB/s`;
      console.log(
        `${`${size} MB`.padStart(7)} ${rate(upload.seconds).padStart(14)} ${rate(handOver.seconds).padStart(14)} ${`${(range.seconds * 1000).toFixed(0)} ms`.padStart(8)} ${rate(whole.seconds).padStart(14)} ${(same ? "same" : "DIFF").padStart(6)} ${`${(await peakMb(ready.pid)).toFixed(0)} MB`.padStart(13)}`,
      );
    }
    if (failed) {
      console.log("MISS: a stored or served file differs from what was sent");
      process.exitCode = 1;
    }
  } finally {
    child.send("stop");
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (args[0] === "--serve") await serve(args[1]!);
else await main();
