import { launchChromium } from "../e2e/support/browser.ts";
const [base] = process.argv.slice(2);
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
const page = await context.newPage();
await page.goto(`${base}/login`);
await page.getByLabel("Email").fill("admin@grace.example");
await page.getByLabel("Password").fill("grace-demo-2026");
await page.getByRole("button", { name: "Sign in" }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/login"));
await page.goto(`${base}/admin/settings`);
const time = page.getByLabel("Time", { exact: true }).first();
await time.waitFor();
console.log(await time.evaluate((input: HTMLInputElement) => {
  const out: Record<string, unknown> = {};
  for (const css of ["width:auto", "width:max-content", "width:min-content", "width:fit-content"]) {
    const probe = input.cloneNode() as HTMLInputElement;
    probe.style.cssText = `position:absolute; visibility:hidden; ${css}`;
    document.body.append(probe);
    out[css] = probe.getBoundingClientRect().width;
    probe.remove();
  }
  const cs = getComputedStyle(input);
  out.padding = cs.padding; out.font = cs.font; out.boxSizing = cs.boxSizing; out.width = cs.width;
  return out;
}));
await browser.close();
