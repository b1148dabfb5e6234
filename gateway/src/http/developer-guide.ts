import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { markdownPool } from "../markdown/pool.ts";

// The API guide for integrators (docs/API.md), served by the site itself: /developers shows it (the web
// app's page reads the HTML below), so the Integrations screen links to documentation the church's own
// site serves rather than naming a file in a repository. Docker copies docs/API.md beside the gateway.

export const GUIDE_PATH = "/developers/guide.html";
const GUIDE_FILE = resolve(import.meta.dirname, "../../../docs/API.md");

let rendered: Promise<string> | null = null;

/**
 * The guide as sanitized HTML (the Markdown renderer every page uses), rendered once per process: it
 * changes only with a new release. Its one link into the repository (the committed schema) points to
 * the schema this site serves.
 */
export function developerGuideHtml(siteOrigin: string): Promise<string> {
  rendered ??= readFile(GUIDE_FILE, "utf8")
    .then((markdown) =>
      markdownPool.render(
        markdown
          // The page has its own heading ("API guide for developers", in the church's language).
          .replace(/^# .*\n/, "")
          .replaceAll("](../schema.graphql)", "](/graphql/schema.graphql)"),
        { siteOrigin },
      ),
    )
    .catch((error: unknown) => {
      rendered = null;
      throw error;
    });
  return rendered;
}
