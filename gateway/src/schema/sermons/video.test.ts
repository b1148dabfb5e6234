import { describe, expect, it } from "vitest";
import { parseVideoUrl } from "./video.ts";

describe("sermon video URLs", () => {
  it("accepts YouTube and Vimeo links and rebuilds privacy-friendly embeds from the id", () => {
    expect(parseVideoUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42")).toEqual({
      provider: "YOUTUBE",
      videoId: "dQw4w9WgXcQ",
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      embedUrl: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    });
    expect(parseVideoUrl("https://youtu.be/dQw4w9WgXcQ")?.videoId).toBe("dQw4w9WgXcQ");
    expect(parseVideoUrl("https://youtube.com/live/dQw4w9WgXcQ")?.videoId).toBe("dQw4w9WgXcQ");
    expect(parseVideoUrl("https://vimeo.com/76979871")?.embedUrl).toBe(
      "https://player.vimeo.com/video/76979871",
    );
    expect(parseVideoUrl("https://player.vimeo.com/video/76979871")?.provider).toBe("VIMEO");
  });

  it("refuses other sites, scripts and malformed ids", () => {
    for (const bad of [
      "javascript:alert(1)",
      "https://evil.example/watch?v=dQw4w9WgXcQ",
      "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
      'https://www.youtube.com/watch?v=abc"onload=1',
      "https://vimeo.com/abc",
      "data:text/html,<script>alert(1)</script>",
      "not a url",
    ]) {
      expect(parseVideoUrl(bad), bad).toBeNull();
    }
  });
});
