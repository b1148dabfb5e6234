import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";
import { toneMp3 } from "../scripts/lib/mp3.ts";

// Sermons in a real browser: an editor uploads audio (resumable, with a progress bar), writes notes
// and scripture, publishes; a visitor finds the sermon by a word of its notes and by its book, plays
// it, seeks to the middle (answered by a 206 Range response) and comes back to the same position.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SLOW = { timeout: 20_000 };
const EDITOR = "editor@grace.example";

/** Slow uploads down (as on a church's Wi-Fi) so the progress bar is seen moving. */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

describe("sermons", () => {
  it("an editor uploads audio, writes notes and scripture, publishes; a visitor searches, filters, plays, seeks (206) and resumes", async () => {
    const word = `quillon${randomUUID().slice(0, 6)}`;
    const title = `Songs in the Night ${word.slice(-6)}`;
    // ~3 MB of real MP3 (a short tone repeated): long enough to seek within and to watch uploading.
    const tone = toneMp3(10, { seed: 3 });
    const audio = Buffer.concat(
      Array.from({ length: Math.ceil((3 * 1024 * 1024) / tone.length) }, () => tone),
    );

    const editorContext = await newContext(browser);
    const page = await editorContext.newPage();
    const errors = watchErrors(page);
    page.on("dialog", (dialog) => void dialog.accept());
    await signIn(page, EDITOR, DEMO_PASSWORD);
    await page.goto("/admin/sermons");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Sermons" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    // A sermon is made once it has a title (no "Untitled" drafts left behind), its heading and address
    // following the title.
    await page.getByRole("button", { name: "New sermon" }).click();
    await page.getByLabel("Title", { exact: true }).fill(`${title} (first thought)`);
    await page.getByRole("button", { name: "Create the draft" }).click();
    await page.waitForURL(/\/admin\/sermons\/[a-z0-9]{15}$/);
    const notes = page.getByRole("textbox", { name: "Notes" });
    await notes.waitFor();
    expect(await page.getByLabel("Address").inputValue()).toMatch(/-first-thought$/);
    await expectAccessible(page);
    await page.getByLabel("Title", { exact: true }).fill(title);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: title }).isVisible(), SLOW)
      .toBe(true);
    await page.getByLabel("Scripture").fill("Hab 3:17-19");
    await expect.poll(() => page.getByText("Reads as: Habakkuk 3:17–19").isVisible(), SLOW).toBe(true);
    await page.getByRole("checkbox", { name: "Naomi Carter" }).check();
    await notes.click();
    await page.keyboard.type(`Though the fig tree does not bud, ${word} joy remains.`);

    // Audio: a resumable upload whose progress bar is seen between 0 and 100 %.
    await throttleUploads(page, 1024 * 1024);
    await page
      .getByLabel("Upload audio")
      .setInputFiles({ name: "songs-in-the-night.mp3", mimeType: "audio/mpeg", buffer: audio });
    const progress = page.getByRole("progressbar", { name: "Uploading songs-in-the-night.mp3" });
    await progress.waitFor(SLOW);
    await expect
      .poll(async () => Number(await progress.getAttribute("value").catch(() => "0")), SLOW)
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Uploaded.").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.getByText(/audio\/mpeg · \d+:\d\d/).isVisible(), SLOW).toBe(true);
    // The preview knows its length before anyone presses play (not 0:00 / 0:00).
    await expect
      .poll(() => page.getByLabel("Current audio").evaluate((a) => (a as HTMLAudioElement).duration), SLOW)
      .toBeGreaterThan(0);

    // Saved as typed, as posts are: no Save button; the address followed the title; a reload shows it all.
    expect(await page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    await expect.poll(() => page.locator(".save-status").textContent(), SLOW).toBe("Saved");
    expect(await page.getByLabel("Address").inputValue()).toMatch(/^songs-in-the-night/);
    await page.reload();
    await notes.waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(title);
    expect(await page.getByLabel("Scripture").inputValue()).toBe("Hab 3:17-19");
    expect(await page.getByRole("checkbox", { name: "Naomi Carter" }).isChecked()).toBe(true);
    await expect.poll(() => notes.textContent(), SLOW).toContain(`${word} joy remains.`);
    // Nothing was left on this device to offer back: the server has it all.
    expect(await page.getByRole("heading", { name: "Restore your unsaved changes?" }).count()).toBe(0);
    await page.getByRole("button", { name: "Publish" }).click();
    await expect.poll(() => page.getByText("Published.", { exact: true }).isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await editorContext.close();

    // A visitor finds it by a word of the notes…
    const visitorContext = await newContext(browser);
    const visitor = await visitorContext.newPage();
    const visitorErrors = watchErrors(visitor);
    await visitor.goto("/sermons");
    await expect
      .poll(() => visitor.getByRole("heading", { level: 1, name: "Sermons" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(visitor);
    await visitor.getByLabel("Search sermons").fill(word);
    await expect.poll(() => visitor.getByRole("link", { name: title }).isVisible(), SLOW).toBe(true);
    await expect.poll(() => visitor.locator(".sermon-card").count(), SLOW).toBe(1);
    // …and by its book.
    await visitor.getByLabel("Search sermons").fill("");
    await visitor.getByLabel("Book of the Bible").selectOption({ label: "Habakkuk" });
    await expect.poll(() => visitor.locator(".sermon-card").count(), SLOW).toBe(1);
    await expect.poll(() => visitor.getByRole("link", { name: title }).isVisible(), SLOW).toBe(true);
    await expectAccessible(visitor);

    await visitor.getByRole("link", { name: title }).click();
    await visitor.waitForURL(/\/sermons\/songs-in-the-night/);
    const player = visitor.getByRole("group", { name: `Audio player: ${title}` });
    await player.waitFor();
    await expectAccessible(visitor);
    await expect.poll(() => visitor.getByText("Habakkuk 3:17–19").isVisible(), SLOW).toBe(true);

    const ranges: Array<{ status: number; range: string; contentRange: string }> = [];
    visitor.on("response", (response) => {
      if (response.url().includes("/files/sermons/")) {
        ranges.push({
          status: response.status(),
          range: response.request().headers()["range"] ?? "",
          contentRange: response.headers()["content-range"] ?? "",
        });
      }
    });
    await player.getByRole("button", { name: "Play" }).click();
    await expect
      .poll(
        () => visitor.evaluate(() => (document.querySelector("audio") as HTMLAudioElement).currentTime),
        SLOW,
      )
      .toBeGreaterThan(0);
    await expect.poll(() => player.getByRole("button", { name: "Pause" }).isVisible(), SLOW).toBe(true);

    // Seek to the middle with the slider.
    const duration = await visitor.evaluate(
      () => (document.querySelector("audio") as HTMLAudioElement).duration,
    );
    expect(duration).toBeGreaterThan(60);
    const middle = Math.floor(duration / 2);
    await player.getByRole("slider", { name: "Position" }).fill(String(middle));
    await expect
      .poll(
        () => visitor.evaluate(() => (document.querySelector("audio") as HTMLAudioElement).currentTime),
        SLOW,
      )
      .toBeGreaterThanOrEqual(middle);
    // Chromium fetched the middle of the file with a Range request, answered 206 with the right Content-Range.
    await expect
      .poll(
        () =>
          ranges.some(
            (r) =>
              r.status === 206 &&
              /^bytes=[1-9]\d*-/.test(r.range) &&
              Number(/bytes=(\d+)-/.exec(r.range)![1]) > audio.length / 4,
          ),
        SLOW,
      )
      .toBe(true);
    const middleResponse = ranges.find(
      (r) => r.status === 206 && Number(/bytes=(\d+)-/.exec(r.range)?.[1] ?? 0) > audio.length / 4,
    )!;
    expect(middleResponse.contentRange).toMatch(
      new RegExp(`^bytes ${/bytes=(\d+)-/.exec(middleResponse.range)![1]}-\\d+/${audio.length}$`),
    );
    await player.getByRole("button", { name: "Pause" }).click();
    const stoppedAt = await visitor.evaluate(
      () => (document.querySelector("audio") as HTMLAudioElement).currentTime,
    );

    // The position is remembered on this device: a new visit starts where the visitor stopped.
    await visitor.reload();
    await player.waitFor();
    await expect
      .poll(async () => Number(await player.getByRole("slider", { name: "Position" }).inputValue()), SLOW)
      .toBeGreaterThanOrEqual(Math.floor(stoppedAt) - 1);
    await expect
      .poll(
        () => visitor.evaluate(() => (document.querySelector("audio") as HTMLAudioElement).currentTime),
        SLOW,
      )
      .toBeGreaterThanOrEqual(Math.floor(stoppedAt) - 1);

    // A shared link (?t=) starts elsewhere: 0:30 here.
    await visitor.goto(`${new URL(visitor.url()).pathname}?t=30`);
    await player.waitFor();
    await expect
      .poll(() => player.getByRole("slider", { name: "Position" }).getAttribute("aria-valuetext"), SLOW)
      .toMatch(/^0:30 of /);
    expect(visitorErrors).toEqual([]);
    await visitorContext.close();
  });

  it("a dropped connection: the upload continues where it stopped (tus), and bulk upload makes drafts", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, EDITOR, DEMO_PASSWORD);
    await page.goto("/admin/sermons");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Sermons" }).isVisible(), SLOW)
      .toBe(true);
    const name = `Evening Prayer ${randomUUID().slice(0, 6)}`;
    const tone = toneMp3(6, { seed: 4 });
    // 20 MB: three 8 MB chunks, so the drop lands after the first one.
    const repeat = Math.ceil((20 * 1024 * 1024) / tone.length);
    // What the browser sent to the tus endpoint, in order.
    const events: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/uploads/audio"))
        events.push(`${request.method()} ${request.headers()["upload-offset"] ?? ""}`.trim());
    });
    page.on("requestfailed", (request) => {
      if (request.url().includes("/uploads/audio")) events.push(`failed ${request.method()}`);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024 * 1024,
    });

    const bulk = page.locator("details.sermon-bulk");
    await bulk.locator("summary").click();
    await expect.poll(() => bulk.getAttribute("open"), SLOW).toBe("");
    // The file is put together in the page and chosen as setInputFiles chooses one (DataTransfer, then
    // input and change events): handed over as a 20 MB buffer it crossed to the page as base64 and
    // outlasted the action timeout on a busy machine; as a file on disk, Chromium's throttled upload of
    // a disk-backed body failed every chunk.
    await bulk.getByLabel("Audio files", { exact: true }).evaluate(
      (input: HTMLInputElement, { base64, times, fileName }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const file = new File(
          Array.from({ length: times }, () => bytes),
          fileName,
          { type: "audio/mpeg" },
        );
        const chosen = new DataTransfer();
        chosen.items.add(file);
        input.files = chosen.files;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
      },
      { base64: tone.toString("base64"), times: repeat, fileName: `${name}.mp3` },
    );
    const progress = page.getByRole("progressbar", { name: `Uploading ${name}.mp3` });
    // The Wi-Fi drops once the first chunk is in…
    await expect
      .poll(async () => Number(await progress.getAttribute("value").catch(() => "0")), SLOW)
      .toBeGreaterThanOrEqual(40);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.waitForTimeout(1500);
    // …and comes back: tus-js-client asks the server for its offset and sends only the rest.
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect.poll(() => page.getByText("Uploaded.").isVisible(), { timeout: 30_000 }).toBe(true);
    // A chunk failed when the connection dropped; the client then asked for the offset (HEAD) and
    // went on from there, never from 0 again.
    const failed = events.indexOf("failed PATCH");
    expect(failed, events.join(", ")).toBeGreaterThan(0);
    const after = events.slice(failed + 1);
    expect(after, events.join(", ")).toContain("HEAD");
    const resumed = after.filter((e) => e.startsWith("PATCH ")).map((e) => Number(e.slice(6)));
    expect(resumed.length, events.join(", ")).toBeGreaterThan(0);
    expect(resumed[0], events.join(", ")).toBeGreaterThan(0);
    expect(events.filter((e) => e === "PATCH 0")).toHaveLength(1);
    await expect.poll(() => page.getByRole("link", { name }).isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
