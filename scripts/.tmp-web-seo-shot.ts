import { launchChromium } from "../e2e/support/browser.ts";
const [base, out, label] = process.argv.slice(2);
const browser = await launchChromium();
for (const [name, viewport] of Object.entries({ desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } })) {
  const context = await browser.newContext({ viewport, locale: "en-US", timezoneId: "America/Chicago" });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill("admin@grace.example");
  await page.getByLabel("Password").fill("grace-demo-2026");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`${base}/admin/settings`);
  const time = page.getByLabel("Time", { exact: true }).first();
  await time.waitFor();
  await time.scrollIntoViewIfNeeded();
  const box = await page.locator(".service-row").first().boundingBox();
  void box; await page.locator(".service-row").first().screenshot({ path: `${out}/settings-times-${label}-${name}.png` });
  console.log(name, await time.evaluate((i: HTMLInputElement) => ({ client: i.clientWidth, scroll: i.scrollWidth, w: i.getBoundingClientRect().width })));
  await context.close();
}
await browser.close();
