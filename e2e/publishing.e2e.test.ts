import { randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { baseUrl, DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

// Publishing (pages, news, media) in a real browser: an editor writes a post with the Markdown
// editor, nothing typed is lost (autosave, offline, a local copy, conflicts between two tabs), and a
// visitor reads the published post.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const EDITOR = "editor@grace.example";
/** Polls wait for the app (page loads, GraphQL, the 1.5 s autosave pause) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };
const unique = () => randomUUID().slice(0, 6);

/** A real PNG (a colour gradient), so the gateway can read its size. */
function png(width: number, height: number): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = table[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      rows[o] = 150 + Math.round((x / width) * 100);
      rows[o + 1] = 90 + Math.round((y / height) * 80);
      rows[o + 2] = 40;
    }
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A GraphQL call from the page, with its session cookie (what the app itself would send). */
async function gql<T>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: unknown; errors?: unknown[] };
    },
    { query, variables },
  );
  if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
  return result.data as T;
}

const serverPost = (page: Page, id: string) =>
  gql<{ postById: { title: string; body: string; status: string; revision: number } }>(
    page,
    "query ($id: ID!) { postById(id: $id) { title body status revision } }",
    { id },
  ).then((d) => d.postById);

/** Paste an image file into the editor the way the browser does for a screenshot on the clipboard. */
async function pasteImage(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.evaluate(
    ({ name, data }) => {
      const file = new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, {
        type: "image/png",
      });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      const target = document.querySelector('[role="textbox"][aria-label="Text"]');
      if (!target) throw new Error("no editor");
      target.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { name, data: bytes.toString("base64") },
  );
}

/**
 * Start a new block (Enter, "## ", "- "…) and let the editor draw it before typing on: Crepe renders
 * list items (and its block handle) a frame later, and a key typed in between lands at the end of
 * the document instead (seen with Playwright's instant typing; a person pauses longer than that).
 */
async function newBlock(page: Page, keys: () => Promise<void>): Promise<void> {
  await keys();
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

const saveStatus = (page: Page) => page.locator(".save-status").textContent();
const body = (page: Page) => page.getByRole("textbox", { name: "Text" });

async function openPost(page: Page, id: string): Promise<void> {
  await page.goto(`/admin/news/${id}`);
  await body(page).waitFor();
}

/** A draft made through the API (for the tests that are not about creating one). */
async function createDraft(page: Page, title: string, markdown: string): Promise<string> {
  const data = await gql<{ createPost: { id: string } }>(
    page,
    "mutation ($input: PostInput!) { createPost(input: $input) { id } }",
    { input: { title, body: markdown } },
  );
  return data.createPost.id;
}

describe("publishing in a real browser", () => {
  it("an editor writes a post with a heading, a list, a link and a pasted image, reloads, publishes; a visitor reads it", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.on("dialog", (dialog) => void dialog.accept());
    await signIn(page, EDITOR, DEMO_PASSWORD);

    await page.goto("/admin/news");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "News" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    // "New post" opens an empty editor and stores nothing: leaving it leaves no empty draft behind.
    const drafts = async () =>
      (
        await gql<{ posts: { totalCount: number } }>(
          page,
          "{ posts(first: 1, status: DRAFT) { totalCount } }",
        )
      ).posts.totalCount;
    const draftsBefore = await drafts();
    await page.getByRole("link", { name: "New post" }).click();
    await page.waitForURL(/\/admin\/news\/new$/);
    await body(page).waitFor();
    await expectAccessible(page);
    // The title is the document's heading: focused, empty, its label for screen readers only.
    expect(
      await page.evaluate(() =>
        (document.activeElement as HTMLTextAreaElement | null)?.getAttribute("placeholder"),
      ),
    ).toBe("Title");
    await page.getByRole("link", { name: "All news" }).click();
    await page.waitForURL(/\/admin\/news$/);
    expect(await drafts()).toBe(draftsBefore);

    // Typing creates the post; its address becomes the post's own, under the same editor (the
    // typing goes on: nothing typed meanwhile is lost).
    await page.getByRole("link", { name: "New post" }).click();
    await body(page).waitFor();
    const title = `Harvest supper ${unique()}`;
    await page.keyboard.type(title.slice(0, 8));
    await page.waitForURL(/\/admin\/news\/[a-z0-9]{15}$/, SLOW);
    await page.keyboard.type(title.slice(8));
    const id = new URL(page.url()).pathname.split("/").pop()!;
    expect(await page.getByLabel("Title").inputValue()).toBe(title);
    expect(await drafts()).toBe(draftsBefore + 1);
    await body(page).click();
    await page.keyboard.type("Join us on Saturday.");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await newBlock(page, () => page.keyboard.type("## "));
    await page.keyboard.type("What to bring");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await newBlock(page, () => page.keyboard.type("- "));
    await page.keyboard.type("Soup");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await page.keyboard.type("Bread");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await newBlock(page, () => page.keyboard.press("Enter"));
    await page.keyboard.type("Directions are on the map for everyone.");
    // A link: select its text with the keyboard, then the editor's link button (Crepe offers no
    // shortcut for it), type the address and Enter.
    for (let i = 0; i < " for everyone.".length; i++) await page.keyboard.press("ArrowLeft");
    for (let i = 0; i < "the map".length; i++) await page.keyboard.press("Shift+ArrowLeft");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.waitForFunction(
      () =>
        document.activeElement instanceof HTMLInputElement &&
        !!document.activeElement.closest(".markdown-editor"),
    );
    await page.keyboard.type("https://example.org/map");
    await page.keyboard.press("Enter");
    await body(page).locator('a[href="https://example.org/map"]').waitFor();
    await page.keyboard.press("End");

    // A pasted image goes into the media library with visible progress (the upload is held until
    // the bar has been seen), then the editor is asked for its alt text.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/graphql", async (route) => {
      if ((route.request().headers()["content-type"] ?? "").startsWith("multipart/form-data")) await held;
      await route.continue();
    });
    await pasteImage(page, "harvest-table.png", png(480, 320));
    await expect.poll(() => page.getByRole("progressbar").first().isVisible(), SLOW).toBe(true);
    release();
    const altDialog = page.getByRole("dialog", { name: "Describe this image" });
    await expect.poll(() => altDialog.isVisible(), SLOW).toBe(true);
    await page.unroute("**/graphql");
    await expectAccessible(page);
    await altDialog
      .getByRole("textbox", { name: "Alt text" })
      .fill("Long tables set for supper in the fellowship hall");
    await altDialog.getByRole("button", { name: "Save alt text" }).click();
    await expect.poll(() => altDialog.isVisible(), SLOW).toBe(false);

    await expect.poll(() => saveStatus(page), SLOW).toBe("Saved");
    const saved = await serverPost(page, id);
    expect(saved.title).toBe(title);
    expect(saved.body).toContain("## What to bring");
    expect(saved.body).toMatch(/^- Soup$/m);
    expect(saved.body).toMatch(/^- Bread$/m);
    expect(saved.body).toContain("[the map](https://example.org/map)");
    expect(saved.body).toMatch(/!\[[^\]]*\]\(\/files\/media\/[a-z0-9]{15}\/[^)]+\)/);

    // Reload: everything is still there, from the server (no local copy is left to offer).
    await page.reload();
    await body(page).waitFor();
    expect(await page.getByLabel("Title").inputValue()).toBe(title);
    await expect.poll(() => body(page).locator("h2").textContent(), SLOW).toBe("What to bring");
    expect(
      await body(page)
        .locator("li")
        .evaluateAll((items) => items.map((li) => (li as HTMLElement).innerText.trim())),
    ).toEqual(["Soup", "Bread"]);
    expect(await body(page).locator('a[href="https://example.org/map"]').textContent()).toBe("the map");
    expect(await body(page).locator('img[src^="/files/media/"]').count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Restore your unsaved changes?" }).count()).toBe(0);
    await expect
      .poll(() => page.getByText("Long tables set for supper in the fellowship hall").isVisible(), SLOW)
      .toBe(true); // "Images in this text"

    // The preview renders what the public page will show.
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("dialog", { name: "Preview: as it will look on the site" });
    await expect.poll(() => preview.locator(".prose h2").textContent(), SLOW).toBe("What to bring");
    await expectAccessible(page);
    await preview.getByRole("button", { name: "Close" }).click();

    // Publishing goes through the checklist: what goes live, nothing missing.
    await page.getByRole("button", { name: "Publish now" }).click();
    const checklist = page.getByRole("dialog", { name: "Ready to go live?" });
    await expect.poll(() => checklist.getByText(`Title: ${title}`).isVisible(), SLOW).toBe(true);
    await expect
      .poll(
        () =>
          checklist
            .getByText(
              "Image harvest-table.png, described as “Long tables set for supper in the fellowship hall”",
            )
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    expect(await checklist.getByText(/^Summary \(from the text\): Join us on Saturday\./).isVisible()).toBe(
      true,
    );
    await expectAccessible(page);
    await checklist.getByRole("button", { name: "Publish now" }).click();
    await expect.poll(() => page.getByText("Published.", { exact: true }).isVisible(), SLOW).toBe(true);
    expect((await serverPost(page, id)).status).toBe("PUBLISHED");
    await expectAccessible(page);

    // The media library lists the image (newest first) with its alt text and where it is used; its
    // details dialog holds the alt text; deleting it is refused, and the page says why.
    await page.goto("/admin/media");
    const row = page.getByRole("row").filter({ hasText: "harvest-table.png" }).first();
    await expect.poll(() => row.getByRole("link", { name: title }).isVisible(), SLOW).toBe(true);
    expect(await row.getByText("Long tables set for supper in the fellowship hall").isVisible()).toBe(true);
    await expectAccessible(page);
    await row.getByRole("button", { name: "Edit details of harvest-table.png" }).click();
    const details = page.getByRole("dialog", { name: "File details" });
    expect(await details.getByRole("textbox", { name: "Alt text" }).inputValue()).toBe(
      "Long tables set for supper in the fellowship hall",
    );
    await expectAccessible(page);
    await details.getByRole("button", { name: "Cancel" }).click();
    await row.getByRole("button", { name: "Delete harvest-table.png" }).click();
    await expect
      .poll(() => page.getByRole("alert").getByText("can't be deleted while it is used").isVisible(), SLOW)
      .toBe(true);
    expect(await row.isVisible()).toBe(true);

    // A visitor (another browser, not signed in) finds it on /news and reads it.
    const visitorContext = await newContext(browser, "phone");
    const visitor = await visitorContext.newPage();
    const visitorErrors = watchErrors(visitor);
    await visitor.goto("/news");
    const published = await gql<{ posts: { edges: Array<{ node: { title: string } }> } }>(
      visitor,
      "query { posts(first: 20, status: PUBLISHED) { edges { node { title } } } }",
    );
    expect(published.posts.edges.map((e) => e.node.title)).toContain(title);
    await expect.poll(() => visitor.getByRole("link", { name: title }).first().isVisible(), SLOW).toBe(true);
    await expectAccessible(visitor);
    await visitor.getByRole("link", { name: title }).first().click();
    await expect.poll(() => visitor.getByRole("heading", { level: 1 }).textContent(), SLOW).toBe(title);
    await expect
      .poll(
        () => visitor.getByRole("img", { name: "Long tables set for supper in the fellowship hall" }).count(),
        SLOW,
      )
      .toBeGreaterThan(0);
    expect(await visitor.getByRole("heading", { name: "What to bring" }).isVisible()).toBe(true);
    await expectAccessible(visitor);
    // …and on the home page, among the latest news.
    await visitor.goto("/");
    await expect
      .poll(
        () =>
          visitor.getByRole("region", { name: "Latest news" }).getByRole("link", { name: title }).isVisible(),
        SLOW,
      )
      .toBe(true);

    expect(errors).toEqual([]);
    expect(visitorErrors).toEqual([]);
    await visitorContext.close();
    await context.close();
  });

  it("two tabs edit the same post: the second gets the conflict panel, and both texts are kept", async () => {
    const context = await newContext(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const tabA = await context.newPage();
    const errorsA = watchErrors(tabA);
    await signIn(tabA, EDITOR, DEMO_PASSWORD);
    const id = await createDraft(tabA, `Choir schedule ${unique()}`, "Rehearsals are on Thursdays.");
    const tabB = await context.newPage();
    const errorsB = watchErrors(tabB);
    await openPost(tabA, id);
    await openPost(tabB, id);

    // Tab A saves first.
    await body(tabA).click();
    await tabA.keyboard.press("End");
    await tabA.keyboard.type(" Edited in tab A.");
    await expect.poll(() => saveStatus(tabA), SLOW).toBe("Saved");

    // Tab B still has the older revision: its autosave is refused and it shows both versions.
    await body(tabB).click();
    await tabB.keyboard.press("End");
    await tabB.keyboard.type(" Typed in tab B.");
    const conflict = tabB.getByRole("heading", { name: "Someone else saved a newer version" });
    await expect.poll(() => conflict.isVisible(), SLOW).toBe(true);
    expect(await saveStatus(tabB)).toBe("Not saved: someone else saved a newer version");
    const versions = tabB.locator(".conflict__version");
    expect(await versions.nth(0).textContent()).toContain("Typed in tab B.");
    expect(await versions.nth(0).textContent()).not.toContain("Edited in tab A.");
    expect(await versions.nth(1).textContent()).toContain("Edited in tab A.");
    expect(await versions.nth(1).getByRole("heading").textContent()).toMatch(/^Their version \(saved .+\)$/);
    await expectAccessible(tabB);

    // Keep mine: B's text is saved over A's; A's text stays on this device and can be copied.
    await tabB.getByRole("button", { name: "Keep mine" }).click();
    await expect.poll(() => saveStatus(tabB), SLOW).toBe("Saved");
    const afterB = await serverPost(tabB, id);
    expect(afterB.body).toContain("Typed in tab B.");
    expect(afterB.body).not.toContain("Edited in tab A.");
    expect(await conflict.count()).toBe(0);
    const kept = await tabB.evaluate((key) => localStorage.getItem(key), `flock.draft.post.${id}-conflict`);
    expect(kept).toContain("Edited in tab A.");
    await tabB.getByRole("button", { name: "Copy their text" }).click();
    await expect.poll(() => tabB.getByText("Copied to the clipboard.").isVisible(), SLOW).toBe(true);
    expect(await tabB.evaluate(() => navigator.clipboard.readText())).toContain("Edited in tab A.");
    await expectAccessible(tabB);

    // Now tab A is behind: it keeps theirs (B's text reloads into its editor), and its own text is kept.
    await body(tabA).click();
    await tabA.keyboard.press("End");
    await tabA.keyboard.type(" More from A.");
    await expect
      .poll(() => tabA.getByRole("heading", { name: "Someone else saved a newer version" }).isVisible(), SLOW)
      .toBe(true);
    await tabA.getByRole("button", { name: "Keep theirs" }).click();
    await expect.poll(() => body(tabA).textContent(), SLOW).toContain("Typed in tab B.");
    expect(await body(tabA).textContent()).not.toContain("More from A.");
    await expect.poll(() => tabA.getByRole("button", { name: "Copy my text" }).isVisible(), SLOW).toBe(true);
    const mine = await tabA.evaluate((key) => localStorage.getItem(key), `flock.draft.post.${id}-conflict`);
    expect(mine).toContain("More from A.");
    await tabA.getByRole("button", { name: "Show it" }).click();
    expect(await tabA.locator(".kept__text").textContent()).toContain("More from A.");
    expect((await serverPost(tabA, id)).body).toContain("Typed in tab B.");
    await expectAccessible(tabA);

    expect(errorsA).toEqual([]);
    expect(errorsB).toEqual([]);
    await context.close();
  });

  it("offline: changes are kept on the device, saved when back online, and offered back after the tab is closed", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, EDITOR, DEMO_PASSWORD);
    const id = await createDraft(page, `Food bank ${unique()}`, "We collect tins on Sundays.");
    await openPost(page, id);

    await context.setOffline(true);
    await body(page).click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Written on the train.");
    await expect.poll(() => saveStatus(page), SLOW).toBe("Offline – changes kept on this device");
    const local = await page.evaluate((key) => localStorage.getItem(key), `flock.draft.post.${id}`);
    expect(local).toContain("Written on the train.");
    await expectAccessible(page);
    await context.setOffline(false);
    await expect.poll(() => saveStatus(page), SLOW).toBe("Saved");
    expect((await serverPost(page, id)).body).toContain("Written on the train.");
    expect(await page.evaluate((key) => localStorage.getItem(key), `flock.draft.post.${id}`)).toBeNull();

    // Offline again, then the tab is closed: the browser asks first; the text waits on this device.
    await context.setOffline(true);
    await page.keyboard.type(" And on the bus.");
    await expect.poll(() => saveStatus(page), SLOW).toBe("Offline – changes kept on this device");
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe("beforeunload");
    // Then the tab goes while still offline: its renderer ends. (Closed through DevTools, the closing
    // page sometimes saved on its way out — the server had the text, with no request the test saw — as
    // if the emulated offline ended first; a tab closed on the train never does.)
    const devtools = await context.newCDPSession(page);
    const crashed = new Promise((resolve) => page.once("crash", resolve));
    void devtools.send("Page.crash").catch(() => undefined); // a renderer that ended sends no answer
    await crashed;
    await page.close();
    await context.setOffline(false);

    const again = await context.newPage();
    const againErrors = watchErrors(again);
    await again.goto(`/admin/news/${id}`);
    await expect
      .poll(() => again.getByRole("heading", { name: "Restore your unsaved changes?" }).isVisible(), SLOW)
      .toBe(true);
    // The editor stays in view, and the offer shows what would be restored.
    await body(again).waitFor();
    await again.getByText("Compare with the text below").click();
    expect((await again.locator(".restore-offer__diff ins").allTextContents()).join("")).toContain(
      "And on the bus.",
    );
    await expectAccessible(again);
    await again.getByRole("button", { name: "Restore your unsaved changes" }).click();
    await expect.poll(() => body(again).textContent(), SLOW).toContain("And on the bus.");
    await expect.poll(() => saveStatus(again), SLOW).toBe("Saved");
    expect((await serverPost(again, id)).body).toContain("Written on the train. And on the bus.");
    expect(errors).toEqual([]);
    expect(againErrors).toEqual([]);
    await context.close();
  });

  it("an image pasted just before the tab is closed is in the copy kept on this device", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, EDITOR, DEMO_PASSWORD);
    const id = await createDraft(page, `Choir photo ${unique()}`, "The choir on Easter morning.");
    await openPost(page, id);
    // Saves never reach the server: the copy on this device is all there is.
    await page.route("**/graphql", async (route) => {
      if ((route.request().postData() ?? "").includes("UpdatePost")) return; // held, never answered
      await route.continue();
    });
    await body(page).click();
    await page.keyboard.press("End");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await pasteImage(page, "choir.png", png(300, 200));
    // The tab is closed the moment the image shows, before the editor's 200 ms report delay and
    // before React renders again: the browser fires pagehide, and no task runs after it.
    const key = `flock.draft.post.${id}`;
    const keptAtClose = await page.evaluate(
      (storageKey) =>
        new Promise<string | null>((resolve) => {
          const image = () =>
            document.querySelector('[role="textbox"][aria-label="Text"] img[src^="/files/media/"]');
          const close = () => {
            window.dispatchEvent(new PageTransitionEvent("pagehide"));
            resolve(localStorage.getItem(storageKey));
          };
          if (image()) return close();
          const observer = new MutationObserver(() => {
            if (!image()) return;
            observer.disconnect();
            close();
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        }),
      key,
    );
    expect(keptAtClose).toMatch(/!\[[^\]]*\]\(\/files\/media\/[a-z0-9]{15}\/[^)]+\)/);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.close({ runBeforeUnload: true });
    await page.waitForEvent("close");

    const again = await context.newPage();
    await again.goto(`/admin/news/${id}`);
    await expect
      .poll(() => again.getByRole("heading", { name: "Restore your unsaved changes?" }).isVisible(), SLOW)
      .toBe(true);
    const local = await again.evaluate((key) => localStorage.getItem(key), `flock.draft.post.${id}`);
    expect(local).toMatch(/!\[[^\]]*\]\(\/files\/media\/[a-z0-9]{15}\/[^)]+\)/);
    await context.close();
  });

  it("images need alt text before publishing, and a schedule is read in the church's time zone", async () => {
    // The editor's computer is in Tokyo; the church (settings.timezone) is in Chicago.
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1280, height: 900 },
      locale: "en-US",
      timezoneId: "Asia/Tokyo",
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, EDITOR, DEMO_PASSWORD);
    const id = await createDraft(page, `Youth night ${unique()}`, "Games and pizza.");
    await openPost(page, id);

    // An image whose alt text is put off ("Later"): publishing is refused, with the way to fix it.
    await body(page).click();
    await page.keyboard.press("End");
    await newBlock(page, () => page.keyboard.press("Enter"));
    await pasteImage(page, "pizza.png", png(300, 200));
    const altDialog = page.getByRole("dialog", { name: "Describe this image" });
    await expect.poll(() => altDialog.isVisible(), SLOW).toBe(true);
    await altDialog.getByRole("button", { name: "Later" }).click();
    await expect.poll(() => page.getByText("Needs alt text").isVisible(), SLOW).toBe(true);
    await expect.poll(() => saveStatus(page), SLOW).toBe("Saved");
    await page.getByRole("button", { name: "Publish now" }).click();
    const checklist = page.getByRole("dialog", { name: "Ready to go live?" });
    await expect
      .poll(() => checklist.getByText("Image pizza.png has no alt text.").isVisible(), SLOW)
      .toBe(true);
    expect(await checklist.getByRole("button", { name: "Publish now" }).isDisabled()).toBe(true);
    expect((await serverPost(page, id)).status).toBe("DRAFT");
    await expectAccessible(page);

    // Fixed from the checklist, which points at the image.
    await checklist.getByRole("button", { name: "Add alt text for pizza.png" }).click();
    await altDialog.getByRole("textbox", { name: "Alt text" }).fill("Two pizzas on a table");
    await altDialog.getByRole("button", { name: "Save alt text" }).click();
    await expect.poll(() => page.getByText("Needs alt text").count(), SLOW).toBe(0);

    // Schedule for 1 June 2030, 10:00 in Chicago (CDT, UTC−5) = 15:00 UTC, whatever the browser's zone.
    const settings = await gql<{ settings: { timezone: string } }>(page, "query { settings { timezone } }");
    expect(settings.settings.timezone).toBe("America/Chicago");
    await page.getByRole("button", { name: "Schedule…" }).click();
    await page.getByLabel("Publish on").fill("2030-06-01T10:00");
    expect(await page.getByText("The church's time: Central").isVisible()).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect
      .poll(() => page.getByText(/^Scheduled for Jun 1, 2030, 10:00 AM/).isVisible(), SLOW)
      .toBe(true);
    const scheduled = await gql<{ postById: { status: string; publishAt: string } }>(
      page,
      "query ($id: ID!) { postById(id: $id) { status publishAt } }",
      { id },
    );
    expect(scheduled.postById).toEqual({ status: "SCHEDULED", publishAt: "2030-06-01T15:00:00.000Z" });

    // A scheduled post can go back to being a draft.
    await page.getByRole("button", { name: "Cancel the schedule" }).click();
    await expect.poll(async () => (await serverPost(page, id)).status, SLOW).toBe("DRAFT");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a published post: edits stay private until Update; an image without alt text keeps saving and blocks Update; an earlier version is restored", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.on("dialog", (dialog) => void dialog.accept());
    const visitor = await (await newContext(browser)).newPage();
    await signIn(page, EDITOR, DEMO_PASSWORD);
    const title = `Carol service ${unique()}`;
    const id = await createDraft(page, title, "Candles at six.");
    const live = await gql<{ publishPost: { slug: string } }>(
      page,
      "mutation ($id: ID!) { publishPost(id: $id) { slug } }",
      { id },
    );
    const publicText = async () => {
      await visitor.goto(`/news/${live.publishPost.slug}`);
      await visitor.getByRole("heading", { level: 1, name: title }).waitFor();
      return visitor.locator("main").innerText();
    };
    expect(await publicText()).toContain("Candles at six.");

    // A one-letter fix is saved (a working copy), and the public page does not change.
    await openPost(page, id);
    await body(page).click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Carols at seven.");
    await expect.poll(() => saveStatus(page), SLOW).toBe("Saved");
    await expect.poll(() => page.getByText("Unpublished changes").isVisible(), SLOW).toBe(true);
    expect(await publicText()).not.toContain("Carols at seven.");
    await expectAccessible(page);

    // An image without alt text: saving goes on; Update is refused by the checklist, pointing at it.
    await newBlock(page, () => page.keyboard.press("Enter"));
    await pasteImage(page, "candles.png", png(300, 200));
    const altDialog = page.getByRole("dialog", { name: "Describe this image" });
    await expect.poll(() => altDialog.isVisible(), SLOW).toBe(true);
    await altDialog.getByRole("button", { name: "Later" }).click();
    await page.keyboard.type("Bring a friend.");
    await expect.poll(() => saveStatus(page), SLOW).toBe("Saved");
    expect(await page.getByText("Couldn't save").count()).toBe(0);
    await page.getByRole("button", { name: "Update", exact: true }).click();
    const checklist = page.getByRole("dialog", { name: "Ready to go live?" });
    await expect
      .poll(() => checklist.getByText("Image candles.png has no alt text.").isVisible(), SLOW)
      .toBe(true);
    expect(await checklist.getByRole("button", { name: "Update" }).isDisabled()).toBe(true);
    await page
      .screenshot({ path: "/work/wt/shots/editor/checklist-blocked-1280.png" })
      .catch(() => undefined);
    await checklist.getByRole("button", { name: "Add alt text for candles.png" }).click();
    await altDialog.getByRole("textbox", { name: "Alt text" }).fill("Candles lit in the dark church");
    await altDialog.getByRole("button", { name: "Save alt text" }).click();
    await expect.poll(() => altDialog.isVisible(), SLOW).toBe(false);
    expect(await publicText()).not.toContain("Carols at seven.");

    // Update: the change is public.
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await expect
      .poll(
        () =>
          checklist.getByText("Image candles.png, described as “Candles lit in the dark church”").isVisible(),
        SLOW,
      )
      .toBe(true);
    await checklist.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByText("Updated: your changes are live.").isVisible(), SLOW).toBe(true);
    await expect.poll(publicText, SLOW).toContain("Carols at seven.");
    await expect.poll(() => page.getByText("Unpublished changes").count(), SLOW).toBe(0);

    // History: the first published version is restored (as a working copy), then updated.
    await page.reload();
    await body(page).waitFor();
    const history = page.getByRole("region", { name: "History" });
    await expect.poll(() => history.getByRole("listitem").count(), SLOW).toBeGreaterThanOrEqual(2);
    const first = history.getByRole("listitem").filter({ hasText: "Published" }).last();
    await first.getByText("Show the text").click();
    expect(await first.locator("pre").textContent()).toBe("Candles at six.");
    await expectAccessible(page);
    await first.getByRole("button", { name: /^Restore this version, saved / }).click();
    await expect.poll(() => page.getByText("Earlier version restored.").isVisible(), SLOW).toBe(true);
    await expect.poll(() => body(page).textContent(), SLOW).not.toContain("Carols at seven.");
    expect(await publicText()).toContain("Carols at seven.");
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await checklist.getByRole("button", { name: "Update" }).click();
    await expect.poll(publicText, SLOW).not.toContain("Carols at seven.");
    expect(await publicText()).toContain("Candles at six.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the media library is a table: a column's header sorts it, and two chosen files are deleted at once", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const confirms: string[] = [];
    page.on("dialog", (dialog) => {
      confirms.push(dialog.message());
      void dialog.accept();
    });
    await signIn(page, EDITOR, DEMO_PASSWORD);
    await page.goto("/admin/media");
    await page.getByRole("heading", { level: 1, name: "Media library" }).waitFor();

    // Two uploads of this run (the search keeps other tests' files out): "apple" is the larger one,
    // so name order and size order differ.
    const tag = unique();
    const apple = `${tag}-apple.png`;
    const banana = `${tag}-banana.png`;
    await page.locator('input[type="file"]').setInputFiles([
      { name: apple, mimeType: "image/png", buffer: png(400, 300) },
      { name: banana, mimeType: "image/png", buffer: png(40, 30) },
    ]);
    await page.getByRole("searchbox", { name: "Search by name, alt text or caption" }).fill(tag);
    const names = () => page.locator("tbody tr .media-file__name").allTextContents();
    await expect.poll(async () => (await names()).sort(), SLOW).toEqual([apple, banana]);
    // Neither has alt text yet: each row says so and offers to add it.
    expect(await page.getByRole("button", { name: `Add alt text for ${banana}` }).isVisible()).toBe(true);
    await expectAccessible(page);

    // Sorting: by size (smallest first), then by file name (A to Z), then Z to A.
    const header = (name: string) => page.getByRole("columnheader", { name: new RegExp(`^${name}`) });
    await header("Size").getByRole("button").click();
    expect(await header("Size").getAttribute("aria-sort")).toBe("ascending");
    expect(await names()).toEqual([banana, apple]);
    await header("File").getByRole("button").click();
    expect(await names()).toEqual([apple, banana]);
    await header("File").getByRole("button").click();
    expect(await header("File").getAttribute("aria-sort")).toBe("descending");
    expect(await names()).toEqual([banana, apple]);

    // Bulk delete: choose both, confirm (the question names how many), and both rows are gone.
    await page.getByRole("checkbox", { name: `Choose ${apple}` }).check();
    await page.getByRole("checkbox", { name: `Choose ${banana}` }).check();
    const bulk = page.getByRole("region", { name: "Act on the chosen rows" });
    expect(await bulk.getByText("2 chosen").isVisible()).toBe(true);
    await expectAccessible(page);
    await bulk.getByRole("button", { name: "Delete", exact: true }).click();
    await expect
      .poll(() => page.getByRole("status").getByText("2 files deleted.").isVisible(), SLOW)
      .toBe(true);
    expect(confirms).toEqual(["Delete 2 files for good?"]);
    await expect.poll(() => page.getByText("No files match.").isVisible(), SLOW).toBe(true);
    expect(await page.locator("tbody tr").count()).toBe(0);
    const left = await gql<{ mediaLibrary: { totalCount: number } }>(
      page,
      "query ($q: String) { mediaLibrary(search: $q) { totalCount } }",
      { q: tag },
    );
    expect(left.mediaLibrary.totalCount).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("pages: the navigation order moves with the keyboard and is saved", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, EDITOR, DEMO_PASSWORD);
    await page.goto("/admin/pages");
    const order = page.locator(".nav-order__title");
    await expect.poll(() => order.count(), SLOW).toBeGreaterThan(1);
    await expectAccessible(page);
    const titleOf = async (i: number) =>
      (await order.nth(i).evaluate((el) => el.firstChild?.textContent ?? "")).trim();
    const [first, second] = [await titleOf(0), await titleOf(1)];

    await page.getByRole("button", { name: `Move “${first}” down` }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByText(`“${first}” is now number 2`).count(), SLOW).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      `Move “${first}” down`,
    );
    await page.reload();
    await expect.poll(() => titleOf(0), SLOW).toBe(second);
    expect(await titleOf(1)).toBe(first);
    const nav = await gql<{ navigation: Array<{ title: string }> }>(page, "query { navigation { title } }");
    expect(nav.navigation.slice(0, 2).map((l) => l.title)).toEqual([second, first]);

    // Put it back for the other tests.
    await page.getByRole("button", { name: `Move “${first}” up` }).click();
    await expect.poll(() => page.getByText(`“${first}” is now number 1`).count(), SLOW).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
