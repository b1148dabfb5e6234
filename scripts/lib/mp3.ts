import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Mp3Encoder } from "@breezystack/lamejs";
import { ROOT } from "./pocketbase.ts";

// Encoding is pure JavaScript and slow (the demo seed's 102 s of audio took 9 s of CPU on the shared
// machine), and the same tones are asked for again and again (every demo seed, the tests). A tone is
// kept once encoded, under a key of its parameters, this file and the encoder's version: the bytes
// are the ones the encoder would make.
const CACHE_DIR = join(ROOT, "node_modules", ".cache", "flock-tone-mp3");
const GENERATOR = createHash("sha256")
  .update(readFileSync(new URL(import.meta.url)))
  .update(
    (
      JSON.parse(
        readFileSync(
          join(dirname(createRequire(import.meta.url).resolve("@breezystack/lamejs")), "..", "package.json"),
          "utf8",
        ),
      ) as { version?: string }
    ).version ?? "",
  )
  .digest("hex")
  .slice(0, 16);

/**
 * A short, real MP3 made at run time (no downloads, nothing large committed): a soft chord that
 * changes every few seconds, encoded with a pure-JS LAME port. Used by the seed, tests and e2e.
 */
export function toneMp3(
  seconds: number,
  options: { sampleRate?: number; kbps?: number; seed?: number } = {},
): Buffer {
  const sampleRate = options.sampleRate ?? 22_050;
  const kbps = options.kbps ?? 48;
  const seed = options.seed ?? 0;
  const file = join(CACHE_DIR, `${GENERATOR}-${seconds}s-${sampleRate}hz-${kbps}k-${seed}.mp3`);
  try {
    return readFileSync(file);
  } catch {
    // Not encoded yet.
  }
  const mp3 = encodeTone(seconds, sampleRate, kbps, seed);
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written whole, then renamed: a process reading at the same time never sees half of it.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, mp3);
    renameSync(partial, file);
  } catch {
    // A read-only tree only loses the shortcut.
  }
  return mp3;
}

function encodeTone(seconds: number, sampleRate: number, kbps: number, seed: number): Buffer {
  const base = [196, 220, 247, 262, 294][seed % 5]!;
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const total = Math.round(seconds * sampleRate);
  const block = 1152;
  const chunks: Uint8Array[] = [];
  const samples = new Int16Array(block);
  for (let start = 0; start < total; start += block) {
    const length = Math.min(block, total - start);
    for (let i = 0; i < length; i++) {
      const t = (start + i) / sampleRate;
      const step = Math.floor(t / 3) % 4;
      const root = base * [1, 1.25, 1.5, 1.125][step]!;
      const envelope = Math.min(1, t * 4, (seconds - t) * 4);
      const value =
        (Math.sin(2 * Math.PI * root * t) * 0.5 + Math.sin(2 * Math.PI * root * 1.5 * t) * 0.25) * envelope;
      samples[i] = Math.round(value * 9_000);
    }
    const encoded = encoder.encodeBuffer(length === block ? samples : samples.subarray(0, length));
    if (encoded.length) chunks.push(new Uint8Array(encoded));
  }
  const tail = encoder.flush();
  if (tail.length) chunks.push(new Uint8Array(tail));
  return Buffer.concat(chunks);
}
