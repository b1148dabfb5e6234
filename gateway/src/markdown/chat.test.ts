import { describe, expect, it } from "vitest";
import { renderChat } from "./chat.ts";

describe("chat Markdown-lite", () => {
  it("bold, italics, links and line breaks", () => {
    expect(renderChat("**Hi** *there*\nsee _this_")).toBe(
      "<strong>Hi</strong> <em>there</em><br>see <em>this</em>",
    );
    expect(renderChat("[notes](https://example.org/a?b=1&c=2)")).toBe(
      '<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer nofollow ugc" target="_blank">notes</a>',
    );
    expect(renderChat("go to https://example.org/x.")).toBe(
      'go to <a href="https://example.org/x" rel="noopener noreferrer nofollow ugc" target="_blank">https://example.org/x</a>.',
    );
  });

  it("no markup survives: tags, attributes and unsafe link schemes are text", () => {
    expect(renderChat('<img src=x onerror="alert(1)">')).toBe(
      "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;",
    );
    expect(renderChat("[click](javascript:alert(1))")).not.toContain("<a");
    expect(renderChat('[x](https://a.example/"onmouseover="alert(1))')).not.toMatch(/<a [^>]*\sonmouseover=/);
    expect(renderChat("**<script>alert(1)</script>**")).toBe(
      "<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>",
    );
  });

  it("a snake_case word or a multiplication stays as typed", () => {
    expect(renderChat("snake_case_name and 2*3*4")).toBe("snake_case_name and 2*3*4");
  });
});
