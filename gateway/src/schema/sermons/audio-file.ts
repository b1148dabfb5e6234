import { open } from "node:fs/promises";

/**
 * What an audio upload really is, from its first bytes (never from its name or declared type alone).
 * A file is accepted only when its bytes are MP3, M4A/AAC, OGG or WAV, its declared MIME type (if
 * any) belongs to that same family, and its extension (if any) too: HTML or SVG renamed .mp3, an MP3
 * declared as text/html, or a WAV named .mp3 are all refused.
 */
export type AudioFormat = "mp3" | "m4a" | "aac" | "ogg" | "wav";

export const AUDIO_FORMATS: Record<AudioFormat, { mime: string; extensions: string[]; mimes: string[] }> = {
  mp3: {
    mime: "audio/mpeg",
    extensions: ["mp3"],
    mimes: ["audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg"],
  },
  m4a: {
    mime: "audio/mp4",
    extensions: ["m4a", "mp4", "m4b", "aac"],
    mimes: ["audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac", "audio/x-aac"],
  },
  aac: {
    mime: "audio/aac",
    extensions: ["aac", "m4a"],
    mimes: ["audio/aac", "audio/x-aac", "audio/aacp", "audio/mp4", "audio/x-m4a"],
  },
  ogg: {
    mime: "audio/ogg",
    extensions: ["ogg", "oga", "opus"],
    mimes: ["audio/ogg", "audio/opus", "application/ogg", "audio/x-ogg"],
  },
  wav: {
    mime: "audio/wav",
    extensions: ["wav", "wave"],
    mimes: ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"],
  },
};

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** An MPEG audio frame header (layer I–III, valid bitrate and sample rate) at `offset`. */
function mpegFrameAt(bytes: Uint8Array, offset: number): boolean {
  if (offset + 4 > bytes.length) return false;
  const [b0, b1, b2] = [bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0x03; // 01 is reserved
  const layer = (b1 >> 1) & 0x03; // 00 is reserved (that pattern is ADTS AAC)
  const bitrate = (b2 >> 4) & 0x0f;
  const sampleRate = (b2 >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x00 && bitrate !== 0x0f && sampleRate !== 0x03;
}

/** ADTS (raw AAC) header: sync 0xFFF, layer 00. */
const adtsAt = (bytes: Uint8Array, offset: number) =>
  offset + 2 <= bytes.length && bytes[offset] === 0xff && (bytes[offset + 1]! & 0xf6) === 0xf0;

/** Where the audio starts after an ID3v2 tag (0 without one). */
export function id3End(bytes: Uint8Array): number {
  if (bytes.length < 10 || ascii(bytes, 0, 3) !== "ID3") return 0;
  const size =
    ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/** Sniff the format from the file's first bytes (at least 64 are needed; 4 KB are used). */
export function sniffAudio(bytes: Uint8Array): AudioFormat | null {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return "wav";
  if (ascii(bytes, 0, 4) === "OggS") return "ogg";
  if (ascii(bytes, 4, 4) === "ftyp") {
    const brand = ascii(bytes, 8, 4);
    // Audio MP4 brands; plain video MP4s (isom/mp42 with video) are not sermon audio uploads.
    if (["M4A ", "M4B ", "M4P ", "mp42", "isom", "dash"].includes(brand)) return "m4a";
    return null;
  }
  if (ascii(bytes, 0, 3) === "ID3") {
    // ID3v2 tag: skip it (synchsafe size) and look for the first frame after it.
    const after = id3End(bytes);
    // The tag is larger than what was read: checkAudioFile reads the bytes after it and asks again.
    if (after >= bytes.length - 4) return null;
    if (mpegFrameAt(bytes, after)) return "mp3";
    if (adtsAt(bytes, after)) return "aac";
    return null;
  }
  // No tag: two consecutive frame headers would be stronger, but one valid header at 0 is what players accept.
  if (adtsAt(bytes, 0)) return "aac";
  if (mpegFrameAt(bytes, 0)) return "mp3";
  return null;
}

export type AudioCheck =
  { ok: true; format: AudioFormat; mime: string } | { ok: false; reason: "type" | "size" | "empty" };

/** Check a staged file: its size, its bytes, and that its declared type and name agree with them. */
export async function checkAudioFile(
  path: string,
  options: { size: number; maxBytes: number; declaredType?: string; filename?: string },
): Promise<AudioCheck> {
  if (options.size <= 0) return { ok: false, reason: "empty" };
  if (options.size > options.maxBytes) return { ok: false, reason: "size" };
  const handle = await open(path, "r");
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(Math.min(4096, options.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
    // A long ID3 tag (cover art): the first audio frame must follow it, not just any bytes.
    const after = id3End(head);
    if (after >= head.length - 4 && after < options.size - 4) {
      const frame = Buffer.alloc(16);
      const read = await handle.read(frame, 0, frame.length, after);
      const format = sniffAudio(frame.subarray(0, read.bytesRead));
      return format ? checkFormat(format, options) : { ok: false, reason: "type" };
    }
  } finally {
    await handle.close();
  }
  return checkAudioBytes(head, options);
}

export function checkAudioBytes(
  head: Uint8Array,
  options: { declaredType?: string; filename?: string },
): AudioCheck {
  const format = sniffAudio(head);
  if (!format) return { ok: false, reason: "type" };
  return checkFormat(format, options);
}

function checkFormat(format: AudioFormat, options: { declaredType?: string; filename?: string }): AudioCheck {
  const info = AUDIO_FORMATS[format];
  const declared = (options.declaredType ?? "").split(";")[0]!.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream" && !info.mimes.includes(declared))
    return { ok: false, reason: "type" };
  const extension = /\.([a-z0-9]{1,5})$/i.exec(options.filename ?? "")?.[1]?.toLowerCase();
  if (extension && !info.extensions.includes(extension)) return { ok: false, reason: "type" };
  return { ok: true, format, mime: info.mime };
}
