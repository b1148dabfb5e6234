import { describe, expect, it } from "vitest";
import type { SettingsRecord } from "../pocketbase/records.ts";
import { renderAppHtml } from "./app-html.ts";
import type { PageMeta } from "./page-meta.ts";

const TEMPLATE = `<!doctype html><html lang="en"><head><title>Flock</title><!--flock:head--></head><body><div id="root"></div></body></html>`;
const settings = { churchName: "Grace", tagline: "", locale: "en", brandColor: "" } as SettingsRecord;
const url = new URL("https://grace.example/news/x");

const render = (meta: Partial<PageMeta>, overrides: Partial<SettingsRecord> = {}) =>
  renderAppHtml(
    TEMPLATE,
    { title: "T", description: "D", found: true, ...meta },
    { ...settings, ...overrides },
    url,
  );

const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("renderAppHtml: editors' text is inserted literally", () => {
  // String.replace with a string expands $& (the match), $` (before it) and $' (after it).
  it.each([
    ["Harvest $` supper"],
    ["Harvest $' supper"],
    ["Harvest $& supper"],
    ["Harvest $$ supper $1"],
    [`Tickets $"free"`], // escaping turns $" into $&quot; — a $& pattern it created itself
    ["Fish $& chips $<b> $'s"],
  ])("title %s", (title) => {
    const html = render({ title, description: title });
    expect(count(html, "<title>")).toBe(1);
    expect(count(html, "<!doctype html>")).toBe(1);
    expect(count(html, "<head>")).toBe(1);
    const escaped = title
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;");
    expect(html).toContain(`<title>${escaped}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${escaped}">`);
    expect(html).toContain(`<meta property="og:description" content="${escaped}">`);
  });

  it("church name and tagline with $ patterns stay as typed", () => {
    const html = render({}, { churchName: "St. $' & $` Church" });
    expect(html).toContain(`<meta property="og:site_name" content="St. $&#39; &amp; $\` Church">`);
    expect(count(html, "<title>")).toBe(1);
    expect(count(html, "</html>")).toBe(1);
  });

  it("JSON-LD with $ patterns stays valid JSON", () => {
    const html = render({ jsonLd: { headline: "Harvest $` $' $& supper" } });
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual({ headline: "Harvest $` $' $& supper" });
  });

  it("puts the page's content inside the root element, escaped, with the sanitized HTML as given", () => {
    const html = render({
      content: {
        heading: "Harvest $` <supper>",
        lead: "Bring $' a dish",
        html: "<p>Soup &amp; bread $&</p>",
        links: [{ href: "/news/a", text: "A $'" }],
      },
    });
    expect(html).toContain(
      `<div id="root"><main class="prerendered"><article><h1>Harvest $\` &lt;supper&gt;</h1><p>Bring $&#39; a dish</p><p>Soup &amp; bread $&</p><ul><li><a href="/news/a">A $&#39;</a></li></ul></article></main></div>`,
    );
    expect(count(html, "<title>")).toBe(1);
    expect(render({})).toContain(`<div id="root"></div>`);
  });
});
