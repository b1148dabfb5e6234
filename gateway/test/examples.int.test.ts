/**
 * The integrators' examples (examples/*.mjs) run as they are, as child processes, against a gateway
 * on a real port: they must keep working as the API changes (issue 16). webhook-receiver.mjs runs in
 * webhooks.int.test.ts, beside the delivery job.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { createGateway, prepareGateway, type Gateway } from "../src/index.ts";
import { createUser, GqlClient, system, testConfig, type TestUser } from "./helpers.ts";
import { runExample, stopExamples } from "./run-example.ts";

let gateway: Gateway;
let url: string;
let su: PocketBase;
let admin: TestUser;
const run = randomUUID().slice(0, 8);

async function token(scopes: string[]) {
  const result = await new GqlClient(gateway, { token: admin.token }).request<{
    createApiToken: { secret: string };
  }>(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret } }`, {
    input: { name: `Examples ${run}`, scopes },
  });
  return result.data!.createApiToken.secret;
}

beforeAll(async () => {
  // No webhook delivery here: webhooks.int.test.ts runs examples/webhook-receiver.mjs with its own
  // delivery job (two jobs on one shared queue would both send the same rows).
  gateway = createGateway(testConfig());
  await prepareGateway(gateway);
  url = await gateway.listen();
  su = await system();
  admin = await createUser({ roles: ["Administrator"] });
}, 60_000);

afterAll(async () => {
  stopExamples();
  await gateway?.close();
});

describe("the integrators' examples", () => {
  it("news-this-week.mjs lists this week's posts, members-only ones with the CONTENT_MEMBERS scope", async () => {
    for (const [title, audience] of [
      [`Examples public ${run}`, "public"],
      [`Examples members ${run}`, "members"],
    ] as const) {
      await su.collection("posts").create({
        title,
        slug: `examples-${audience}-${run}`,
        status: "published",
        audience,
        author: admin.id,
        revision: 1,
        publishedAt: new Date().toISOString(),
      });
    }
    await su.collection("posts").create({
      title: `Examples old ${run}`,
      slug: `examples-old-${run}`,
      status: "published",
      audience: "public",
      author: admin.id,
      revision: 1,
      publishedAt: "2026-01-01 10:00:00.000Z",
    });
    const withScope = await runExample(
      "news-this-week.mjs",
      { FLOCK_URL: url, FLOCK_TOKEN: await token(["CONTENT_MEMBERS"]) },
      (out) => out.includes("requests left this minute"),
    );
    expect(withScope).toContain(`Examples public ${run}`);
    expect(withScope).toContain(`Examples members ${run} (members)`);
    expect(withScope).not.toContain(`Examples old ${run}`);
    const publicOnly = await runExample(
      "news-this-week.mjs",
      { FLOCK_URL: url, FLOCK_TOKEN: await token([]) },
      (out) => out.includes("requests left this minute"),
    );
    expect(publicOnly).toContain(`Examples public ${run}`);
    expect(publicOnly).not.toContain(`Examples members ${run}`);
  });

  it("news-draft.mjs writes a draft and a new version of it with a CONTENT_WRITE token; without the scope it is refused", async () => {
    const writer = await token(["CONTENT_WRITE"]);
    const dir = await mkdtemp(join(tmpdir(), "flock-draft-"));
    const file = join(dir, "text.md");
    await writeFile(file, `Six more volunteers for Saturday ${run}.`);
    const created = await runExample(
      "news-draft.mjs",
      { FLOCK_URL: url, FLOCK_TOKEN: writer },
      (out) => out.includes("Staff review"),
      [`Pantry volunteers ${run}`, file],
    );
    const id = /id (\w{15})/.exec(created)?.[1];
    expect(created).toContain(`Draft saved: "Pantry volunteers ${run}" (revision 1, by Examples ${run})`);
    expect(created).toContain(`${url}/admin/news/${id}`);
    await writeFile(file, `Eight more volunteers for Saturday ${run}.`);
    const edited = await runExample(
      "news-draft.mjs",
      { FLOCK_URL: url, FLOCK_TOKEN: writer, FLOCK_POST_ID: id! },
      (out) => out.includes("Staff review"),
      [`Pantry volunteers needed ${run}`, file],
    );
    expect(edited).toContain(`Draft saved: "Pantry volunteers needed ${run}" (revision 2`);
    const row = await su.collection("posts").getOne(id!);
    expect(row).toMatchObject({
      status: "draft",
      title: `Pantry volunteers needed ${run}`,
      body: `Eight more volunteers for Saturday ${run}.`,
      author: "",
    });
    expect(row.authorClient).not.toBe("");
    // A token without the scope: the script stops with the API's FORBIDDEN.
    await expect(
      runExample("news-draft.mjs", { FLOCK_URL: url, FLOCK_TOKEN: await token([]) }, () => false, [
        "Nope",
        file,
      ]),
    ).rejects.toThrow(/FORBIDDEN/);
  });

  it("news-draft.mjs prints which field was refused and why (the API's fieldErrors)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "flock-draft-"));
    const file = join(dir, "text.md");
    await writeFile(file, "A body.");
    await expect(
      runExample(
        "news-draft.mjs",
        { FLOCK_URL: url, FLOCK_TOKEN: await token(["CONTENT_WRITE"]) },
        () => false,
        ["x".repeat(400), file],
      ),
    ).rejects.toThrow(/BAD_USER_INPUT[^\n]*\n\s+title: \S/);
  });

  it("prayer-live.mjs prints a request the moment it reaches the wall", async () => {
    let output = "";
    const watching = runExample(
      "prayer-live.mjs",
      { FLOCK_URL: url, FLOCK_TOKEN: await token(["PRAYER_MEMBERS"]), MAX_EVENTS: "5" },
      (out) => ((output = out), out.includes("subscribed")),
    );
    await watching;
    const request = await su.collection("prayer_requests").create({
      body: `Examples live prayer ${run}`,
      visibility: "members",
      anonymous: true,
      authorName: "",
      status: "approved",
    });
    await expect
      .poll(() => output, { timeout: 5000 })
      .toContain(`added ${request.id}: Examples live prayer ${run}`);
  });
});
