// Draws the demo church's news images (abstract, text-free illustrations) with Chromium and saves
// them as JPEGs in scripts/seed-assets/. Run once by hand; the images are committed.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium } from "../e2e/support/browser.ts";
import { ROOT } from "./lib/pocketbase.ts";

const scenes: Record<string, string> = {
  "harvest-supper": `background:linear-gradient(160deg,#f6c177,#d9734a 60%,#8c3b2a);
    --a:radial-gradient(circle at 30% 70%,#fbe3b5 0 90px,transparent 91px),radial-gradient(circle at 55% 72%,#f1a95d 0 70px,transparent 71px),radial-gradient(circle at 75% 68%,#c5523a 0 110px,transparent 111px);`,
  choir: `background:linear-gradient(180deg,#1d3557,#2f5d8a 55%,#7fb3d5);
    --a:repeating-radial-gradient(circle at 50% 120%,rgba(255,255,255,.18) 0 18px,transparent 19px 60px);`,
  "youth-camp": `background:linear-gradient(180deg,#9ad1f5,#e8f6ff 45%,#5f9e5a 46%,#2e6b3a);
    --a:conic-gradient(from 150deg at 30% 46%,transparent 0 60deg,#3b5e3b 60deg 120deg,transparent 120deg),conic-gradient(from 150deg at 68% 46%,transparent 0 60deg,#456f45 60deg 120deg,transparent 120deg),radial-gradient(circle at 82% 18%,#ffd166 0 60px,transparent 61px);`,
  "food-bank": `background:linear-gradient(135deg,#ffe8cc,#ffc078);
    --a:radial-gradient(circle at 25% 40%,#e8590c 0 80px,transparent 81px),radial-gradient(circle at 50% 55%,#2b8a3e 0 95px,transparent 96px),radial-gradient(circle at 74% 42%,#f08c00 0 75px,transparent 76px),linear-gradient(0deg,#8d5524 0 22%,transparent 22%);`,
  baptism: `background:linear-gradient(180deg,#e3f2fd,#90caf9 50%,#1e88e5);
    --a:repeating-linear-gradient(170deg,rgba(255,255,255,.35) 0 6px,transparent 7px 40px),radial-gradient(circle at 50% 30%,#fff 0 50px,transparent 51px);`,
  "christmas-concert": `background:radial-gradient(circle at 50% 110%,#f59f00 0,#c2410c 18%,#1b2a52 55%,#0b1a33 80%);
    --a:radial-gradient(circle at 20% 25%,#fff 0 3px,transparent 4px),radial-gradient(circle at 70% 15%,#fff 0 4px,transparent 5px),radial-gradient(circle at 85% 40%,#fff 0 3px,transparent 4px),radial-gradient(circle at 33% 12%,#fff 0 2px,transparent 3px),radial-gradient(circle at 58% 30%,#fff 0 2px,transparent 3px),radial-gradient(circle at 50% 12%,#ffe066 0 9px,rgba(255,224,102,.25) 10px 28px,transparent 29px);`,
};

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  for (const [name, css] of Object.entries(scenes)) {
    await page.setContent(`<!doctype html><style>html,body{margin:0;height:100%}body{${css}}
      body::after{content:"";position:fixed;inset:0;background:var(--a)}</style><body></body>`);
    const jpeg = await page.screenshot({ type: "jpeg", quality: 78 });
    await writeFile(join(ROOT, "scripts", "seed-assets", `${name}.jpg`), jpeg);
  }
} finally {
  await browser.close();
}
console.log("Images written to scripts/seed-assets/");
