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

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** Chromium's headless shell from the npm package @sparticuz/chromium, unpacked to $TMPDIR/chromium. */
async function headlessShell(): Promise<string> {
  const sparticuz = (await import("@sparticuz/chromium")).default as { executablePath(): Promise<string> };
  return sparticuz.executablePath();
}

const notFound = (error: unknown) =>
  new Error(
    `No Chromium found: set CHROME_PATH, run npm install (@sparticuz/chromium), or install Debian's chromium. ${String(error)}`,
  );

/**
 * The whole browser, for Lighthouse (it audits what a visitor's Chrome does): $CHROME_PATH, else
 * Debian's /usr/bin/chromium, else the headless shell (no browser download is needed on a fresh machine).
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return headlessShell().catch((error: unknown) => {
    throw notFound(error);
  });
}

/**
 * The browser the e2e tests drive: $CHROME_PATH, else the headless shell, else Debian's chromium.
 * The shell is Chromium's engine without the desktop browser around it: the whole e2e tier took 344 s
 * in it against 640 s in Debian's Chromium 156 (two cores, 2026-11-27). Debian's package is still
 * installed by CI: it brings the shell's system libraries and fonts.
 */
export async function testBrowserPath(): Promise<string> {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  return headlessShell().catch((error: unknown) => {
    if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
    throw notFound(error);
  });
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await testBrowserPath(), args: ARGS, headless: true });
}
