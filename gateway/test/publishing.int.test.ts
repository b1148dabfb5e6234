import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Parser from "rss-parser";
import type { Gateway } from "../src/index.ts";
import { publishDuePosts } from "../src/system/scheduled-publishing.ts";
import {
  createUser,
  CSRF_HEADER,
  errorCode,
  fileOf,
  GqlClient,
  multipartBody,
  pbAs,
  pngBytes,
  restStatus,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import {
  PublishingArchivePostsDocument,
  PublishingCreatePageDocument,
  PublishingCreatePageIdSlugDocument,
  PublishingCreatePostDocument,
  PublishingMediaUsageDocument,
  PublishingNavigationDocument,
  PublishingPostBySlugDocument,
  PublishingPublishedPostsDocument,
  PublishingPublishPostDocument,
  PublishingRenamePostDocument,
  PublishingUpdatePostBodyDocument,
  type PostInput,
} from "./__generated__/operations.ts";

let gateway: Gateway;
/** The same gateway's HTTP routes (HTML, feeds, sitemap) on a port, with an app shell. */
let http: Gateway;
let url: string;
let editor: TestUser;
let editorClient: GqlClient;
let seq = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}${seq++}`;

beforeAll(async () => {
  gateway = await testGateway({ publicUrl: "http://flock.test" });
  // The HTML, feed and sitemap routes are plain HTTP: listen on a port for them, with an app shell.
  const webDist = await mkdtemp(join(tmpdir(), "flock-web-"));
  await writeFile(
    join(webDist, "index.html"),
    '<!doctype html><html lang="en"><head><title>x</title><!--flock:head--></head><body><div id="root"></div></body></html>',
  );
  http = await testGateway({ port: 0, webDist });
  url = await http.listen();
  editor = await createUser({ roles: ["Editor"], name: "Erin Editor" });
  editorClient = new GqlClient(gateway, { token: editor.token });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), http?.close()]);
});

// The operations are in ./operations/publishing.graphql (typed by npm run codegen).
async function createPost(client: GqlClient, input: PostInput) {
  const result = await client.execute(PublishingCreatePostDocument, { i: input });
  expect(result.errors).toBeUndefined();
  return result.data!.createPost;
}
// Without `html`: the first render of a post should be the reader's (rendered HTML is cached).
const publish = (client: GqlClient, id: string, publishAt?: string) =>
  client.execute(PublishingPublishPostDocument, { id, at: publishAt ?? null });
const postBySlug = (client: GqlClient, slug: string) =>
  client.execute(PublishingPostBySlugDocument, { s: slug });

async function uploadImage(client: GqlClient, alt: string | null, [width, height] = [12, 8]) {
  const form = multipartBody(
    `mutation($f: File!, $alt: String) { uploadMedia(file: $f, alt: $alt) { id url path width height kind alt } }`,
    "f",
    fileOf(pngBytes(width, height), "choir.png", "image/png"),
    "choir.png",
    { alt },
  );
  const result = await client.request<{
    uploadMedia: {
      id: string;
      url: string;
      path: string;
      width: number;
      height: number;
      kind: string;
      alt: string;
    };
  }>(
    "",
    {},
    {
      body: form,
      headers: { [CSRF_HEADER]: "1" },
    },
  );
  expect(result.errors).toBeUndefined();
  return result.data!.uploadMedia;
}

describe("posts: draft → published, rendered, visible to the right people", () => {
  it("keeps drafts from visitors (GraphQL and REST), publishes, and renders sanitized HTML", async () => {
    const post = await createPost(editorClient, {
      title: unique("Harvest supper"),
      summary: "Bring a dish to share.",
      body: "# Menu\n\n- soup\n- bread\n\nSee [the map](https://maps.example/x) or [our page](/p/about).\n\n<script>alert(1)</script>",
    });
    expect(post.slug).toMatch(/^harvest-supper-/);
    expect(post.path).toBe(`/news/${post.slug}`);
    const visitor = new GqlClient(gateway);
    expect((await postBySlug(visitor, post.slug)).data).toEqual({ post: null });
    expect(await restStatus(() => pbAs(null).collection("posts").getOne(post.id))).toBe(404);
    expect(
      (
        await pbAs(null)
          .collection("posts")
          .getList(1, 50, { filter: `id = "${post.id}"` })
      ).items,
    ).toEqual([]);

    const published = await publish(editorClient, post.id);
    expect(published.data?.publishPost).toMatchObject({ status: "PUBLISHED", authorName: "Erin Editor" });
    const seen = (await postBySlug(visitor, post.slug)).data!.post!;
    expect(seen.html).toContain("<h2");
    expect(seen.html).toContain("<li>soup</li>");
    expect(seen.html).toMatch(/<a href="https:\/\/maps\.example\/x"[^>]*rel="noopener noreferrer"/);
    // Links within the site are absolute on the public origin (integrators show this HTML elsewhere).
    expect(seen.html).toMatch(/<a href="http:\/\/flock\.test\/p\/about">/);
    expect(seen.html).not.toContain("<script");
    expect(await restStatus(() => pbAs(null).collection("posts").getOne(post.id))).toBe(200);
  });

  it("shows members-only posts to active members only (GraphQL and REST)", async () => {
    const post = await createPost(editorClient, {
      title: unique("Members meeting"),
      audience: "MEMBERS",
      body: "Agenda inside.",
    });
    await publish(editorClient, post.id);
    const member = await createUser();
    const pending = await createUser({ person: "pending" });
    for (const [who, user, visible] of [
      ["visitor", null, false],
      ["pending member", pending, false],
      ["member", member, true],
    ] as const) {
      const client = user ? new GqlClient(gateway, { token: user.token }) : new GqlClient(gateway);
      expect((await postBySlug(client, post.slug)).data?.post !== null, who).toBe(visible);
      expect(await restStatus(() => pbAs(user).collection("posts").getOne(post.id)), who).toBe(
        visible ? 200 : 404,
      );
      const list = await client.execute(PublishingPublishedPostsDocument);
      expect(
        list.data!.posts.edges.some((e) => e.node.id === post.id),
        who,
      ).toBe(visible);
    }
  });

  it("generates unique slugs and refuses a taken or malformed one", async () => {
    const title = unique("Youth camp");
    const a = await createPost(editorClient, { title });
    const b = await createPost(editorClient, { title });
    expect(b.slug).toBe(`${a.slug}-2`);
    const taken = await editorClient.request(`mutation($i: PostInput!) { createPost(input: $i) { id } }`, {
      i: { title: "Other", slug: a.slug },
    });
    expect(errorCode(taken)).toBe("CONFLICT");
    const bad = await editorClient.request(`mutation($i: PostInput!) { createPost(input: $i) { id } }`, {
      i: { title: "Other", slug: "Not A Slug!" },
    });
    expect(bad.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ slug: "invalid_slug" });
  });

  it("refuses a save over a newer revision with CONFLICT and hands back the newer text", async () => {
    const post = await createPost(editorClient, { title: unique("Rota"), body: "first" });
    const update = (body: string, expectedRevision: number) =>
      editorClient.execute(PublishingUpdatePostBodyDocument, {
        id: post.id,
        i: { title: "Rota", body },
        r: expectedRevision,
      });
    const tabA = await update("tab A's text", post.revision);
    expect(tabA.data?.updatePost).toEqual({ revision: post.revision + 1, body: "tab A's text" });
    const tabB = await update("tab B's text", post.revision);
    expect(errorCode(tabB)).toBe("CONFLICT");
    expect(tabB.errors?.[0]?.extensions).toMatchObject({
      reason: "stale_revision",
      currentRevision: post.revision + 1,
      currentBody: "tab A's text",
    });
    const keepMine = await update("tab B's text", post.revision + 1);
    expect(keepMine.data?.updatePost.body).toBe("tab B's text");
  });

  it("schedules a post and publishes it when its time comes (the job survives restarts: state is in the database)", async () => {
    const post = await createPost(editorClient, { title: unique("Advent"), body: "Soon." });
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await publish(editorClient, post.id, inAnHour);
    expect(scheduled.data?.publishPost).toMatchObject({ status: "SCHEDULED" });
    expect((await postBySlug(new GqlClient(gateway), post.slug)).data?.post).toBeNull();
    expect(await publishDuePosts(gateway.services.system)).not.toContain(post.id);
    const published = await publishDuePosts(gateway.services.system, new Date(Date.now() + 2 * 3600_000));
    expect(published).toContain(post.id);
    const seen = (await postBySlug(new GqlClient(gateway), post.slug)).data!.post!;
    expect(seen.status).toBe("PUBLISHED");
    expect(Date.parse(seen.publishedAt as string)).toBe(Date.parse(inAnHour));
  });

  it("lets a content.edit-only role write drafts but not publish (FORBIDDEN, REST 404)", async () => {
    const su = await system();
    const role = await su
      .collection("roles")
      .create({ name: unique("Writer"), permissions: ["content.edit"] });
    const writer = await createUser();
    await su.collection("users").update(writer.id, { roles: [role.id] });
    const client = new GqlClient(gateway, { token: writer.token });
    const post = await createPost(client, { title: unique("Draft by writer") });
    expect(errorCode(await publish(client, post.id))).toBe("FORBIDDEN");
    expect(
      await restStatus(() => pbAs(writer).collection("posts").update(post.id, { status: "published" })),
    ).toBe(404);
    expect(
      await restStatus(() =>
        pbAs(writer)
          .collection("posts")
          .create({
            title: "x",
            slug: unique("x").replace(/\W+/g, "-").toLowerCase(),
            status: "published",
            audience: "public",
            author: writer.id,
          }),
      ),
    ).toBe(400);
    expect(
      await restStatus(() => pbAs(writer).collection("posts").update(post.id, { title: "still a draft" })),
    ).toBe(200);
  });

  it("archives in bulk and keeps archived posts from visitors", async () => {
    const a = await createPost(editorClient, { title: unique("Old notice") });
    const b = await createPost(editorClient, { title: unique("Older notice") });
    await publish(editorClient, a.id);
    await publish(editorClient, b.id);
    const archived = await editorClient.execute(PublishingArchivePostsDocument, { ids: [a.id, b.id] });
    expect(archived.data?.archivePosts).toEqual([{ status: "ARCHIVED" }, { status: "ARCHIVED" }]);
    expect((await postBySlug(new GqlClient(gateway), a.slug)).data?.post).toBeNull();
  });
});

describe("media library", () => {
  it("stores an upload with a stable URL and its size, and requires alt text before publishing content using it", async () => {
    const image = await uploadImage(editorClient, null);
    expect(image).toMatchObject({ kind: "IMAGE", width: 12, height: 8, alt: "" });
    // An absolute URL for integrators; the path is what Markdown stores.
    expect(image.path).toBe(`/files/media/${image.id}/${image.path.split("/").pop()}`);
    expect(image.url).toBe(`http://flock.test${image.path}`);
    expect((await fetch(`${url}${image.path}`)).status).toBe(200);

    const post = await createPost(editorClient, {
      title: unique("Choir"),
      body: `![](${image.path})\n\nOur choir.`,
    });
    const refused = await publish(editorClient, post.id);
    expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ body: "image_alt_missing" });
    await editorClient.request(
      `mutation($id: ID!) { updateMedia(id: $id, input: { alt: "The choir singing" }) { alt } }`,
      { id: image.id },
    );
    const published = await publish(editorClient, post.id);
    expect(published.errors).toBeUndefined();
    // Rendered for a visitor, who may view media items but not list the library.
    const html = (await postBySlug(new GqlClient(gateway), post.slug)).data!.post!.html as string;
    expect(html).toMatch(/<img[^>]*src="http:\/\/flock\.test\/files\/media\/[^"]+"/);
    expect(html).toMatch(/width="12"/);
    expect(html).toMatch(/alt="The choir singing"/);
    expect(html).toMatch(/loading="lazy"/);

    // In use: the library says where, and refuses to delete it.
    const usage = await editorClient.execute(PublishingMediaUsageDocument, { id: image.id });
    expect(usage.data?.media!.usedIn).toEqual([expect.objectContaining({ kind: "POST", id: post.id })]);
    expect(
      errorCode(await editorClient.request(`mutation($id: ID!) { deleteMedia(id: $id) }`, { id: image.id })),
    ).toBe("CONFLICT");
  });

  it("refuses files that are not allowed, and keeps the library from visitors and members", async () => {
    const form = multipartBody(
      `mutation($f: File!) { uploadMedia(file: $f) { id } }`,
      "f",
      fileOf(Buffer.from("<svg onload=alert(1)>"), "x.svg", "image/svg+xml"),
      "x.svg",
    );
    const svg = await editorClient.request("", {}, { body: form, headers: { [CSRF_HEADER]: "1" } });
    expect(errorCode(svg)).toBe("UNSUPPORTED_FILE_TYPE");
    const fake = multipartBody(
      `mutation($f: File!) { uploadMedia(file: $f) { id } }`,
      "f",
      fileOf(Buffer.from("not a png at all"), "x.png", "image/png"),
      "x.png",
    );
    expect(
      errorCode(await editorClient.request("", {}, { body: fake, headers: { [CSRF_HEADER]: "1" } })),
    ).toBe("UNSUPPORTED_FILE_TYPE");
    const member = await createUser();
    expect((await pbAs(member).collection("media").getList(1, 10)).items).toEqual([]);
    expect((await pbAs(null).collection("media").getList(1, 10)).items).toEqual([]);
    expect(
      await restStatus(() =>
        pbAs(member)
          .collection("media")
          .create({ kind: "image", uploadedBy: member.id, file: fileOf(pngBytes(), "a.png", "image/png") }),
      ),
    ).toBe(400);
    expect(
      errorCode(
        await new GqlClient(gateway, { token: member.token }).request(
          `mutation($id: ID!) { deleteMedia(id: $id) }`,
          { id: "abcdefghijklmno" },
        ),
      ),
    ).toBeDefined();
  });
});

describe("pages", () => {
  it("publishes a page into the navigation, in the editors' order", async () => {
    const create = (title: string) =>
      editorClient.execute(PublishingCreatePageDocument, {
        i: { title, showInNav: true, body: `About ${title}` },
      });
    const a = (await create(unique("Beliefs"))).data!.createPage;
    const b = (await create(unique("Staff"))).data!.createPage;
    const visitor = new GqlClient(gateway);
    expect(
      (await visitor.request(`query($s: String!) { page(slug: $s) { id } }`, { s: a.slug })).data,
    ).toEqual({ page: null });
    for (const page of [a, b])
      await editorClient.request(`mutation($id: ID!) { publishPage(id: $id) { status } }`, { id: page.id });
    await editorClient.request(`mutation($ids: [ID!]!) { reorderNavigation(pageIds: $ids) { path } }`, {
      ids: [b.id, a.id],
    });
    const nav = (await visitor.execute(PublishingNavigationDocument)).data!.navigation.map((l) => l.path);
    expect(nav.indexOf(`/p/${b.slug}`)).toBeLessThan(nav.indexOf(`/p/${a.slug}`));
    expect(
      (await visitor.request(`query($s: String!) { page(slug: $s) { html } }`, { s: a.slug })).data,
    ).toEqual({ page: { html: expect.stringContaining("About") } });
  });
});

describe("for integrators and link previews", () => {
  it("serves Open Graph, Twitter and JSON-LD meta for a post in the raw HTML, and 404 for unknown or hidden ones", async () => {
    const image = await uploadImage(editorClient, "Families at the picnic");
    const post = await createPost(editorClient, {
      title: unique("Picnic"),
      summary: "Sunday after church.",
      coverId: image.id,
    });
    expect((await fetch(`${url}/news/${post.slug}`)).status).toBe(404); // a draft: nothing to preview
    await publish(editorClient, post.id);
    const response = await fetch(`${url}/news/${post.slug}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<title>Picnic [^<]* · /);
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain('<meta property="og:description" content="Sunday after church.">');
    expect(html).toContain(`<meta property="og:url" content="http://flock.test/news/${post.slug}">`);
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/flock\.test\/files\/media\//);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(jsonLd).toMatchObject({
      "@type": "NewsArticle",
      headline: expect.stringContaining("Picnic"),
      url: `http://flock.test/news/${post.slug}`,
    });
    expect((await fetch(`${url}/news/no-such-post`)).status).toBe(404);
  });

  it("publishes a valid RSS feed with absolute URLs and no members-only posts, a sitemap and robots.txt", async () => {
    const open = await createPost(editorClient, {
      title: unique("Open house"),
      summary: "Everyone welcome.",
    });
    const closed = await createPost(editorClient, { title: unique("Members vote"), audience: "MEMBERS" });
    await publish(editorClient, open.id);
    await publish(editorClient, closed.id);
    const response = await fetch(`${url}/feeds/news.xml`);
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const feed = await new Parser().parseString(await response.text());
    const base = "http://flock.test"; // the configured public URL, not the address the test reached
    expect(feed.title).toContain("News");
    expect(feed.items.map((i) => i.link)).toContain(`${base}/news/${open.slug}`);
    expect(feed.items.map((i) => i.link)).not.toContain(`${base}/news/${closed.slug}`);
    for (const item of feed.items) expect(item.link).toMatch(/^https?:\/\//);
    const map = await (await fetch(`${url}/sitemap.xml`)).text();
    expect(map).toContain(`<loc>${base}/news/${open.slug}</loc>`);
    expect(map).not.toContain(closed.slug);
    const robots = await (await fetch(`${url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(robots).toContain("Disallow: /admin");
  });

  it("inserts editors' text literally into the served <head> ($` $' $& are not replacement patterns)", async () => {
    const title = unique("Harvest $` supper $'");
    const post = await createPost(editorClient, { title, summary: `Tickets $"free" $& more` });
    await publish(editorClient, post.id);
    const html = await (await fetch(`${url}/news/${post.slug}`)).text();
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<!doctype html>/g)).toHaveLength(1);
    const escapedTitle = title.replace(/'/g, "&#39;");
    expect(html).toContain(`<title>${escapedTitle} · `);
    expect(html).toContain(
      `<meta property="og:description" content="Tickets $&quot;free&quot; $&amp; more">`,
    );
    expect(html).toContain(`<meta name="description" content="Tickets $&quot;free&quot; $&amp; more">`);
  });

  it("never upscales the preview image: covers up to 1600 px wide are linked as they are, wider ones as the 1600 px thumb", async () => {
    const pngWidth = (bytes: Buffer) => bytes.readUInt32BE(16); // IHDR width
    const small = await uploadImage(editorClient, "Choir", [1200, 4]);
    const wide = await uploadImage(editorClient, "Hall", [1700, 4]);
    for (const [cover, expectedWidth, thumb] of [
      [small, 1200, false],
      [wide, 1600, true],
    ] as const) {
      const post = await createPost(editorClient, { title: unique("Cover"), coverId: cover.id });
      await publish(editorClient, post.id);
      const html = await (await fetch(`${url}/news/${post.slug}`)).text();
      const image = /<meta property="og:image" content="([^"]+)">/.exec(html)![1]!;
      expect(image.includes("?thumb="), image).toBe(thumb);
      const served = await fetch(image.replace("http://flock.test", url));
      expect(served.status).toBe(200);
      expect(pngWidth(Buffer.from(await served.arrayBuffer()))).toBe(expectedWidth);
    }
  });

  it("puts the rendered, sanitized post and page HTML into the served document for crawlers without JavaScript", async () => {
    const post = await createPost(editorClient, {
      title: unique("Crawlable"),
      summary: "Read without scripts.",
      body: "# Menu\n\n- soup\n- bread\n\n<script>alert(1)</script>\n\n[our page](/p/about)",
    });
    await publish(editorClient, post.id);
    const html = await (await fetch(`${url}/news/${post.slug}`)).text();
    const root = /<div id="root">([\s\S]*)<\/div><\/body>/.exec(html)![1]!;
    const rendered = (await postBySlug(editorClient, post.slug)).data!.post!.html as string;
    expect(root).toContain(`<h1>${post.title}</h1>`);
    expect(root).toContain("<p>Read without scripts.</p>");
    expect(root).toContain(rendered);
    expect(root).toContain("<li>soup</li>");
    expect(root).not.toContain("<script>");

    const created = await editorClient.execute(PublishingCreatePageIdSlugDocument, {
      i: { title: unique("Our beliefs"), body: "We believe in **grace**." },
    });
    const page = created.data!.createPage;
    expect(
      new RegExp(`<div id="root"></div>`).test(await (await fetch(`${url}/p/${page.slug}`)).text()),
    ).toBe(true); // a draft: nothing
    await editorClient.request(`mutation($id: ID!) { publishPage(id: $id) { status } }`, { id: page.id });
    const pageHtml = await (await fetch(`${url}/p/${page.slug}`)).text();
    expect(pageHtml).toMatch(
      /<div id="root"><main class="prerendered"><article><h1>Our beliefs [^<]*<\/h1><p>We believe in <strong>grace<\/strong>.<\/p>/,
    );

    const home = await (await fetch(`${url}/`)).text();
    const settings = (await (await system()).collection("settings").getFullList())[0]!;
    expect(home).toContain(
      `<div id="root"><main class="prerendered"><article><h1>${settings.churchName}</h1>`,
    );
    expect(home).toContain(`<a href="/news/${post.slug}">`);
  });

  it("redirects trailing-slash URLs to the one canonical URL (301), never to another host", async () => {
    const page = (
      await editorClient.execute(PublishingCreatePageIdSlugDocument, { i: { title: unique("About") } })
    ).data!.createPage;
    await editorClient.request(`mutation($id: ID!) { publishPage(id: $id) { status } }`, { id: page.id });
    for (const [path, location] of [
      ["/news/", "/news"],
      [`/p/${page.slug}/`, `/p/${page.slug}`],
      ["/news/?page=2", "/news?page=2"],
      ["/prayer//", "/prayer"],
    ]) {
      const response = await fetch(`${url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(301);
      expect(response.headers.get("location"), path).toBe(location);
    }
    expect((await fetch(`${url}/p/${page.slug}/`)).status).toBe(200); // followed
    const hostile = await fetch(`${url}/%2F%2Fevil.example/`, { redirect: "manual" });
    expect(hostile.headers.get("location") ?? "").toMatch(/^\/[^/\\]/);
  });

  it("lists the prayer wall and plan-a-visit in the sitemap", async () => {
    const map = await (await fetch(`${url}/sitemap.xml`)).text();
    expect(map).toContain("<loc>http://flock.test/prayer</loc>");
    expect(map).toContain("<loc>http://flock.test/visit</loc>");
    expect(map).toContain("<loc>http://flock.test/give</loc>");
  });

  it("RSS: full HTML in content:encoded, a guid from the post's id that survives a new slug, ETag/Last-Modified and 304", async () => {
    const post = await createPost(editorClient, {
      title: unique("Feed body"),
      summary: "Short.",
      body: "Full **text** ]]> here.\n\n<script>x</script>",
    });
    await publish(editorClient, post.id);
    const first = await fetch(`${url}/feeds/news.xml`);
    const xml = await first.text();
    const feed = await new Parser({ customFields: { item: ["content:encoded"] } }).parseString(xml);
    const item = feed.items.find((i) => i.link === `http://flock.test/news/${post.slug}`)!;
    expect(item["content:encoded"]).toContain("<strong>text</strong> ]]> here."); // the CDATA section survives a "]]>" in the text
    expect(item["content:encoded"]).not.toContain("<script>");
    expect(xml).toContain(`<guid isPermaLink="false">urn:flock:post:${post.id}</guid>`);

    const etag = first.headers.get("etag");
    const lastModified = first.headers.get("last-modified");
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(new Date(lastModified!).getTime()).toBeLessThanOrEqual(Date.now());
    const unchanged = await fetch(`${url}/feeds/news.xml`, { headers: { "if-none-match": etag! } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    expect(
      (await fetch(`${url}/feeds/news.xml`, { headers: { "if-modified-since": lastModified! } })).status,
    ).toBe(304);

    // A new slug: same guid, a new ETag, a full answer to the old validator.
    const current = (await postBySlug(editorClient, post.slug)).data!.post! as { revision: number };
    const renamed = await editorClient.execute(PublishingRenamePostDocument, {
      id: post.id,
      i: { title: `${post.title} (updated)`, slug: `${post.slug}-x` },
      r: current.revision,
    });
    expect(renamed.errors).toBeUndefined();
    // The edit of a live post is its working copy until "Update": the feed has not changed yet.
    expect((await fetch(`${url}/feeds/news.xml`, { headers: { "if-none-match": etag! } })).status).toBe(304);
    expect(
      (
        await editorClient.request(`mutation($id: ID!) { publishPostChanges(id: $id) { id } }`, {
          id: post.id,
        })
      ).errors,
    ).toBeUndefined();
    const changed = await fetch(`${url}/feeds/news.xml`, { headers: { "if-none-match": etag! } });
    expect(changed.status).toBe(200);
    const changedXml = await changed.text();
    expect(changedXml).toContain(`<guid isPermaLink="false">urn:flock:post:${post.id}</guid>`);
    expect(changedXml).toContain(`/news/${post.slug}-x</link>`);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});
