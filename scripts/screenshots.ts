// `npx tsx scripts/screenshots.ts <baseUrl> [outDir]`: screenshots of the main screens at desktop
// and phone width, for looking at what we built. Signs in with the demo administrator.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium } from "../e2e/support/browser.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./lib/seed.ts";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const out = process.argv[3] ?? "screenshots";
await mkdir(out, { recursive: true });
const browser = await launchChromium();
const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
try {
  for (const [name, viewport] of Object.entries(viewports)) {
    const context = await browser.newContext({ viewport, locale: "en-US", timezoneId: "America/Chicago" });
    const page = await context.newPage();
    const shot = async (path: string, file: string) => {
      await page.goto(base + path);
      await page.waitForSelector(".footer, .page", { timeout: 10_000 });
      // Lazy images load only near the viewport: scroll through, then wait until every image is in.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 50));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForFunction(() => [...document.images].every((img) => img.complete), undefined, {
        timeout: 10_000,
      });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `${file}-${name}.png`), fullPage: true });
    };
    await shot("/", "home");
    await shot("/news", "news");
    await shot("/news/harvest-supper-thank-you", "post");
    await shot("/news/christmas-concert", "post-embed");
    await shot("/p/staff", "page");
    // Sermons
    await shot("/sermons", "sermons");
    await shot("/sermons/living-water", "sermon");
    // Events
    await shot("/events?view=month", "events-month");
    await shot("/events", "events-list");
    await shot("/events/marriage-retreat", "event");
    await shot("/login", "sign-in");
    await shot("/signup", "sign-up");
    await shot("/nope", "not-found");
    await page.goto(`${base}/login`);
    await page.getByLabel("Email").fill(DEMO_ACCOUNTS[0].email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/me");
    await shot("/me", "me");
    await shot("/admin/settings", "admin-settings");
    await shot("/admin/users", "admin-users");
    await shot("/admin/integrations", "admin-integrations");
    // A new token's secret, shown once.
    await page.getByLabel("Name").fill("Lobby screen");
    await page.getByLabel("Members-only news and events").check();
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByLabel("API token", { exact: true }).waitFor();
    await page.screenshot({ path: join(out, `admin-integrations-created-${name}.png`), fullPage: true });
    await shot("/admin/news", "admin-news");
    await shot("/admin/news/new", "admin-post-new");
    await shot("/admin/sermons", "admin-sermons");
    await page.getByRole("link", { name: "Living Water" }).click();
    await page.waitForSelector(".milkdown", { timeout: 15_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `admin-sermon-editor-${name}.png`), fullPage: true });
    // The event editor's recurrence builder, previewing "Every 2nd Sunday at 10:00, until 31 Dec 2027".
    await page.goto(`${base}/admin/events/new`);
    await page.getByLabel("Starts (local time)").fill("2027-01-10T10:00");
    await page.getByLabel("Ends (local time)").fill("2027-01-10T11:00");
    await page.getByLabel("Repeats", { exact: true }).selectOption("MONTHLY");
    await page.getByLabel("On", { exact: true }).selectOption("2");
    await page.getByLabel("Ends", { exact: true }).selectOption("until");
    await page.getByLabel("Last date").fill("2027-12-31");
    await page.getByText("Every 2nd Sunday at 10:00").waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(out, `admin-event-recurrence-${name}.png`), fullPage: true });
    // An existing event: cover image, dates to cancel, move or split, attendees.
    await page.goto(`${base}/admin/events`);
    await page.getByRole("link", { name: "Marriage Retreat Day" }).click();
    await page.getByRole("heading", { name: "Next dates" }).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Attendees" }).first().click();
    await page.getByRole("link", { name: "Download CSV" }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(out, `admin-event-editor-${name}.png`), fullPage: true });
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(`Screenshots in ${out}/`);
