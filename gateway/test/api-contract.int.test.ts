import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { buildSchema, printSchema, validateSchema, type GraphQLSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import sharp from "sharp";
import { toneMp3 } from "../../scripts/lib/mp3.ts";
import { createUser, errorCode, GqlClient, system, testGateway } from "./helpers.ts";
import { createEvent } from "./event-support.ts";

// The published contract (issue 16): the merged schema served at /graphql/schema.graphql (also in
// production, where introspection is off), absolute URLs on content, and the publishedAfter /
// publishedBefore filters of the public lists.

// The printer of the graphql instance Yoga built the schema with (its CommonJS build; a schema from
// one build is not a schema to the other's printer).
const { printSchema: printExecutable } = createRequire(import.meta.url)("graphql") as {
  printSchema: (schema: GraphQLSchema) => string;
};
const root = resolve(import.meta.dirname, "../..");
let gateway: Gateway;
let production: Gateway;
let url: string;
let productionUrl: string;
let visitor: GqlClient;
const run = Date.now().toString(36);

beforeAll(async () => {
  [gateway, production] = await Promise.all([
    testGateway({ publicUrl: "https://church.example/" }),
    testGateway({ production: true }),
  ]);
  [url, productionUrl] = await Promise.all([gateway.listen(), production.listen()]);
  visitor = new GqlClient(gateway);
});
afterAll(async () => {
  await Promise.all([gateway.close(), production.close()]);
});

describe("GET /graphql/schema.graphql", () => {
  it("serves the committed schema.graphql, which parses and prints as the executable schema does", async () => {
    const response = await fetch(`${url}/graphql/schema.graphql`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const sdl = await response.text();
    expect(sdl).toBe(readFileSync(join(root, "schema.graphql"), "utf8"));
    const parsed = buildSchema(sdl);
    expect(validateSchema(parsed)).toEqual([]);
    expect(printSchema(parsed)).toBe(printExecutable(gateway.yoga.getEnveloped().schema));
  });

  it("answers conditional requests with 304 and HEAD without a body", async () => {
    const first = await fetch(`${url}/graphql/schema.graphql`);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect(
      (await fetch(`${url}/graphql/schema.graphql`, { headers: { "if-none-match": etag } })).status,
    ).toBe(304);
    const head = await fetch(`${url}/graphql/schema.graphql`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(`${url}/graphql/schema.graphql`, { method: "POST", body: "x" })).status).toBe(405);
  });

  it("is served in production too, where introspection is off", async () => {
    const response = await fetch(`${productionUrl}/graphql/schema.graphql`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(join(root, "schema.graphql"), "utf8"));
    const introspection = await new GqlClient(production).request(`{ __schema { queryType { name } } }`);
    expect(introspection.errors).toBeDefined();
  });
});

describe("absolute URLs on content", () => {
  it("Post.url, Page.url and Sermon.url are the public origin plus the path", async () => {
    const su = await system();
    const post = await su.collection("posts").create({
      title: "Url post",
      slug: `url-post-${run}`,
      status: "published",
      audience: "public",
      publishedAt: new Date().toISOString(),
      revision: 1,
    });
    const page = await su
      .collection("pages")
      .create({ title: "Url page", slug: `url-page-${run}`, status: "published", revision: 1 });
    const sermon = await su.collection("sermons").create({
      title: "Url sermon",
      slug: `url-sermon-${run}`,
      status: "published",
      publishedAt: new Date().toISOString(),
    });
    const result = await visitor.request<Record<string, { path: string; url: string }>>(
      `query($p: String!, $g: String!, $s: String!) { post(slug: $p) { path url } page(slug: $g) { path url } sermon(slug: $s) { path url } }`,
      { p: post.slug, g: page.slug, s: sermon.slug },
    );
    expect(result.errors).toBeUndefined();
    // PUBLIC_URL "https://church.example/": its origin, as the feeds and the sitemap use it.
    expect(result.data!.post).toEqual({
      path: `/news/${post.slug}`,
      url: `https://church.example/news/${post.slug}`,
    });
    expect(result.data!.page).toEqual({
      path: `/p/${page.slug}`,
      url: `https://church.example/p/${page.slug}`,
    });
    expect(result.data!.sermon).toEqual({
      path: `/sermons/${sermon.slug}`,
      url: `https://church.example/sermons/${sermon.slug}`,
    });
  });
});

describe("absolute URLs in rendered bodies", () => {
  it("Post.html, Page.html and the RSS content:encoded link images and pages on the public origin", async () => {
    const su = await system();
    const body = `See [our beliefs](/p/beliefs-${run}) and [a friend](https://example.org/x).\n\n![Supper](/files/media/abcdefghijklmno/supper.png)\n`;
    const post = await su.collection("posts").create({
      title: "Absolute post",
      slug: `absolute-post-${run}`,
      status: "published",
      audience: "public",
      publishedAt: new Date().toISOString(),
      revision: 1,
      body,
    });
    const page = await su.collection("pages").create({
      title: "Absolute page",
      slug: `absolute-page-${run}`,
      status: "published",
      revision: 1,
      body,
    });
    const result = await visitor.request<Record<string, { html: string }>>(
      `query($p: String!, $g: String!) { post(slug: $p) { html } page(slug: $g) { html } }`,
      { p: post.slug, g: page.slug },
    );
    expect(result.errors).toBeUndefined();
    const feed = await (await fetch(`${url}/feeds/news.xml`)).text();
    const item = feed.split("<item>").find((chunk) => chunk.includes(`/news/${post.slug}<`))!;
    expect(item, "the post is in the feed").toBeDefined();
    for (const html of [result.data!.post!.html, result.data!.page!.html, item]) {
      expect(html).toContain(`src="https://church.example/files/media/abcdefghijklmno/supper.png"`);
      expect(html).toContain(`href="https://church.example/p/beliefs-${run}"`);
      expect(html).toContain(`href="https://example.org/x"`);
      expect(html).not.toMatch(/(src|href)="\/(?!\/)/);
    }
  });
});

describe("absolute URLs of files and events", () => {
  it("Media.url and imageUrl, SermonAudio.url, SermonAttachment.url and Event.url are absolute on the public origin; Media.path is what Markdown stores", async () => {
    const su = await system();
    const png = await sharp({
      create: { width: 4, height: 4, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new File([new Uint8Array(png)], "cover.png", { type: "image/png" }));
    form.append("kind", "image");
    form.append("filename", "cover.png");
    form.append("mimeType", "image/png");
    form.append("alt", "A cover");
    const media = await su.collection("media").create(form);
    const sermonForm = new FormData();
    for (const [key, value] of Object.entries({
      title: "Files sermon",
      slug: `files-sermon-${run}`,
      status: "published",
      publishedAt: new Date().toISOString(),
      audioType: "audio/mpeg",
    }))
      sermonForm.append(key, value);
    sermonForm.append("audio", new File([new Uint8Array(toneMp3(1))], "talk.mp3", { type: "audio/mpeg" }));
    sermonForm.append(
      "attachments",
      new File([Buffer.from("%PDF-1.4\n%%EOF\n")], "notes.pdf", { type: "application/pdf" }),
    );
    const sermon = await su.collection("sermons").create(sermonForm);
    const event = await createEvent();
    const editor = new GqlClient(gateway, { token: (await createUser({ roles: ["Editor"] })).token });
    const item = await editor.request<{ media: { url: string; path: string; imageUrl: string } }>(
      `query($id: ID!) { media(id: $id) { url path imageUrl(size: SMALL) } }`,
      { id: media.id },
    );
    expect(item.errors).toBeUndefined();
    const path = `/files/media/${media.id}/${String(media.file)}`;
    expect(item.data!.media).toEqual({
      url: `https://church.example${path}`,
      path,
      imageUrl: expect.stringMatching(new RegExp(`^https://church\\.example${path}\\?thumb=`)),
    });
    const read = await visitor.request<{
      sermon: { audio: { url: string }; attachments: { url: string }[] };
      event: { url: string };
    }>(
      `query($s: String!, $e: String!) { sermon(slug: $s) { audio { url } attachments { url } } event(slug: $e) { url } }`,
      { s: sermon.slug, e: event.slug },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.sermon.audio.url).toMatch(
      new RegExp(`^https://church\\.example/files/sermons/${sermon.id}/talk`),
    );
    expect(read.data!.sermon.attachments[0]!.url).toMatch(
      new RegExp(`^https://church\\.example/files/sermons/${sermon.id}/notes`),
    );
    expect(read.data!.event.url).toBe(`https://church.example/events/${event.slug}`);
  });
});

describe("publishedAfter / publishedBefore", () => {
  // Dates in 2001 with a search word of this run only: other test files' content never matches.
  const word = `window${run}`;
  const at = (day: number) => `2001-03-${String(day).padStart(2, "0")} 12:00:00.000Z`;
  beforeAll(async () => {
    const su = await system();
    for (const day of [1, 10, 20]) {
      await su.collection("posts").create({
        title: `${word} post ${day}`,
        slug: `${word}-post-${day}`,
        status: "published",
        audience: "public",
        publishedAt: at(day),
        revision: 1,
      });
      await su.collection("sermons").create({
        title: `${word} sermon ${day}`,
        slug: `${word}-sermon-${day}`,
        status: "published",
        publishedAt: at(day),
        preachedOn: at(day),
      });
    }
    await su.collection("posts").create({
      title: `${word} draft`,
      slug: `${word}-draft`,
      status: "draft",
      audience: "public",
      revision: 1,
    });
  });

  const posts = (args: Record<string, unknown>) =>
    visitor.request<{ posts: { edges: { node: { title: string } }[]; totalCount: number } }>(
      `query($q: String, $a: DateTime, $b: DateTime) { posts(search: $q, publishedAfter: $a, publishedBefore: $b) { edges { node { title } } totalCount } }`,
      { q: word, ...args },
    );
  const sermons = (args: Record<string, unknown>) =>
    visitor.request<{ sermons: { edges: { node: { title: string } }[]; totalCount: number } }>(
      `query($q: String, $a: DateTime, $b: DateTime) { sermons(search: $q, publishedAfter: $a, publishedBefore: $b) { edges { node { title } } totalCount } }`,
      { q: word, ...args },
    );
  const titles = (edges: { node: { title: string } }[]) => edges.map((e) => e.node.title);

  it("filter the news list: publishedAfter inclusive, publishedBefore exclusive, any offset", async () => {
    const all = await posts({});
    expect(all.data!.posts.totalCount).toBe(3);
    const range = await posts({ a: "2001-03-10T12:00:00Z", b: "2001-03-20T12:00:00Z" });
    expect(range.errors).toBeUndefined();
    expect(titles(range.data!.posts.edges)).toEqual([`${word} post 10`]);
    expect(range.data!.posts.totalCount).toBe(1);
    // 07:00 at -05:00 is 12:00 UTC: the post of the 20th is on the boundary, so included.
    const after = await posts({ a: "2001-03-20T07:00:00-05:00" });
    expect(titles(after.data!.posts.edges)).toEqual([`${word} post 20`]);
    const before = await posts({ b: "2001-03-10T00:00:00Z" });
    expect(titles(before.data!.posts.edges)).toEqual([`${word} post 1`]);
  });

  it("filter the sermons list the same way", async () => {
    const range = await sermons({ a: "2001-03-02T00:00:00Z", b: "2001-03-31T00:00:00Z" });
    expect(range.errors).toBeUndefined();
    expect(titles(range.data!.sermons.edges)).toEqual([`${word} sermon 20`, `${word} sermon 10`]);
    expect(range.data!.sermons.totalCount).toBe(2);
  });

  it("refuse dates that are not ISO 8601 with an offset, and empty ranges (BAD_USER_INPUT with the field)", async () => {
    for (const [args, field, code] of [
      [{ a: "yesterday" }, "publishedAfter", "invalid_date"],
      [{ b: "2001-03-10" }, "publishedBefore", "invalid_date"],
      [{ a: "2001-03-10T12:00:00" }, "publishedAfter", "invalid_date"],
      [{ a: "2001-03-10T12:00:00Z", b: "2001-03-10T12:00:00Z" }, "publishedBefore", "before_start"],
    ] as const) {
      for (const result of [await posts(args), await sermons(args)]) {
        expect(errorCode(result), JSON.stringify(result.errors)).toBe("BAD_USER_INPUT");
        const { fieldErrors, fieldErrorCodes } = result.errors![0]!.extensions as {
          fieldErrors: Record<string, string>;
          fieldErrorCodes: Record<string, string>;
        };
        expect(fieldErrorCodes[field]).toBe(code);
        expect(fieldErrors[field]).toMatch(/publishedAfter|ISO 8601/);
      }
    }
  });
});
