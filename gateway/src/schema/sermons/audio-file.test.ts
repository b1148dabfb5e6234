import { describe, expect, it } from "vitest";
import { checkAudioBytes, sniffAudio } from "./audio-file.ts";

const pad = (head: number[] | string, length = 64) => {
  const bytes = typeof head === "string" ? Buffer.from(head, "latin1") : Buffer.from(head);
  return new Uint8Array(Buffer.concat([bytes, Buffer.alloc(Math.max(0, length - bytes.length))]));
};
const MPEG_FRAME = [0xff, 0xfb, 0x90, 0x00]; // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz
const ID3_THEN_FRAME = [0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, ...MPEG_FRAME];

describe("audio sniffing by magic bytes", () => {
  it("recognises MP3 (with and without an ID3 tag), M4A, AAC, OGG and WAV", () => {
    expect(sniffAudio(pad(MPEG_FRAME))).toBe("mp3");
    expect(sniffAudio(pad(ID3_THEN_FRAME))).toBe("mp3");
    expect(sniffAudio(pad([0, 0, 0, 0x20, ...Buffer.from("ftypM4A ")]))).toBe("m4a");
    expect(sniffAudio(pad([0xff, 0xf1, 0x50, 0x80]))).toBe("aac");
    expect(sniffAudio(pad("OggS"))).toBe("ogg");
    expect(sniffAudio(pad("RIFF\0\0\0\0WAVEfmt "))).toBe("wav");
  });

  it("refuses HTML, SVG, PDF, images, text and truncated files", () => {
    for (const bytes of [
      pad("<!doctype html><script>alert(1)</script>"),
      pad('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      pad("%PDF-1.7"),
      pad([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pad("ID3 but then nothing audio at all.............................................", 200),
      pad([0xff, 0xfb], 4),
      pad([0, 0, 0, 0x20, ...Buffer.from("ftypqt  ")]),
    ]) {
      expect(sniffAudio(bytes)).toBeNull();
    }
  });

  it("needs the declared type and the extension to agree with the bytes", () => {
    const mp3 = pad(MPEG_FRAME);
    expect(checkAudioBytes(mp3, { declaredType: "audio/mpeg", filename: "sermon.mp3" })).toEqual({
      ok: true,
      format: "mp3",
      mime: "audio/mpeg",
    });
    expect(checkAudioBytes(mp3, { declaredType: "", filename: "sermon" }).ok).toBe(true);
    expect(checkAudioBytes(mp3, { declaredType: "text/html", filename: "sermon.mp3" })).toEqual({
      ok: false,
      reason: "type",
    });
    expect(checkAudioBytes(mp3, { declaredType: "audio/mpeg", filename: "sermon.html" })).toEqual({
      ok: false,
      reason: "type",
    });
    expect(
      checkAudioBytes(pad("RIFF\0\0\0\0WAVEfmt "), { declaredType: "audio/mpeg", filename: "sermon.mp3" }),
    ).toEqual({ ok: false, reason: "type" });
  });
});

describe("a staged file with a long ID3 tag", () => {
  it("accepts audio after the tag, refuses an HTML polyglot hiding behind one", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { checkAudioFile } = await import("./audio-file.ts");
    const dir = await mkdtemp(join(tmpdir(), "flock-audio-"));
    try {
      // ID3v2 tag of 8,192 bytes (synchsafe 0x00 0x00 0x40 0x00), then what follows it.
      const tag = Buffer.concat([
        Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0x40, 0x00]),
        Buffer.alloc(8192, 0x20),
      ]);
      const good = join(dir, "good.mp3");
      const evil = join(dir, "evil.mp3");
      await writeFile(good, Buffer.concat([tag, Buffer.from(MPEG_FRAME), Buffer.alloc(600)]));
      await writeFile(
        evil,
        Buffer.concat([tag, Buffer.from("<html><script>alert(1)</script></html>".padEnd(600, " "))]),
      );
      const options = { maxBytes: 1_000_000, declaredType: "audio/mpeg", filename: "x.mp3" };
      expect(await checkAudioFile(good, { ...options, size: 8202 + 4 + 600 })).toMatchObject({
        ok: true,
        format: "mp3",
      });
      expect(await checkAudioFile(evil, { ...options, size: 8202 + 600 })).toEqual({
        ok: false,
        reason: "type",
      });
      expect(await checkAudioFile(good, { ...options, size: 2_000_000 })).toEqual({
        ok: false,
        reason: "size",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
