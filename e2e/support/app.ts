import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { DEMO_PASSWORD } from "../../scripts/lib/seed.ts";
import { thisStack } from "./environment.ts";

export { waitForMail, linkFrom } from "../../scripts/lib/smtp-catcher.ts";
/** This file's church: its worker's own (e2e/global-setup.ts starts one per worker). */
export const baseUrl = () => thisStack().baseUrl;
export const catcherUrl = () => thisStack().catcherUrl;
export const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@e2e.example`;
export { DEMO_PASSWORD };

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
  /** A check-in station's tablet (iPad Air, portrait). */
  tablet: { width: 820, height: 1180 },
} as const;

export async function newContext(
  browser: Browser,
  viewport: keyof typeof VIEWPORTS = "desktop",
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: VIEWPORTS[viewport],
    locale: "en-US",
    timezoneId: "America/Chicago",
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Fail the test on any script error in the page (and collect console errors for the report). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * axe-core on the current page: WCAG 2.0–2.2 A and AA rules. Every e2e test calls this on every page
 * it visits, so an inaccessible screen fails the suite.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.waitForSelector("main", { state: "attached" });
  // Once per document: the app's own navigations keep it, and evaluating axe again (650 KB of script) costs CPU.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: unknown,
          ) => Promise<{
            violations: Array<{
              id: string;
              impact: string;
              help: string;
              nodes: Array<{ target: string[] }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} → ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
  });
  if (violations.length)
    throw new Error(`Accessibility violations on ${page.url()}:\n${violations.join("\n")}`);
}

const SIGN_IN = "mutation($input: SignInInput!) { signIn(input: $input) { user { id } } }";

/**
 * Signs the page's browser in as `email` and opens /me, where the sign-in form leads. Through the
 * API (the browser context's own requests, so the session cookie lands in its cookie jar), not the
 * form: auth.e2e.test.ts drives the form itself, and every other journey that starts signed in saves
 * loading the app for the form.
 */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const response = await page.context().request.post("/graphql", {
    data: { query: SIGN_IN, variables: { input: { email, password } } },
    headers: { "x-graphql-yoga-csrf": "1" }, // as the web app sends it (gateway/src/yoga.ts CSRF_HEADER)
  });
  const body = (await response.json()) as { data?: { signIn: unknown } | null; errors?: unknown[] };
  if (!response.ok() || body.errors || !body.data?.signIn)
    throw new Error(`Signing in as ${email} failed (${response.status()}): ${JSON.stringify(body)}`);
  await page.goto("/me");
  await page.waitForURL(/\/me$/);
}

/**
 * Every GraphQL response the page receives, read as text: for proving that something (an address)
 * never reached the browser. The responses are fetched through an interception (so a navigation
 * cannot discard a body before it is read); server-sent event streams are passed through, since
 * they stay open while the page lives (they carry public settings and the viewer's own
 * notifications). Start it before the first navigation.
 */
export async function recordGraphqlResponses(page: Page): Promise<{ texts(): Promise<string[]> }> {
  const bodies: string[] = [];
  const failures: unknown[] = [];
  await page.route(
    (url) => url.pathname === "/graphql",
    async (route) => {
      if ((route.request().headers()["accept"] ?? "").includes("text/event-stream")) return route.continue();
      try {
        const response = await route.fetch();
        bodies.push(await response.text());
        await route.fulfill({ response });
      } catch (error) {
        // A response still on its way when the page closed has no body to keep (Playwright disposes
        // it); any other failure fails the test at texts().
        if (!page.isClosed()) failures.push(error);
      }
    },
  );
  return {
    texts: async () => {
      if (failures.length) throw failures[0];
      return [...bodies];
    },
  };
}

/** A GraphQL call from a signed-in page, as the app makes it (same origin, its cookie); fails on errors. */
export async function graphql<T>(
  page: Page,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const result = await page.evaluate(
    async ([query, variables]) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" },
        body: JSON.stringify({ query, variables }),
      });
      return response.json();
    },
    [query, variables] as const,
  );
  expect((result as { errors?: unknown }).errors).toBeUndefined();
  return (result as { data: T }).data;
}
