import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
  const body = (await response.json()) as {
    data?: { posts: { edges: Array<{ node: { title: string; audience: string } }> } };
    errors?: Array<{ extensions?: { code?: string } }>;
  };
  return {
    status: response.status,
    audiences: new Set(body.data?.posts.edges.map((e) => e.node.audience)),
    code: body.errors?.[0]?.extensions?.code,
  };
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
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Members-only news and events").check();
    await page.getByRole("button", { name: "Create token" }).click();
    const secretField = page.getByLabel("API token", { exact: true });
    await secretField.waitFor();
    const token = await secretField.inputValue();
    expect(token).toMatch(/^flock_[a-z0-9]{15}_[A-Za-z0-9_-]{43}$/);
    await page
      .getByRole("row", { name: new RegExp(name) })
      .getByText("Active")
      .waitFor();
    await expectAccessible(page);

    // The script: members-only news comes back with the token (a guest gets public posts only).
    const used = await script(token);
    expect(used.status).toBe(200);
    expect([...used.audiences].sort()).toEqual(["MEMBERS", "PUBLIC"]);

    // Once stored, the secret is gone from the page; the list shows only its beginning.
    await page.getByRole("button", { name: "I have stored it" }).click();
    await secretField.waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(token);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: `Revoke “${name}”` }).click();
    await page.getByText(`“${name}” is revoked.`).waitFor();
    await page
      .getByRole("row", { name: new RegExp(name) })
      .getByText("Revoked")
      .waitFor();

    const refused = await script(token);
    expect(refused).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });

    // How to use a token: the guide the site itself serves, one click from here.
    await page.getByRole("link", { name: "Open the API guide" }).click();
    await page.getByRole("heading", { level: 1, name: "API guide for developers" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "The schema" }).waitFor();
    expect(
      await page.getByRole("link", { name: /The schema \(schema\.graphql\)/ }).getAttribute("href"),
    ).toBe("/graphql/schema.graphql");
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an administrator subscribes a webhook: a private address is refused until allowed, the secret is shown once, and deliveries appear in the log", async () => {
    const received: string[] = [];
    const listeners: Array<() => void> = [];
    /** Resolves once a delivery containing `text` has arrived (the test's own timeout bounds the wait). */
    const delivery = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => received.some((body) => body.includes(text)) && (resolve(), true);
        if (!check()) listeners.push(() => void check());
      });
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push(body);
        res.writeHead(204).end();
        for (const listener of listeners) listener();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/flock`;
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await signIn(page, "admin@grace.example", DEMO_PASSWORD);
      await page.goto("/admin/integrations");
      await page.getByRole("heading", { name: "New webhook" }).waitFor();
      await page.getByLabel("Receiver URL").fill(url);
      await page.getByLabel("A page went live").check();
      await page.getByRole("button", { name: "Create webhook" }).click();
      await page.getByText("This address is private or local.", { exact: false }).waitFor();
      await page.getByLabel("Allow a private or local address").check();
      await page.getByRole("button", { name: "Create webhook" }).click();
      const secret = page.getByLabel("Signing secret", { exact: true });
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await expectAccessible(page);

      // Something happens: a page goes live (through the API, as staff do in the editor).
      const title = `Webhook page ${Date.now()}`;
      const publish = await page.evaluate(async (title) => {
        const call = async (query: string, variables: Record<string, unknown>) =>
          (
            await fetch("/graphql", {
              method: "POST",
              headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" },
              body: JSON.stringify({ query, variables }),
            })
          ).json() as Promise<{ data: Record<"createPage" | "publishPage", { id: string }> }>;
        const created = await call("mutation ($input: PageInput!) { createPage(input: $input) { id } }", {
          input: { title, slug: "", body: "Hello", showInNav: false, seoDescription: "" },
        });
        return call("mutation ($id: ID!) { publishPage(id: $id) { id } }", {
          id: created.data.createPage!.id,
        });
      }, title);
      expect(publish.data.publishPage?.id).toBeTruthy();
      await delivery(title);
      await page.reload();
      await page.getByText(url).first().waitFor();
      await page.getByText("Latest deliveries", { exact: false }).first().click();
      await page.getByText("Delivered").first().waitFor();
      await expectAccessible(page);
      // Cleaned up: delete the webhook.
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("article", { name: url }).getByRole("button", { name: "Delete" }).click();
      await page.getByText("The webhook is deleted.").waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      receiver.close();
    }
  });

  it("an administrator creates a CONTENT_WRITE token, a script writes a draft with it, staff see it as the token's and publish it; the token cannot", async () => {
    const SLOW = { timeout: 20_000 };
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await signIn(page, "admin@grace.example", DEMO_PASSWORD);
      await page.goto("/admin/integrations");
      await page.getByRole("heading", { name: "New API token" }).waitFor();
      const name = `Website form ${Date.now()}`;
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Write news drafts").check();
      expect(
        await page
          .getByText("Creates draft posts and edits the drafts it created.", { exact: false })
          .isVisible(),
      ).toBe(true);
      await page.getByRole("button", { name: "Create token" }).click();
      const secretField = page.getByLabel("API token", { exact: true });
      await secretField.waitFor();
      const token = await secretField.inputValue();
      await page.getByRole("button", { name: "I have stored it" }).click();
      await page
        .getByRole("row", { name: new RegExp(name) })
        .getByText("Write news drafts")
        .waitFor();

      // The script: a draft, then an edit of it (the edit is in the history, under the token's name).
      const call = async <T>(query: string, variables: Record<string, unknown>) => {
        const response = await fetch(`${baseUrl()}/graphql`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ query, variables }),
        });
        return (await response.json()) as { data?: T; errors?: Array<{ extensions?: { code?: string } }> };
      };
      const title = `Bake sale ${Date.now()}`;
      const created = await call<{ createPost: { id: string; status: string; authorName: string } }>(
        `mutation ($input: PostInput!) { createPost(input: $input) { id status authorName } }`,
        { input: { title, summary: "Cakes after the service", body: "Bring a cake, take a cake." } },
      );
      expect(created.errors).toBeUndefined();
      expect(created.data!.createPost).toMatchObject({ status: "DRAFT", authorName: name });
      const id = created.data!.createPost.id;
      const edited = await call<{ updatePost: { revision: number } }>(
        `mutation ($id: ID!) { updatePost(id: $id, input: { title: "${title}", body: "Bring a cake, take two." }, expectedRevision: 1) { revision } }`,
        { id },
      );
      expect(edited.errors).toBeUndefined();
      const publish = `mutation ($id: ID!) { publishPost(id: $id) { id } }`;
      expect((await call(publish, { id })).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");

      // Staff: the list marks it as the token's; the editor says so, and its history names the token.
      await page.goto("/admin/news");
      const row = page.getByRole("row", { name: new RegExp(title) });
      await expect.poll(() => row.getByText(`API token: ${name}`).isVisible(), SLOW).toBe(true);
      await expectAccessible(page);
      await row.getByRole("link", { name: title }).click();
      await expect
        .poll(() => page.getByText(`Written by the API token “${name}”.`, { exact: false }).isVisible(), SLOW)
        .toBe(true);
      const history = page.getByRole("region", { name: "History" });
      await expect.poll(() => history.getByText(name, { exact: false }).first().isVisible(), SLOW).toBe(true);
      await expectAccessible(page);

      // Staff publish it through the checklist, as any draft.
      await page.getByRole("button", { name: "Publish now" }).click();
      const checklist = page.getByRole("dialog", { name: "Ready to go live?" });
      await checklist.getByRole("button", { name: "Publish now" }).click();
      await expect.poll(() => page.getByText("Published.", { exact: true }).isVisible(), SLOW).toBe(true);

      // Live now: no longer the token's to change.
      const late = await call(
        `mutation ($id: ID!) { updatePost(id: $id, input: { title: "Changed after" }, expectedRevision: 3) { id } }`,
        { id },
      );
      expect(late.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
