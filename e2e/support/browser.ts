import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Flags for a closed network and a root user (see STACK.md "Tests and browsers"). */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Chromium, found as $CHROME_PATH, else Debian's /usr/bin/chromium, else the headless Chromium
 * inside the npm package @sparticuz/chromium (no browser download is needed on a fresh machine).
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  try {
    const sparticuz = (await import("@sparticuz/chromium")).default as { executablePath(): Promise<string> };
    return await sparticuz.executablePath();
  } catch (error) {
    throw new Error(
      `No Chromium found: set CHROME_PATH, install Debian's chromium, or run npm install (@sparticuz/chromium). ${String(error)}`,
    );
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: ARGS, headless: true });
}
