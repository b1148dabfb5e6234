import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import remarkStringify from "remark-stringify";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { markdownStyle } from "./markdown-style.ts";

// The editor's remark-stringify options, checked without a browser: Markdown → mdast → Markdown with
// them must render the same HTML, and bare links must stay bare only when GFM reads them back the same.
const rewrite = (markdown: string) =>
  String(
    unified().use(remarkParse).use(remarkGfm).use(remarkStringify, markdownStyle({})).processSync(markdown),
  );
const html = (markdown: string) =>
  String(
    unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeStringify).processSync(markdown),
  );

describe("markdownStyle", () => {
  it.each([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "Visit https://grace.example/events, or https://grace.example/p/a_b_c.",
    "Mail office@grace.example or first_last@grace.example!",
    "The diocese: www.diocese.example/news?page=2 today",
    "(see https://grace.example/safeguarding)",
    "- https://grace.example\n- www.grace.example",
  ])("keeps a bare link bare: %j", (markdown) => {
    expect(rewrite(markdown)).toBe(`${markdown}\n`);
  });

  it.each([
    ["<https://localhost/x>", "no dotted host: GFM would not link it"],
    ["<https://grace.example/x_>", "ends with _, which GFM trims"],
    ["<https://grace.example/x>abc", "followed by a letter"],
    ["a<https://grace.example/x>", "preceded by a letter"],
    ["<https://grace.example/(x)>", "parentheses"],
    ["<ftp://files.grace.example/x>", "not http(s)"],
    ['[https://grace.example](https://grace.example "Title")', "has a title"],
    ["[www.grace.example](https://www.grace.example)", "https, while GFM's www. links are http"],
  ])("keeps %j as it is (%s)", (markdown) => {
    expect(rewrite(markdown)).toBe(`${markdown}\n`);
  });

  it.each([
    "* one\n* two\n\n***\n\n<https://grace.example> and <office@grace.example>",
    "1. a\n\n   b\n2. c\n\n| x | y |\n|---|:-:|\n| https://grace.example | [z](https://grace.example/z) |",
    "Trailing https://grace.example/x. and https://grace.example/y? and https://grace.example/z!",
    "In 1986\\. the roof, 2 * 3 and a_b_c [x]",
  ])("writes Markdown that renders the same: %j", (markdown) => {
    const written = rewrite(markdown);
    expect(html(written)).toBe(html(markdown));
    expect(rewrite(written)).toBe(written);
  });

  it("writes - bullets and --- rules, and drops empty paragraphs", () => {
    expect(rewrite("* a\n\n***\n")).toBe("- a\n\n---\n");
    const tree = {
      type: "root" as const,
      children: [
        { type: "paragraph" as const, children: [{ type: "text" as const, value: "a" }] },
        { type: "paragraph" as const, children: [] },
      ],
    };
    expect(unified().use(remarkStringify, markdownStyle({})).stringify(tree)).toBe("a\n");
  });
});
