import { mkdtemp, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startStack } from "../scripts/lib/stack.ts";
import { testBrowserPath } from "../e2e/support/browser.ts";
const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const dataDir = await mkdtemp(join(tmpdir(), "flock-axe-"));
const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist: "web/dist", demo: true, quiet: true, production: true });
const browser = await chromium.launch({ executablePath: await testBrowserPath(), headless: true, args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
for (const path of ["/", "/news", "/prayer", "/events", "/sermons"]) {
  await page.goto(stack.url + path, { waitUntil: "load" }); await page.waitForSelector("main h1"); await page.waitForTimeout(1000);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  for (let i = 0; i < 2; i++) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const before = (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")!.value;
    const t0 = Date.now();
    const n = await page.evaluate(async () => (await (window as any).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } })).violations.length);
    const after = (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")!.value;
    console.log(path, `run ${i}: ${Date.now() - t0} ms wall, renderer task ${(1000 * (after - before)).toFixed(0)} ms, violations ${n}`);
  }
}
await browser.close(); await stack.stop(); process.exit(0);
