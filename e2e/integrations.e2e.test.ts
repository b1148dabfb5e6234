import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { baseUrl, DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** What an integrator's script does: POST /graphql with the token, no cookie, no CSRF header. */
async function script(token: string) {
  const response = await fetch(`${baseUrl()}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query: "{ posts(first: 50) { edges { node { title audience } } } }" }),
  });
  const body = (await response.json()) as { data?: { posts: { edges: Array<{ node: { title: string; audience: string } }> } }; errors?: Array<{ extensions?: { code?: string } }> };
  return { status: response.status, audiences: new Set(body.data?.posts.edges.map((e) => e.node.audience)), code: body.errors?.[0]?.extensions?.code };
}

describe("integrations in a real browser", () => {
  it("an administrator creates an API token, a script reads members' news with it, the token is revoked and the next call is refused", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, "admin@grace.example", DEMO_PASSWORD);
    await page.goto("/admin/integrations");
    await page.getByRole("heading", { name: "New API token" }).waitFor();
    await expectAccessible(page);

    const name = `Lobby screen ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Members-only news and events").check();
    await page.getByRole("button", { name: "Create token" }).click();
    const secretField = page.getByLabel("API token", { exact: true });
    await secretField.waitFor();
    const token = await secretField.inputValue();
    expect(token).toMatch(/^flock_[a-z0-9]{15}_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(name) }).getByText("Active").isVisible()).toBe(true);
    await expectAccessible(page);

    // The script: members-only news comes back with the token (a guest gets public posts only).
    const used = await script(token);
    expect(used.status).toBe(200);
    expect([...used.audiences].sort()).toEqual(["MEMBERS", "PUBLIC"]);

    // Once stored, the secret is gone from the page; the list shows only its beginning.
    await page.getByRole("button", { name: "I have stored it" }).click();
    await expect.poll(() => page.content()).not.toContain(token);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: `Revoke “${name}”` }).click();
    await expect.poll(() => page.getByText(`“${name}” is revoked.`).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(name) }).getByText("Revoked").isVisible()).toBe(true);

    const refused = await script(token);
    expect(refused).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
