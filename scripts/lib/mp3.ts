import { Mp3Encoder } from "@breezystack/lamejs";

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
  const base = [196, 220, 247, 262, 294][(options.seed ?? 0) % 5]!;
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
