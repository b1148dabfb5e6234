import { describe, expect, it, vi } from "vitest";
import {
  capContainerNesting,
  embedFor,
  type ImageInfo,
  imageUrls,
  plainText,
  renderMarkdown,
  slugify,
} from "./render.ts";

const SITE = "https://grace.example";
const render = (markdown: string, resolveImages?: (urls: string[]) => Promise<Map<string, ImageInfo>>) =>
  renderMarkdown(markdown, { siteOrigin: SITE, ...(resolveImages ? { resolveImages } : {}) });
const EXTERNAL = 'rel="noopener noreferrer" target="_blank"';
const YT = "dQw4w9WgXcQ";

describe("GFM", () => {
  it("renders tables with alignment", async () => {
    const html = await render("| Left | Centre | Right |\n|:--|:-:|--:|\n| a | b | c |");
    expect(html).toContain('<th align="left">Left</th>');
    expect(html).toContain('<th align="center">Centre</th>');
    expect(html).toContain('<td align="right">c</td>');
    expect(html).toMatch(/<table>\s*<thead>[\s\S]*<tbody>/);
  });

  it("renders strikethrough, emphasis, code and breaks", async () => {
    const html = await render("~~old~~ **bold** _em_ `a<b`\nline  \nnext");
    expect(html).toContain("<del>old</del>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>em</em>");
    expect(html).toContain("<code>a&#x3C;b</code>");
    expect(html).toContain("<br>");
  });

  it("renders autolinks (literal, www and angle brackets) and emails", async () => {
    const html = await render(
      "Visit https://example.org/x, www.example.com or <https://a.example> and office@grace.example",
    );
    expect(html).toContain(`<a href="https://example.org/x" ${EXTERNAL}>https://example.org/x</a>,`);
    expect(html).toContain(`<a href="http://www.example.com" ${EXTERNAL}>www.example.com</a>`);
    expect(html).toContain(`<a href="https://a.example" ${EXTERNAL}>https://a.example</a>`);
    expect(html).toContain('<a href="mailto:office@grace.example">office@grace.example</a>');
  });

  it("renders task lists as disabled checkboxes", async () => {
    const html = await render("- [x] Set up chairs\n- [ ] Print bulletins");
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain(
      '<li class="task-list-item"><input type="checkbox" checked disabled> Set up chairs</li>',
    );
    expect(html).toContain(
      '<li class="task-list-item"><input type="checkbox" disabled> Print bulletins</li>',
    );
  });

  it("keeps ordered list starts, blockquotes, rules and fenced code with its language", async () => {
    const html = await render("3. three\n4. four\n\n> quoted\n\n---\n\n```js\nconst a = '<b>';\n```");
    expect(html).toContain('<ol start="3">');
    expect(html).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(html).toContain("<hr>");
    expect(html).toContain("<pre><code class=\"language-js\">const a = '&#x3C;b>';\n</code></pre>");
  });

  it("drops a fenced code language that is not a plain word", async () => {
    const html = await render('```js"onclick=alert(1)\nx\n```');
    expect(html).toContain("<pre><code>x\n</code></pre>");
  });

  it("renders footnotes with working links and the app's visually-hidden label", async () => {
    const html = await render("Grace[^1].\n\n[^1]: Ephesians 2:8.");
    expect(html).toContain(
      '<a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref aria-describedby="footnote-label">1</a>',
    );
    expect(html).toContain('<h2 class="visually-hidden" id="footnote-label">Footnotes</h2>');
    expect(html).toContain('<li id="user-content-fn-1">');
    expect(html).toContain('href="#user-content-fnref-1"');
  });
});

describe("raw HTML", () => {
  it("is shown as text, never as markup", async () => {
    const html = await render(
      'Hello <b onclick="x()">bold</b>\n\n<div class="x">\nblock\n</div>\n\n<script>alert(1)</script>',
    );
    expect(html).toContain('Hello &#x3C;b onclick="x()">bold&#x3C;/b>');
    expect(html).toContain('<p>&#x3C;div class="x">\nblock\n&#x3C;/div></p>');
    expect(html).toContain("<p>&#x3C;script>alert(1)&#x3C;/script></p>");
    expect(html).not.toMatch(/<(b|div|script)[\s>]/);
  });

  it("drops comments and keeps <br> as a line break", async () => {
    const html = await render("one<br>two <!-- note to self -->\n\n<!--\nhidden\n-->\n\nafter");
    expect(html).toBe("<p>one<br>\ntwo </p>\n<p>after</p>");
  });
});

describe("headings", () => {
  it("maps # to h2 (the page title is the h1) and gives every heading a stable, unique id", async () => {
    const html = await render(
      "# Welcome\n\n## Welcome\n\n### ¿Quiénes somos?\n\n#### `code` and **bold**\n\n## !!!\n\n###### Six",
    );
    expect(html).not.toContain("<h1");
    expect(html).toContain('<h2 id="welcome">Welcome</h2>');
    expect(html).toContain('<h2 id="welcome-1">Welcome</h2>');
    expect(html).toContain('<h3 id="quiénes-somos">¿Quiénes somos?</h3>');
    expect(html).toContain('<h4 id="code-and-bold"><code>code</code> and <strong>bold</strong></h4>');
    expect(html).toContain('<h2 id="section">!!!</h2>');
    expect(html).toContain('<h6 id="six">Six</h6>');
    expect(await render("# Welcome\n\n## Welcome")).toBe(await render("# Welcome\n\n## Welcome"));
  });

  it("never reuses the footnote label's id", async () => {
    const html = await render("## Footnote label\n\nA[^n].\n\n[^n]: note");
    expect(html).toContain('<h2 id="footnote-label-1">Footnote label</h2>');
    expect(html).toContain('<h2 class="visually-hidden" id="footnote-label">');
  });

  it("slugs are letters, digits and dashes only, and bounded", () => {
    expect(slugify("  Hello, World!  ")).toBe("hello-world");
    expect(slugify("Plan a visit — 10:30 AM")).toBe("plan-a-visit-10-30-am");
    expect(slugify('"><img src=x onerror=alert(1)>')).toBe("img-src-x-onerror-alert-1");
    expect(slugify("🙏")).toBe("section");
    expect(slugify("a ".repeat(100)).length).toBeLessThanOrEqual(80);
  });
});

describe("links", () => {
  it("opens other origins in a new tab without referrer or opener; same-site links stay plain", async () => {
    const html = await render(
      "[about](/p/about) [top](#top) [rel](beliefs) [abs](https://grace.example/news) [out](https://example.org) [proto](//evil.example/x) [http](http://grace.example/p) [mail](mailto:office@grace.example) [call](tel:+15551234567)",
    );
    expect(html).toContain('<a href="/p/about">about</a>');
    expect(html).toContain('<a href="#top">top</a>');
    expect(html).toContain('<a href="beliefs">rel</a>');
    expect(html).toContain('<a href="https://grace.example/news">abs</a>');
    expect(html).toContain(`<a href="https://example.org" ${EXTERNAL}>out</a>`);
    expect(html).toContain(`<a href="//evil.example/x" ${EXTERNAL}>proto</a>`);
    // Another scheme is another origin.
    expect(html).toContain(`<a href="http://grace.example/p" ${EXTERNAL}>http</a>`);
    expect(html).toContain('<a href="mailto:office@grace.example">mail</a>');
    expect(html).toContain('<a href="tel:+15551234567">call</a>');
  });

  it("keeps only the text of links to other schemes", async () => {
    const html = await render(
      "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,x) [d](ftp://x.example) [e](vbscript:x) <javascript:alert(1)>",
    );
    expect(html).toBe("<p>a b c d e javascript:alert(1)</p>");
  });

  it("escapes link titles", async () => {
    const html = await render('[a](https://x.example "\\" onmouseover=\\"alert(1)")');
    expect(html).toContain('title="&#x22; onmouseover=&#x22;alert(1)"');
  });

  it("resolves reference-style links", async () => {
    const html = await render("[our beliefs][b]\n\n[b]: /p/beliefs 'Beliefs'");
    expect(html).toBe('<p><a href="/p/beliefs" title="Beliefs">our beliefs</a></p>');
  });
});

describe("images", () => {
  const library = new Map<string, ImageInfo>([
    ["/files/media/abc123/choir.jpg", { width: 1200, height: 800, alt: "The choir singing at Easter" }],
    [
      "https://grace.example/files/media/def456/hall.png",
      { width: 640, height: 480, alt: "The church hall" },
    ],
  ]);

  it("are lazy and async, with dimensions and the media alt when the Markdown has none", async () => {
    const resolveImages = vi.fn(
      async (urls: string[]) =>
        new Map(urls.flatMap((url) => (library.has(url) ? [[url, library.get(url)!] as const] : []))),
    );
    const html = await render(
      '![](/files/media/abc123/choir.jpg) ![Our hall](https://grace.example/files/media/def456/hall.png) ![again](/files/media/abc123/choir.jpg) ![unknown](/files/media/zzz/x.png) ![cdn](https://cdn.example/a.png "Title")',
      resolveImages,
    );
    expect(html).toContain(
      '<img src="/files/media/abc123/choir.jpg" alt="The choir singing at Easter" width="1200" height="800" loading="lazy" decoding="async">',
    );
    // The Markdown's own alt wins; absolute same-site URLs become paths.
    expect(html).toContain(
      '<img src="/files/media/def456/hall.png" alt="Our hall" width="640" height="480" loading="lazy" decoding="async">',
    );
    expect(html).toContain(
      '<img src="/files/media/abc123/choir.jpg" alt="again" width="1200" height="800" loading="lazy" decoding="async">',
    );
    expect(html).toContain(
      '<img src="/files/media/zzz/x.png" alt="unknown" loading="lazy" decoding="async">',
    );
    // Images from other sites are not shown (privacy; the CSP would block them): their alt text stays.
    expect(html).not.toContain("cdn.example");
    expect(html).toContain("cdn");
    // One batched call, each distinct library URL once, as written in the Markdown.
    expect(resolveImages).toHaveBeenCalledTimes(1);
    expect(resolveImages.mock.calls[0]![0]).toEqual([
      "/files/media/abc123/choir.jpg",
      "https://grace.example/files/media/def456/hall.png",
      "/files/media/zzz/x.png",
    ]);
  });

  it("resolves reference-style images", async () => {
    const html = await render("![][choir]\n\n[choir]: /files/media/abc123/choir.jpg", async () => library);
    expect(html).toBe(
      '<p><img src="/files/media/abc123/choir.jpg" alt="The choir singing at Easter" width="1200" height="800" loading="lazy" decoding="async"></p>',
    );
  });

  it("ignores dimensions that are not sensible numbers", async () => {
    const html = await render(
      "![x](/files/a/b/c.png)",
      async () => new Map([["/files/a/b/c.png", { width: Number.NaN, height: -3, alt: "" }]]),
    );
    expect(html).toBe('<p><img src="/files/a/b/c.png" alt="x" loading="lazy" decoding="async"></p>');
  });

  it("does not call the resolver without library images", async () => {
    const resolveImages = vi.fn(async () => new Map<string, ImageInfo>());
    await render("![a](https://cdn.example/a.png) text", resolveImages);
    expect(resolveImages).not.toHaveBeenCalled();
  });

  it("keeps only the alt text of images from other places (http, other schemes, non-library paths)", async () => {
    const html = await render(
      "![http](http://cdn.example/a.png) ![js](javascript:alert(1)) ![data](data:image/png;base64,AAAA) ![](ftp://cdn.example/x.png) ![page](/p/about) ![rel](choir.jpg)",
    );
    expect(html).toBe("<p>http js data  page rel</p>");
  });

  it("shows images from other sites (also protocol-relative ones) as their alt text", async () => {
    expect(await render("![x](//cdn.example/x.png)")).toBe("<p>x</p>");
    expect(await render("![y](https://cdn.example/y.png)")).toBe("<p>y</p>");
  });
});

describe("embeds", () => {
  const youtubeBlock = `<figure class="embed" data-embed-provider="youtube" data-embed-src="https://www.youtube-nocookie.com/embed/${YT}"><a class="embed__link" href="https://www.youtube.com/watch?v=${YT}" ${EXTERNAL}>Watch on YouTube</a></figure>`;

  it.each([
    `https://www.youtube.com/watch?v=${YT}`,
    `https://youtube.com/watch?v=${YT}&t=42s`,
    `https://m.youtube.com/watch?v=${YT}`,
    `https://youtu.be/${YT}`,
    `https://youtu.be/${YT}?si=abc`,
    `https://www.youtube.com/embed/${YT}`,
    `https://www.youtube-nocookie.com/embed/${YT}`,
    `<https://youtu.be/${YT}>`,
    `[https://youtu.be/${YT}](https://youtu.be/${YT})`,
    `www.youtube.com/watch?v=${YT}`,
  ])("turns a paragraph that is only %s into a click-to-load block", async (markdown) => {
    expect(await render(markdown)).toBe(youtubeBlock);
  });

  it.each([
    "https://vimeo.com/76979871",
    "https://player.vimeo.com/video/76979871",
    "https://www.vimeo.com/76979871",
  ])("embeds Vimeo (%s)", async (markdown) => {
    expect(await render(markdown)).toBe(
      `<figure class="embed" data-embed-provider="vimeo" data-embed-src="https://player.vimeo.com/video/76979871"><a class="embed__link" href="https://vimeo.com/76979871" ${EXTERNAL}>Watch on Vimeo</a></figure>`,
    );
  });

  it("a [title](video URL) alone on its line is a video block with that title (as text)", async () => {
    expect(await render(`[Carols by candlelight 2025](https://youtu.be/${YT})`)).toBe(
      `<figure class="embed" data-embed-provider="youtube" data-embed-src="https://www.youtube-nocookie.com/embed/${YT}"><a class="embed__link" href="https://www.youtube.com/watch?v=${YT}" ${EXTERNAL}>Play: Carols by candlelight 2025 (YouTube)</a><figcaption class="embed__title">Carols by candlelight 2025</figcaption></figure>`,
    );
    // The title is text: raw HTML in it is shown, never run.
    expect(await render(`[Carols <img src=x onerror=alert(1)>](https://youtu.be/${YT})`)).toContain(
      '<figcaption class="embed__title">Carols &#x3C;img src=x onerror=alert(1)></figcaption>',
    );
    // Within a sentence it stays a link.
    expect(await render(`Watch [the carols](https://youtu.be/${YT}) again.`)).not.toContain("embed");
  });

  it("never puts an iframe in the HTML", async () => {
    expect(await render(`https://youtu.be/${YT}\n\nhttps://vimeo.com/1`)).not.toContain("iframe");
  });

  it.each([
    ["a short id", "https://youtu.be/dQw4w9WgXc"],
    ["a long id", "https://youtu.be/dQw4w9WgXcQQ"],
    ["an id with other characters", "https://www.youtube.com/watch?v=dQw4w9WgX.Q"],
    ["two v parameters", `https://www.youtube.com/watch?v=${YT}&v=aaaaaaaaaaa`],
    ["another host with the path", `https://evil.example/youtube.com/watch?v=${YT}`],
    ["a look-alike host", `https://youtube.com.evil.example/watch?v=${YT}`],
    ["credentials", `https://user@youtube.com/watch?v=${YT}`],
    ["a port", `https://youtu.be:8443/${YT}`],
    ["a playlist", "https://www.youtube.com/playlist?list=PL123"],
    ["Vimeo with letters", "https://vimeo.com/76979871x"],
    ["a Vimeo channel", "https://vimeo.com/channels/staffpicks"],
  ])("leaves %s as a plain link", async (_, url) => {
    const html = await render(url);
    expect(html).not.toContain("embed");
    expect(html).toContain(`${EXTERNAL}>`);
  });

  it("rebuilds the embed from the validated id, never from the input", () => {
    expect(embedFor(`https://www.youtube.com/watch?v=${YT}&autoplay=1&origin=https://evil.example`)).toEqual({
      provider: "youtube",
      id: YT,
    });
    expect(embedFor(`javascript://youtube.com/watch?v=${YT}`)).toBeNull();
    expect(embedFor(`https://www.youtube.com/watch?v=${YT}"onerror=`)).toBeNull();
  });

  it("keeps video links in lists, sentences, quotes and with other text as plain links", async () => {
    const url = `https://youtu.be/${YT}`;
    for (const markdown of [
      `- ${url}`,
      `1. ${url}\n\n2. two`,
      `Watch ${url} today`,
      `> ${url}`,
      `[www.grace.example](${url})`,
      `${url}.`,
      `**${url}**`,
    ]) {
      const html = await render(markdown);
      expect(html, markdown).not.toContain("<figure");
      expect(html, markdown).toContain(`href="${url}"`);
    }
  });
});

describe("imageUrls", () => {
  it("lists every image URL in document order, once, with references resolved", () => {
    expect(
      imageUrls(
        "![a](/files/m/1/a.png)\n\n- ![b](https://cdn.example/b.png)\n\n![c][ref] ![again](/files/m/1/a.png) [![in a link](/files/m/2/c.png)](/x)\n\n[ref]: /files/m/3/d.png\n\n`![not](/code.png)`",
      ),
    ).toEqual(["/files/m/1/a.png", "https://cdn.example/b.png", "/files/m/3/d.png", "/files/m/2/c.png"]);
  });

  it("is empty without images", () => {
    expect(imageUrls("Just [a link](/x).")).toEqual([]);
  });
});

describe("plainText", () => {
  it("is the prose without markup, raw HTML, images or link targets", () => {
    expect(
      plainText(
        "# Welcome\n\nWe are **glad** you're _here_. See [our beliefs](/p/beliefs)!<br>Bye <b>now</b>\n\n![photo](/files/x.png)\n\n- one\n- two\n\n| a | b |\n|-|-|\n| c | d |\n\n`code`",
      ),
    ).toBe("Welcome We are glad you're here. See our beliefs! Bye now one two a b c d code");
  });

  it("collapses whitespace", () => {
    expect(plainText("  a\n\n\n   b\tc  ")).toBe("a b c");
  });

  it("truncates on a word boundary with an ellipsis, within max characters", () => {
    const text = "Join us this Sunday for worship, fellowship and a shared lunch after the service.";
    const short = plainText(text, 40);
    expect(short).toBe("Join us this Sunday for worship…");
    expect(short.length).toBeLessThanOrEqual(40);
    expect(plainText(text, 200)).toBe(text);
    expect(plainText(text, text.length)).toBe(text);
    expect(plainText("Hello world", 6)).toBe("Hello…");
    expect(plainText("Supercalifragilistic", 8)).toBe("Superca…");
    expect(plainText("Hello", 0)).toBe("");
  });

  it("summarises a long body from its first blocks, with references defined anywhere still resolved", () => {
    // Long enough that short summaries parse only the first blocks (the first window is 2,000
    // characters), and small enough that the whole-document cases stay cheap: this test once parsed
    // 80,000 characters of Markdown and timed out on a loaded machine.
    const filler = Array.from(
      { length: 100 },
      (_, i) => `Paragraph ${i} about [our mission][m] and grace[^n].`,
    ).join("\n\n");
    const markdown = `Intro with [a link][m] and \`code\`.\n\n\`\`\`\nunclosed? no, closed\n\n[m]: /fake-inside-code\n\`\`\`\n\n${filler}\n\n[m]: /p/mission "Mission"\n[^n]: A note.\n`;
    expect(markdown.length).toBeGreaterThan(5_000);
    const full = plainText(markdown);
    expect(full).not.toContain("[our mission]");
    expect(full.length).toBeGreaterThan(3_500);
    for (const max of [1, 40, 120, 500, 3_000]) {
      const summary = plainText(markdown, max);
      expect(summary.length).toBeLessThanOrEqual(max);
      expect(summary.endsWith("…")).toBe(true);
      expect(full.startsWith(summary.slice(0, -1))).toBe(true);
    }
    expect(plainText(markdown, 90)).toBe(
      "Intro with a link and code. unclosed? no, closed [m]: /fake-inside-code Paragraph 0 about…",
    );
    expect(plainText(markdown, 10 ** 6)).toBe(full);
  });

  it("never splits an emoji", () => {
    const result = plainText("ab🙏🙏🙏🙏", 4);
    expect(result).toBe("ab…");
  });
});

describe("robustness", () => {
  // A long, realistic body, checked for what it renders, section by section. How long 200,000
  // characters (the body limit) take is measured by `npm run bench:markdown`, which also checks that
  // every section and image of that body comes out.
  it("renders a body of many sections exactly, every image resolved once with its size", async () => {
    const section = (n: number) =>
      `## Section ${n}\n\nWe gather **every Sunday** at _10:30_ — see [the calendar](/events) or https://example.org/${n}.\n\n- [x] Coffee\n- [ ] Chairs\n\n| Day | Time |\n|:--|--:|\n| Sun | 10:30 |\n\n> Grace and peace.\n\n\`\`\`\ncode ${n}\n\`\`\`\n\n![Photo](/files/media/r${n}/p.jpg)\n\n`;
    const sectionHtml = (n: number) =>
      [
        `<h2 id="section-${n}">Section ${n}</h2>`,
        `<p>We gather <strong>every Sunday</strong> at <em>10:30</em> — see <a href="/events">the calendar</a> or <a href="https://example.org/${n}" ${EXTERNAL}>https://example.org/${n}</a>.</p>`,
        `<ul class="contains-task-list">`,
        `<li class="task-list-item"><input type="checkbox" checked disabled> Coffee</li>`,
        `<li class="task-list-item"><input type="checkbox" disabled> Chairs</li>`,
        `</ul>`,
        `<table>\n<thead>\n<tr>\n<th align="left">Day</th>\n<th align="right">Time</th>\n</tr>\n</thead>`,
        `<tbody>\n<tr>\n<td align="left">Sun</td>\n<td align="right">10:30</td>\n</tr>\n</tbody>\n</table>`,
        `<blockquote>\n<p>Grace and peace.</p>\n</blockquote>`,
        `<pre><code>code ${n}\n</code></pre>`,
        `<p><img src="/files/media/r${n}/p.jpg" alt="Photo" width="4" height="3" loading="lazy" decoding="async"></p>`,
      ].join("\n");
    const count = 40;
    const sections = Array.from({ length: count }, (_, n) => n);
    const markdown = sections.map(section).join("");
    const resolve = vi.fn(
      async (urls: string[]) => new Map(urls.map((url) => [url, { width: 4, height: 3, alt: "" }])),
    );
    const html = await render(markdown, resolve);
    expect(html).toBe(sections.map(sectionHtml).join("\n"));
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve.mock.calls[0]![0]).toEqual(sections.map((n) => `/files/media/r${n}/p.jpg`));
    expect(plainText(markdown, 160).length).toBeLessThanOrEqual(160);
  });

  it.each([
    [">", ">".repeat(200_000)],
    ["> ", "> ".repeat(100_000)],
    ["1. ", "1. ".repeat(66_000)],
    ["> - 1. ", "> - 1. ".repeat(28_000)],
  ])(
    "renders thousands of nested containers on one line (%s…) without overflowing the stack",
    async (_, markdown) => {
      const html = await render(markdown);
      expect(html.length).toBeGreaterThan(0);
    },
    60_000,
  );

  it("renders stairs of ever more indented nested lists", async () => {
    let markdown = "";
    for (let i = 0; markdown.length < 200_000; i++)
      markdown += `${"  ".repeat(i * 32)}${"- ".repeat(32)}item ${i}\n`;
    expect((await render(markdown)).length).toBeGreaterThan(0);
  }, 60_000);

  it("caps container markers per line, leaving thematic breaks alone", () => {
    expect(capContainerNesting(`${"> ".repeat(40)}x`)).toBe(`${"> ".repeat(32)}\\${"> ".repeat(8)}x`);
    expect(capContainerNesting(`${"1. ".repeat(33)}x`)).toBe(`${"1. ".repeat(32)}1\\. x`);
    expect(capContainerNesting(`${" ".repeat(60)}${"- ".repeat(3)}x`)).toBe(`${" ".repeat(60)}- - \\- x`);
    expect(capContainerNesting("* ".repeat(50))).toBe("* ".repeat(50));
    const ordinary = "> quote\n- item\n  - nested\n1. one\n\n    code";
    expect(capContainerNesting(ordinary)).toBe(ordinary);
  });

  it("rejects a siteOrigin that is not http(s)", async () => {
    await expect(renderMarkdown("x", { siteOrigin: "javascript:alert(1)" })).rejects.toThrow(TypeError);
  });
});
