// The Markdown editor (web/src/editor) in a real Chromium: the fixture corpus survives
// load → edit nothing → save, typing produces the expected Markdown, and images go through
// uploadImage (never a blob: URL).
//
// The page is web/editor-harness.html, built once by e2e/global-setup.ts with the app's own Vite config
// (web/src/editor/harness.vite.config.ts) and served from a temporary folder. It mounts
// MarkdownEditor lazily under StrictMode, as a route does, and exposes window.flockEditor.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../scripts/lib/pocketbase.ts";
import { HARNESS_UPLOAD_URL as UPLOADED_URL } from "../web/src/editor/harness-api.ts";
import { launchChromium } from "./support/browser.ts";
import { editorHarnessUrl } from "./support/environment.ts";
import { expectAccessible, watchErrors } from "./support/app.ts";

const FIXTURES = join(ROOT, "e2e", "fixtures", "markdown");
/** A 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * Fixtures the editor writes back differently, and why (web/src/editor/NORMALISATION.md). For
 * these the test checks that the result renders the same HTML and is stable when loaded again;
 * every other fixture must come back byte for byte.
 */
const NORMALISED: Record<string, string> = {
  "normalise-bullet-markers.md": "`*` and `+` bullets are written as `-`",
  "normalise-heading-styles.md": "setext headings and closing #s are written as ATX headings (`# Title`)",
  "normalise-trailing-space-breaks.md": "hard breaks made of two trailing spaces are written as a backslash",
  "normalise-reference-links.md": "reference links are inlined and their definitions dropped",
  "normalise-code-fences.md": "~~~ fences and indented code are written as ``` fences",
  "normalise-ordered-markers.md":
    "`1)` is written as `1.`; `1. 1. 1.` is renumbered `1. 2. 3.` (an adjacent list keeps a different delimiter)",
  "normalise-rules-and-autolinks.md":
    "`***` and `___` rules become `---`, <url> autolinks become bare URLs, tables are padded",
};

/** What readers see: the Markdown as HTML (GFM, raw HTML kept so it is compared too). */
function rendered(markdown: string): string {
  return String(
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkRehype, { allowDangerousHtml: true })
      .use(rehypeStringify, { allowDangerousHtml: true })
      .processSync(markdown),
  );
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(editorHarnessUrl());
  await page.waitForFunction(() => "flockEditor" in window);
});

afterAll(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------------------
// Page helpers (everything runs in the page through window.flockEditor).

async function load(markdown: string, options: { readOnly?: boolean } = {}): Promise<void> {
  await page.evaluate(([md, opts]) => window.flockEditor.load(md, opts), [markdown, options] as const);
}

const getMarkdown = () => page.evaluate(() => window.flockEditor.getMarkdown());
const lastChange = () => page.evaluate(() => window.flockEditor.changes.at(-1) ?? null);
const pendingUploads = () => page.evaluate(() => window.flockEditor.uploads.length);
const stepUpload = () => page.evaluate(() => window.flockEditor.uploads[0]?.step());
const failUpload = (uiMessage?: string) =>
  page.evaluate((message) => window.flockEditor.uploads[0]?.fail(message), uiMessage);
const editable = () => page.getByRole("textbox", { name: "Body" });
const progressValue = () =>
  page.getByRole("progressbar", { name: "Uploading image" }).getAttribute("aria-valuenow");

/** A paste or drop of a PNG file, as the browser dispatches it, on the editing area. */
async function sendImage(kind: "paste" | "drop", name = "photo.png"): Promise<void> {
  await page.evaluate(
    ([base64, how, fileName]) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], fileName, { type: "image/png" }));
      const target = document.querySelector<HTMLElement>('[role="textbox"][aria-label="Body"]')!;
      const box = target.getBoundingClientRect();
      const event =
        how === "paste"
          ? new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent("drop", {
              dataTransfer: data,
              bubbles: true,
              cancelable: true,
              clientX: box.left + 80,
              clientY: box.bottom - 16,
            });
      target.dispatchEvent(event);
    },
    [PNG_BASE64, kind, name] as const,
  );
}

/** Advance the fake upload through 30, 60 and 100 %, checking the bar shows each, then let it finish. */
async function completeUpload(): Promise<void> {
  await expect.poll(pendingUploads).toBe(1);
  await expect.poll(progressValue).toBe("0");
  for (const percent of ["30", "60", "100"]) {
    await stepUpload();
    await expect.poll(progressValue).toBe(percent);
  }
  await stepUpload();
  await expect.poll(pendingUploads).toBe(0);
  await expect.poll(() => page.getByRole("progressbar").count()).toBe(0);
}

// ---------------------------------------------------------------------------------------------

const names = (await readdir(FIXTURES)).filter((name) => name.endsWith(".md")).sort();

describe("Markdown round trip: load → edit nothing → save", () => {
  it("has a corpus of 15–25 fixtures, mostly byte for byte, and every listed exception exists", () => {
    expect(names.length).toBeGreaterThanOrEqual(15);
    expect(names.length).toBeLessThanOrEqual(25);
    for (const name of Object.keys(NORMALISED)) expect(names).toContain(name);
    expect(names.length - Object.keys(NORMALISED).length).toBeGreaterThanOrEqual(15);
  });

  for (const name of names) {
    const reason = NORMALISED[name];
    it(
      reason
        ? `${name} normalises (${reason}), renders the same and is stable`
        : `${name} comes back byte for byte`,
      async () => {
        const original = await readFile(join(FIXTURES, name), "utf8");
        await load(original);
        const saved = await getMarkdown();
        expect(saved).not.toMatch(/blob:/);
        if (!reason) {
          expect(saved).toBe(original);
          return;
        }
        // Listed as normalising: it must really change (or the entry is stale)…
        expect(saved).not.toBe(original);
        // …mean the same to readers…
        expect(rendered(saved)).toBe(rendered(original));
        // …and be a fixed point: loading the saved text gives it back unchanged.
        await load(saved);
        expect(await getMarkdown()).toBe(saved);
      },
    );
  }

  it("loading (even a normalising document, or one the editor pads with a trailing paragraph) reports no change", async () => {
    for (const name of ["normalise-bullet-markers.md", "task-lists.md", "tables.md"]) {
      await load(await readFile(join(FIXTURES, name), "utf8"));
      // markdownUpdated is debounced by 200 ms: give it time to fire if it were going to.
      await page.waitForTimeout(400);
      expect(await lastChange()).toBeNull();
    }
    expect(errors).toEqual([]);
  });
});

describe("editing", () => {
  it("keyboard Markdown shortcuts and the link button write the expected Markdown (and onChange reports it)", async () => {
    await load("");
    // StrictMode mounts the editor twice: exactly one must remain.
    await expect.poll(() => page.locator(".milkdown").count()).toBe(1);
    const box = editable();
    await expect.poll(() => box.getAttribute("aria-multiline")).toBe("true");
    await box.click();
    const type = (text: string) => page.keyboard.type(text, { delay: 10 });
    // No waiting for frames between keys (e2e/editor-typing.e2e.test.ts types faster still).
    const enter = () => page.keyboard.press("Enter");
    await type("## Service times");
    await enter();
    await type("- ");
    await type("Sunday 10:30");
    await enter();
    await type("Wednesday 19:00");
    await enter();
    await enter();
    await type("Plan your visit");
    await page.keyboard.press("Shift+Home");
    await page.getByRole("button", { name: "Link" }).click();
    const url = page.getByPlaceholder("Paste a link…");
    await url.fill("https://grace.example/visit");
    await url.press("Enter");

    const expected =
      "## Service times\n\n- Sunday 10:30\n- Wednesday 19:00\n\n[Plan your visit](https://grace.example/visit)\n";
    await expect.poll(getMarkdown).toBe(expected);
    await expect.poll(lastChange).toBe(expected);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it("Ctrl+K opens the link field for the selected text (no mouse needed)", async () => {
    await load("Read the notices\n");
    await editable().click();
    await page.keyboard.press("Control+End");
    for (let i = 0; i < "notices".length; i++) await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Control+k");
    const url = page.getByPlaceholder("Paste a link…");
    await expect.poll(() => url.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type("https://grace.example/notices");
    await page.keyboard.press("Enter");
    await expect.poll(getMarkdown).toBe("Read the [notices](https://grace.example/notices)\n");
    expect(errors).toEqual([]);
  });

  it("a pasted YouTube URL stays a bare URL on its own line (the gateway renders it as an embed)", async () => {
    await load("Last Sunday's sermon:\n");
    await editable().click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
      document
        .querySelector('[role="textbox"]')!
        .dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect
      .poll(getMarkdown)
      .toBe("Last Sunday's sermon:\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n");
  });

  it("read-only: the text cannot be edited and says so", async () => {
    await load("# Fixed\n", { readOnly: true });
    await expect.poll(() => editable().getAttribute("contenteditable")).toBe("false");
    expect(await editable().getAttribute("aria-readonly")).toBe("true");
  });

  it("the editor with a long page passes axe (WCAG 2.x A/AA)", async () => {
    await load(await readFile(join(FIXTURES, "about-us.md"), "utf8"));
    await expectAccessible(page);
  });
});

describe("images go through uploadImage", () => {
  it("a pasted image shows upload progress (30, 60, 100 %) and stores the returned URL, never blob:", async () => {
    await load("Before the photo.\n");
    await editable().click();
    await page.keyboard.press("Control+End");
    await sendImage("paste", "choir.png");
    await completeUpload();
    expect(await page.evaluate(() => window.flockEditor.uploaded)).toContain("choir.png");
    await expect.poll(getMarkdown).toBe(`Before the photo.\n\n![](${UPLOADED_URL})\n`);
    expect(await getMarkdown()).not.toContain("blob:");
    await expect.poll(lastChange).toContain(`](${UPLOADED_URL})`);
    await expectAccessible(page);
  });

  it("a dropped image is uploaded the same way", async () => {
    await load("Drop below.\n");
    await sendImage("drop");
    await completeUpload();
    await expect.poll(getMarkdown).toMatch(/!\[[^\]]*\]\(\/files\/media\/abc123\/photo\.png\)/);
    expect(await getMarkdown()).not.toContain("blob:");
  });

  it("the image block's upload button (slash menu → Image) uploads too", async () => {
    await load("");
    await editable().click();
    await page.keyboard.type("/", { delay: 25 });
    await page.locator(".milkdown-slash-menu li", { hasText: "Image" }).click();
    await page
      .locator('.milkdown-image-block input[type="file"]')
      .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from(PNG_BASE64, "base64") });
    await completeUpload();
    await expect.poll(getMarkdown).toBe(`![](${UPLOADED_URL})\n`);
  });

  it("a failed upload shows an alert and inserts nothing", async () => {
    await load("Before.\n");
    await editable().click();
    await page.keyboard.press("Control+End");
    await sendImage("paste", "too-big.png");
    await expect.poll(pendingUploads).toBe(1);
    await stepUpload();
    await failUpload();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("The image could not be uploaded");
    await expect.poll(() => page.getByRole("progressbar").count()).toBe(0);
    expect(await page.locator(".markdown-editor__upload-widget").count()).toBe(0);
    expect(await getMarkdown()).toBe("Before.\n");
    await page.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => page.getByRole("alert").count()).toBe(0);

    // A UiError from the caller (lib/handleError) is shown as it is: it is already a translated sentence.
    await sendImage("drop", "huge.png");
    await expect.poll(pendingUploads).toBe(1);
    await failUpload("The file is too large.");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("The file is too large.");
    expect(await getMarkdown()).toBe("Before.\n");
    expect(errors).toEqual([]);
  });
});
