import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarkdownPool, MarkdownTimeoutError } from "./pool.ts";
import { imageUrls, plainText, renderMarkdown } from "./render.ts";

const SITE = { siteOrigin: "https://grace.example" };
// One pool for the file (starting a worker process loads the whole Markdown toolchain): the last
// test leaves long renders running, which closing the pool ends.
const pool = new MarkdownPool({ size: 2 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

/** A realistic long body: every block type, many library images. */
function longBody(chars: number): string {
  const section = (n: number) =>
    `## Section ${n}\n\nWe gather **every Sunday** at _10:30_ — see [the calendar](/events).\n\n- [x] Coffee\n- [ ] Chairs\n\n| Day | Time |\n|:--|--:|\n| Sun | 10:30 |\n\n> Grace.\n\n![Photo](/files/media/r${n}/p.jpg)\n\n`;
  let markdown = "";
  for (let n = 0; markdown.length < chars; n++) markdown += section(n);
  return markdown.slice(0, chars);
}

describe("MarkdownPool", () => {
  it("gives the same results as rendering in place, with image details from the calling thread", async () => {
    const markdown =
      "# Welcome\n\nHello [there](https://example.org) ![a](/files/media/m1/a.jpg)\n\n<script>x</script>";
    const resolveImages = async (urls: string[]) =>
      new Map(urls.map((url) => [url, { width: 40, height: 30, alt: "A photo" }]));
    const html = await pool.render(markdown, { ...SITE, resolveImages });
    expect(html).toBe(await renderMarkdown(markdown, { ...SITE, resolveImages }));
    expect(html).toContain('width="40" height="30"');
    expect(await pool.plainText(markdown, 12)).toBe(plainText(markdown, 12));
    expect(await pool.imageUrls(markdown)).toEqual(imageUrls(markdown));
  });

  it("passes on errors: a failed image lookup, and the renderer's own", async () => {
    const lookupFailed = new Error("PocketBase is down");
    await expect(
      pool.render("![a](/files/media/m1/a.jpg)", {
        ...SITE,
        resolveImages: () => Promise.reject(lookupFailed),
      }),
    ).rejects.toBe(lookupFailed);
    await expect(pool.render("x", { siteOrigin: "javascript:alert(1)" })).rejects.toThrow(TypeError);
    expect(await pool.render("still *working*", SITE)).toBe("<p>still <em>working</em></p>");
  });

  it("stops a render past its time limit with a clear error, and carries on with a fresh worker", async () => {
    const error = await pool.render(longBody(200_000), SITE, 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarkdownTimeoutError);
    expect((error as Error).message).toBe("Rendering this Markdown took longer than 0.02 s and was stopped.");
    expect(await pool.render("after **the** timeout", SITE)).toBe(
      "<p>after <strong>the</strong> timeout</p>",
    );
    expect(pool.stats().busy).toBe(0);
  });

  it("runs jobs side by side up to its size, and queues the rest", async () => {
    const jobs = Array.from({ length: 5 }, (_, i) => pool.plainText(`Paragraph ${i}`));
    expect(pool.stats().workers).toBeLessThanOrEqual(2);
    expect(await Promise.all(jobs)).toEqual([
      "Paragraph 0",
      "Paragraph 1",
      "Paragraph 2",
      "Paragraph 3",
      "Paragraph 4",
    ]);
    expect(pool.stats()).toMatchObject({ queued: 0, busy: 0 });
  });

  it("keeps the calling thread free, and a worker for short jobs, while long bodies render", async () => {
    await pool.warm(); // both workers up (the time-limit test replaced one)
    let longDone = 0;
    for (const markdown of [longBody(100_000), longBody(100_001)]) {
      void pool.render(markdown, SITE).then(
        () => longDone++,
        () => longDone++,
      );
    }
    // The event loop keeps turning while a worker parses (rendered in place, not one turn would pass).
    let turns = 0;
    while (!longDone && turns < 20) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(turns).toBe(20);
    // Two long bodies, two workers: one renders, the other waits, and short jobs get the free worker.
    expect(await pool.render("a *short* one", SITE)).toBe("<p>a <em>short</em> one</p>");
    expect(await pool.plainText("a summary")).toBe("a summary");
    expect(longDone).toBe(0);
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });
  });
});
