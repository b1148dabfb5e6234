// Throw-away: CPU profile of a page load (unthrottled and 4x), attributed to source modules.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { SourceMapConsumer } from "source-map-js";
import { startStack } from "../scripts/lib/stack.ts";
import { chromiumPath } from "../e2e/support/browser.ts";

const dist = process.argv[2]!;
const paths = process.argv.slice(3);
const dataDir = await mkdtemp(join(tmpdir(), "flock-prof-"));
const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist: dist, demo: true, quiet: true, production: true });
const browser = await chromium.launch({ executablePath: await chromiumPath(), headless: true, args: ["--no-sandbox", "--disable-background-networking"] });
const maps = new Map<string, SourceMapConsumer | null>();
async function mapFor(url: string) {
  if (!maps.has(url)) {
    const file = join(dist, new URL(url).pathname);
    const text = await readFile(file + ".map", "utf8").catch(() => null);
    maps.set(url, text ? new SourceMapConsumer(JSON.parse(text)) : null);
  }
  return maps.get(url)!;
}
const short = (s: string) => s.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "npm:$1").replace(/.*\/web\/src\//, "src/").replace(/.*\/shared\/src\//, "shared/");
for (const path of paths) {
  for (let run = 0; run < 3; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Profiler.start");
    const t0 = Date.now();
    await page.goto(stack.url + path, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    const { profile } = await cdp.send("Profiler.stop");
    const wall = Date.now() - t0;
    const self = new Map<number, number>();
    const dt = profile.timeDeltas!;
    for (let i = 0; i < profile.samples!.length; i++) self.set(profile.samples![i]!, (self.get(profile.samples![i]!) ?? 0) + dt[i]! / 1000);
    const byModule = new Map<string, number>();
    const byFn = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const ms = self.get(node.id) ?? 0;
      const cf = node.callFrame;
      if (cf.functionName === "(idle)" || cf.functionName === "(program)") continue;
      total += ms;
      let key = cf.url ? new URL(cf.url).pathname : cf.functionName;
      let fn = cf.functionName;
      if (cf.url.includes("/assets/")) {
        const map = await mapFor(cf.url);
        if (map) {
          const pos = map.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
          if (pos.source) key = short(pos.source);
          fn = `${pos.name ?? cf.functionName} ${short(pos.source ?? "")}:${pos.line}`;
        }
      }
      byModule.set(key, (byModule.get(key) ?? 0) + ms);
      byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    }
    console.log(`\n${path} run ${run}: busy ${total.toFixed(0)} ms (4x throttled), wall ${wall} ms`);
    // Tasks: runs of non-idle samples; each with its duration and top functions.
    const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
    let t = 0;
    let cur: { start: number; dur: number; fns: Map<string, number> } | null = null;
    const tasks: Array<{ start: number; dur: number; fns: Map<string, number> }> = [];
    for (let i = 0; i < profile.samples!.length; i++) {
      t += dt[i]! / 1000;
      const n = nodeById.get(profile.samples![i]!)!;
      const idle = n.callFrame.functionName === "(idle)";
      if (idle) { if (cur) { tasks.push(cur); cur = null; } continue; }
      if (!cur) cur = { start: t, dur: 0, fns: new Map() };
      const d = (dt[i + 1] ?? 0) / 1000;
      cur.dur += d;
      let fn = n.callFrame.functionName || "(anon)";
      if (n.callFrame.url.includes("/assets/")) {
        const map = await mapFor(n.callFrame.url);
        const pos = map?.originalPositionFor({ line: n.callFrame.lineNumber + 1, column: n.callFrame.columnNumber });
        fn = `${pos?.name ?? fn}@${short(pos?.source ?? "?")}`;
      }
      cur.fns.set(fn, (cur.fns.get(fn) ?? 0) + d);
    }
    if (cur) tasks.push(cur);
    if (run === 2) for (const task of tasks.filter((x) => x.dur > 30)) console.log(`  task @${task.start.toFixed(0)} ${task.dur.toFixed(0)} ms: ${[...task.fns].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")}`);
    if (run === 2) {
      for (const [k, v] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${v.toFixed(0).padStart(6)}  ${k}`);
      console.log("  -- functions");
      for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${v.toFixed(0).padStart(6)}  ${k}`);
    }
    await context.close();
  }
}
await browser.close();
await stack.stop();
process.exit(0);
