import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityHeaders } from "../gateway/src/http/security-headers.ts";
import { renderMarkdown } from "../gateway/src/markdown/render.ts";
import { XSS_VECTORS, type XssVector } from "../gateway/test/fixtures/xss-vectors.ts";
import { launchChromium } from "./support/browser.ts";

/**
 * QUALITY.md S3 in a real browser: a few hundred XSS and mutation-XSS vectors, stored as Markdown
 * and rendered the way readers get them, loaded in Chromium — and no script runs. "Runs" is recorded,
 * not eyeballed: before any page script, `alert`, `confirm`, `prompt`, `print` and `window.__xss` (the
 * marker every vector calls) are replaced by recorders, dialogs and CSP violations are recorded too,
 * and then every element is hovered, clicked, focused and sent the events its handlers would need.
 *
 * Every batch runs without any Content-Security-Policy: the sanitizer alone must hold. The same
 * vectors with the app's own security headers are opened through the real public route, in the app,
 * by e2e/xss-public-page.e2e.test.ts (no script runs, no CSP violation is even attempted); the two
 * controls below show that both recorders see a script that runs, and that the app's CSP stops one.
 */

const BATCH_SIZE = 50;

// ---------------------------------------------------------------------------------------------
// Where the vectors are shown.

/**
 * The HTML document a reader gets for a batch of stored Markdown: each vector's rendered HTML in its
 * own <article data-vector="id"> inside <main>. This stands in for the public page route, which will
 * serve the same renderer's output inside the app's shell.
 */
export function renderVectorsPage(rendered: ReadonlyArray<{ id: number; html: string }>): string {
  const articles = rendered
    .map(({ id, html }) => `<article data-vector="${id}">\n${html}\n</article>`)
    .join("\n");
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>XSS vectors</title></head>\n<body><main>\n${articles}\n</main></body>\n</html>\n`;
}

/** Puts a batch of vectors where the browser can load them; returns the page's URL. */
export type VectorTarget = (vectors: readonly XssVector[], options: { csp: boolean }) => Promise<string>;

/** A local node:http server standing in for the app: the page above, with or without the app's security headers. */
class LocalPages {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly pages: Map<string, { html: string; csp: boolean }>,
  ) {}

  static async start(): Promise<LocalPages> {
    const pages = new Map<string, { html: string; csp: boolean }>();
    const server = createServer((request, response) => {
      const page = pages.get(new URL(request.url ?? "/", "http://x").pathname);
      if (!page) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
        return;
      }
      response
        .writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          ...(page.csp ? securityHeaders(false) : {}),
        })
        .end(page.html);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return new LocalPages(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages);
  }

  serve(html: string, csp: boolean): string {
    const path = `/vectors/${this.pages.size + 1}`;
    this.pages.set(path, { html, csp });
    return `${this.origin}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let local: LocalPages;

const localTarget: VectorTarget = async (vectors, { csp }) => {
  const rendered = await Promise.all(
    vectors.map(async (vector) => ({
      id: vector.id,
      html: await renderMarkdown(vector.markdown, { siteOrigin: local.origin }),
    })),
  );
  return local.serve(renderVectorsPage(rendered), csp);
};

// ---------------------------------------------------------------------------------------------
// Recording what runs.

interface Observations {
  /** Calls of alert/confirm/prompt/print/__xss, dialogs, pop-ups, navigations: must stay empty. */
  calls: string[];
  /** Uncaught script errors: a page with no scripts of its own has none unless something ran. */
  errors: string[];
  /** CSP violations (securitypolicyviolation events and console reports). */
  violations: string[];
}

/**
 * Runs in every frame before any of its scripts. Plain JavaScript source rather than a serialized
 * function, so no transpiler helper (such as esbuild's __name) can end up in the page.
 */
const RECORDERS = String.raw`(() => {
  const report = (kind, args) => {
    try {
      window.__xssReport(kind, Array.from(args, String).join(", "));
    } catch {
      // The binding is gone only while the page unloads.
    }
  };
  for (const name of ["__xss", "alert", "confirm", "prompt", "print"]) {
    Object.defineProperty(window, name, { value: function (...args) { report(name, args); }, writable: false, configurable: false });
  }
  document.addEventListener("securitypolicyviolation", (event) => report("csp", [event.effectiveDirective, event.blockedURI, event.sample]), true);
  // Following a safe link would leave the page mid-test, so those navigations are cancelled; a
  // javascript: URL is never cancelled, so if one survived it would run and be recorded.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
    if (link && /^(https?|mailto|tel):$/.test(new URL(link.href, location.href).protocol)) event.preventDefault();
  }, true);
})();`;

async function watch(context: BrowserContext, page: Page, observations: Observations): Promise<void> {
  await context.exposeBinding("__xssReport", (_source, kind: string, detail: string) => {
    (kind === "csp" ? observations.violations : observations.calls).push(`${kind}(${detail})`);
  });
  await context.addInitScript({ content: RECORDERS });
  // A closed network: only the page's own server answers.
  await context.route("**/*", (route) =>
    route.request().url().startsWith(local.origin) ? route.continue() : route.abort(),
  );
  context.on("page", (popup) => {
    observations.calls.push(`popup(${popup.url()})`);
    popup.close().catch(() => undefined);
  });
  page.on("dialog", (dialog) => {
    observations.calls.push(`dialog:${dialog.type()}(${dialog.message()})`);
    dialog.dismiss().catch(() => undefined);
  });
  page.on("pageerror", (error) => observations.errors.push(error.message));
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text()))
      observations.violations.push(`console: ${message.text()}`);
  });
}

/** Hover, click and focus every element with real input, then fire every event a handler could want. */
async function interact(page: Page): Promise<void> {
  const count = await page.evaluate(() => document.querySelectorAll("main *").length);
  for (let index = 0; index < count; index++) {
    const point = await page.evaluate((i) => {
      const element = document.querySelectorAll("main *")[i];
      if (!element) return null;
      element.scrollIntoView({ block: "center", inline: "center" });
      const box = element.getBoundingClientRect();
      const link = element.closest("a[href], area[href]") as HTMLAnchorElement | null;
      // A click on a link that is not cancelled queues a navigation; the next click would cancel it.
      const navigates =
        link !== null && !/^(https?|mailto|tel):$/.test(new URL(link.href, location.href).protocol);
      return box.width > 0 && box.height > 0
        ? { x: box.x + box.width / 2, y: box.y + box.height / 2, navigates }
        : null;
    }, index);
    if (!point) continue;
    // A click moves the pointer there first (mouseover, mouseenter, mousemove), then presses.
    await page.mouse.click(point.x, point.y);
    if (point.navigates) await page.waitForTimeout(100);
  }
  const focusable = await page.evaluate(
    () =>
      document.querySelectorAll("a[href], input, button, select, textarea, [tabindex], [contenteditable]")
        .length,
  );
  for (let i = 0; i <= focusable; i++) await page.keyboard.press("Tab");

  await page.evaluate(() => {
    const types = [
      "mouseover",
      "mouseenter",
      "mousemove",
      "mousedown",
      "mouseup",
      "click",
      "dblclick",
      "contextmenu",
      "auxclick",
      "mouseout",
      "mouseleave",
      "pointerover",
      "pointerenter",
      "pointerdown",
      "pointerup",
      "focus",
      "focusin",
      "blur",
      "focusout",
      "keydown",
      "keypress",
      "keyup",
      "input",
      "change",
      "toggle",
      "load",
      "error",
      "animationstart",
      "animationend",
      "transitionend",
      "dragstart",
      "drag",
      "drop",
      "copy",
      "paste",
      "wheel",
      "scroll",
      "touchstart",
      "submit",
      "begin",
      "start",
      "pageshow",
    ];
    for (const element of document.querySelectorAll("*")) {
      // Whatever handler attribute an element carries gets exactly the event it waits for.
      for (const name of element.getAttributeNames())
        if (name.startsWith("on")) element.dispatchEvent(new Event(name.slice(2)));
      for (const type of types) element.dispatchEvent(new Event(type, { bubbles: false, cancelable: true }));
      if (element instanceof HTMLElement && element.closest("main")) {
        element.focus();
        element.click();
      }
    }
  });
  // Let image errors, animations and timers fire.
  await page.waitForTimeout(300);
}

/** What the browser itself parsed: handler attributes and script URLs, by element (should be none). */
async function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll("main *")) {
      const tag = element.tagName.toLowerCase();
      if (
        [
          "script",
          "iframe",
          "frame",
          "object",
          "embed",
          "svg",
          "math",
          "style",
          "base",
          "meta",
          "link",
          "form",
          "template",
          "noscript",
        ].includes(tag)
      )
        found.push(`<${tag}>`);
      for (const name of element.getAttributeNames()) {
        const value = element.getAttribute(name) ?? "";
        if (name.startsWith("on")) found.push(`<${tag} ${name}="${value}">`);
        if (/^(href|src|action|formaction|data|srcdoc|xlink:href|poster|background)$/.test(name)) {
          let protocol = "";
          try {
            protocol = new URL(value, location.href).protocol;
          } catch {
            continue;
          }
          if (!/^(https?|mailto|tel):$/.test(protocol)) found.push(`<${tag} ${name}="${value}">`);
        }
      }
    }
    return found;
  });
}

async function visit(
  browser: Browser,
  url: string,
): Promise<Observations & { vectorsOnPage: number[]; markup: string[]; finalUrl: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    const observations: Observations = { calls: [], errors: [], violations: [] };
    await watch(context, page, observations);
    let loaded = false;
    page.on("framenavigated", (frame) => {
      if (loaded && frame === page.mainFrame()) observations.calls.push(`navigation(${frame.url()})`);
    });
    await page.goto(url, { waitUntil: "load" });
    loaded = true;
    const rendered = await page.evaluate(() =>
      Array.from(document.querySelectorAll("article[data-vector]"), (article) =>
        Number(article.getAttribute("data-vector")),
      ),
    );
    let markup: string[] = [];
    try {
      await interact(page);
      markup = await dangerousMarkup(page);
    } catch (error) {
      // Only something the page did (a navigation, a crash) interrupts the interaction.
      observations.calls.push(`interaction interrupted: ${String(error).split("\n")[0]}`);
    }
    return { ...observations, vectorsOnPage: rendered, markup, finalUrl: page.url() };
  } finally {
    await context.close();
  }
}

/** Failure text that names the vectors whose ids appear in the recorded calls. */
function describeCalls(calls: string[]): string {
  const ids = new Set(calls.flatMap((call) => [...call.matchAll(/\d+/g)].map((m) => Number(m[0]))));
  const suspects = XSS_VECTORS.filter((vector) => ids.has(vector.id)).map(
    (vector) => `#${vector.id} (${vector.family}): ${JSON.stringify(vector.markdown)}`,
  );
  return `${calls.join("\n")}\n\nVectors:\n${suspects.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------

let browser: Browser;
beforeAll(async () => {
  local = await LocalPages.start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
});

const batches: XssVector[][] = [];
for (let start = 0; start < XSS_VECTORS.length; start += BATCH_SIZE)
  batches.push(XSS_VECTORS.slice(start, start + BATCH_SIZE));
const batchCases = batches.map((batch) => [`#${batch[0]!.id}–#${batch.at(-1)!.id}`, batch] as const);

describe("the recorders catch a script that runs (control, not rendered by the sanitizer)", () => {
  const control =
    '<img src="/missing.png" onerror="alert(1)"><a href="javascript:__xss(2)">link</a><svg onload="__xss(3)"></svg>';

  it("without CSP: the calls are recorded", async () => {
    const url = local.serve(
      `<!doctype html><html lang="en"><head><title>control</title></head><body><main>${control}</main></body></html>`,
      false,
    );
    const result = await visit(browser, url);
    expect(result.calls).toEqual(expect.arrayContaining(["alert(1)", "__xss(2)", "__xss(3)"]));
    expect(result.markup.length).toBeGreaterThan(0);
  });

  it("with the app's CSP: nothing runs and the violations are recorded", async () => {
    const url = local.serve(
      `<!doctype html><html lang="en"><head><title>control</title></head><body><main>${control}</main></body></html>`,
      true,
    );
    const result = await visit(browser, url);
    expect(result.calls).toEqual([]);
    expect(result.violations.some((violation) => violation.startsWith("csp(script-src"))).toBe(true);
  });
});

describe(`${XSS_VECTORS.length} XSS vectors in Chromium, without any CSP (the sanitizer alone)`, () => {
  it.each(batchCases)("vectors %s: no script runs", async (_, batch) => {
    // A page the app would never serve: the sanitizer's output with no header to fall back on.
    const url = await localTarget(batch, { csp: false });
    const result = await visit(browser, url);

    expect(result.vectorsOnPage, "every vector is on the page").toEqual(batch.map((vector) => vector.id));
    expect(result.calls, describeCalls(result.calls)).toEqual([]);
    expect(result.errors, "script errors on a page without scripts").toEqual([]);
    expect(result.markup, "handler attributes or script URLs in the parsed page").toEqual([]);
    expect(result.finalUrl, "the page never navigated away").toBe(url);
    expect(result.violations).toEqual([]);
  });
});
