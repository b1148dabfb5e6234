import { Window } from "happy-dom";
import { afterAll, describe, expect, it } from "vitest";
import { XSS_VECTORS } from "../../test/fixtures/xss-vectors.ts";
import { renderMarkdown } from "./render.ts";

/**
 * QUALITY.md S3 at the unit level: every hostile vector, rendered, then parsed by a real HTML parser
 * (happy-dom) and walked element by element, attribute by attribute, against an allow-list. The
 * browser suite (e2e/xss.e2e.test.ts) then proves no script runs in Chromium.
 */

const SITE = "https://grace.example";

/** What the renderer may emit, per element (the sanitizer's schema plus the embed block). */
const ALLOWED: Record<string, readonly string[]> = {
  h2: ["id", "class"],
  h3: ["id"],
  h4: ["id"],
  h5: ["id"],
  h6: ["id"],
  p: [],
  a: [
    "href",
    "title",
    "rel",
    "target",
    "id",
    "class",
    "data-footnote-ref",
    "data-footnote-backref",
    "aria-describedby",
    "aria-label",
  ],
  strong: [],
  em: [],
  del: [],
  code: ["class"],
  pre: [],
  blockquote: [],
  ul: ["class"],
  ol: ["start", "class"],
  li: ["class", "id"],
  input: ["type", "checked", "disabled"],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ["align"],
  td: ["align"],
  hr: [],
  br: [],
  img: ["src", "alt", "title", "loading", "decoding", "width", "height"],
  sup: [],
  section: ["class", "data-footnotes"],
  figure: ["class", "data-embed-provider", "data-embed-src"],
  figcaption: ["class"],
};
const URL_ATTRIBUTES = new Set(["href", "src", "data-embed-src"]);
const SAFE_PROTOCOLS: Record<string, ReadonlySet<string>> = {
  href: new Set(["http:", "https:", "mailto:", "tel:"]),
  src: new Set(["http:", "https:"]),
  "data-embed-src": new Set(["https:"]),
};
const EMBED_SRC =
  /^https:\/\/(www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}|player\.vimeo\.com\/video\/[0-9]+)$/;

const window = new Window({
  url: SITE,
  settings: {
    disableJavaScriptEvaluation: true,
    disableJavaScriptFileLoading: true,
    disableCSSFileLoading: true,
    disableIframePageLoading: true,
    navigation: {
      disableMainFrameNavigation: true,
      disableChildFrameNavigation: true,
      disableChildPageNavigation: true,
    },
  },
});
afterAll(async () => {
  await window.happyDOM.close();
});

/** Everything wrong with one rendered vector, as readable lines (empty when it is safe). */
function problems(html: string): string[] {
  const found: string[] = [];
  if (/<\s*script/i.test(html)) found.push("contains <script");
  const container = window.document.createElement("div");
  container.innerHTML = html;
  for (const element of container.querySelectorAll("*")) {
    const tag = element.tagName.toLowerCase();
    const allowed = ALLOWED[tag];
    if (!allowed) {
      found.push(`element <${tag}>`);
      continue;
    }
    for (const attribute of element.attributes) {
      const name = attribute.name;
      const value = attribute.value ?? "";
      if (/^on/i.test(name)) found.push(`<${tag}> has event handler ${name}="${value}"`);
      else if (!allowed.includes(name)) found.push(`<${tag}> has attribute ${name}="${value}"`);
      if (URL_ATTRIBUTES.has(name)) {
        // Stricter than browsers (which skip leading controls and spaces, and tabs/newlines anywhere):
        // every control character and space is removed before the scheme is read.
        const squashed = [...value]
          .filter(
            (char) => char.charCodeAt(0) > 0x20 && (char.charCodeAt(0) < 0x7f || char.charCodeAt(0) > 0x9f),
          )
          .join("")
          .toLowerCase();
        if (/^(javascript|vbscript|data|livescript|mocha):/.test(squashed))
          found.push(`<${tag}> ${name} uses a script scheme: ${value}`);
        let protocol: string | null = null;
        try {
          protocol = new URL(value, SITE).protocol;
        } catch {
          found.push(`<${tag}> ${name} is not a URL: ${value}`);
        }
        if (protocol && !SAFE_PROTOCOLS[name]!.has(protocol))
          found.push(`<${tag}> ${name} has protocol ${protocol}`);
      }
    }
    if (tag === "input" && (element.getAttribute("type") !== "checkbox" || !element.hasAttribute("disabled")))
      found.push("an input that is not a disabled checkbox");
    if (tag === "figure") {
      if (element.getAttribute("class") !== "embed")
        found.push(`figure class ${element.getAttribute("class")}`);
      if (!EMBED_SRC.test(element.getAttribute("data-embed-src") ?? ""))
        found.push(`figure data-embed-src ${element.getAttribute("data-embed-src")}`);
      if (!["youtube", "vimeo"].includes(element.getAttribute("data-embed-provider") ?? ""))
        found.push("figure with an unknown provider");
    }
    if (element.hasAttribute("data-embed-src") && tag !== "figure") found.push(`data-embed-src on <${tag}>`);
    if (
      tag === "a" &&
      element.getAttribute("target") === "_blank" &&
      element.getAttribute("rel") !== "noopener noreferrer"
    )
      found.push("target=_blank without rel=noopener noreferrer");
  }
  return found;
}

describe("XSS vectors through renderMarkdown (QUALITY S3)", () => {
  it("has a few hundred vectors, each with its own id", () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(XSS_VECTORS.map((vector) => vector.id)).size).toBe(XSS_VECTORS.length);
  });

  it("the checker itself catches what it must", () => {
    expect(problems('<img src=x onerror="alert(1)">')).toContain(
      '<img> has event handler onerror="alert(1)"',
    );
    expect(problems('<a href=" java\tscript:alert(1)">x</a>')).toContain(
      "<a> href uses a script scheme:  java\tscript:alert(1)",
    );
    expect(problems("<svg><a></a></svg>")).toContain("element <svg>");
    expect(
      problems('<figure class="embed" data-embed-provider="youtube" data-embed-src="javascript:x"></figure>'),
    ).toContain("figure data-embed-src javascript:x");
    expect(problems("<p><strong>fine</strong></p>")).toEqual([]);
  });

  it("every vector renders to allow-listed elements and attributes only, with no script, handler or script URL", async () => {
    const failures: string[] = [];
    for (const vector of XSS_VECTORS) {
      const html = await renderMarkdown(vector.markdown, {
        siteOrigin: SITE,
        resolveImages: async (urls) =>
          new Map(urls.map((url) => [url, { width: 10, height: 10, alt: '" onerror="alert(0)' }])),
      });
      const found = problems(html);
      if (found.length)
        failures.push(
          `#${vector.id} (${vector.family}) ${JSON.stringify(vector.markdown)}\n  → ${html}\n  ✗ ${found.join("\n  ✗ ")}`,
        );
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
  }, 60_000);

  it("only the embed step produces embed markup, rebuilt from a validated id", async () => {
    for (const vector of XSS_VECTORS.filter((v) => v.family === "embed")) {
      const container = window.document.createElement("div");
      container.innerHTML = await renderMarkdown(vector.markdown, { siteOrigin: SITE });
      for (const element of container.querySelectorAll("[data-embed-src]")) {
        expect(element.tagName, vector.markdown).toBe("FIGURE");
        expect(element.getAttribute("data-embed-src"), vector.markdown).toMatch(EMBED_SRC);
      }
      expect(container.querySelectorAll("iframe").length, vector.markdown).toBe(0);
    }
  });
});
