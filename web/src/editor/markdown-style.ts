// How the editor writes Markdown (remark-stringify options on top of Milkdown's). The choices follow
// the most common hand-written style (GitHub's), so documents written elsewhere come back unchanged
// as often as possible. Every rule is listed in NORMALISATION.md.
import { defaultHandlers, type Options } from "mdast-util-to-markdown";

/**
 * URLs GFM's autolink-literal rule reads back as exactly the same link when written bare: http(s)
 * with a dotted host, or "www." (GFM adds "http://"), and no character GFM would trim off the end or
 * treat specially. Anything else keeps remark's `<…>` form.
 */
const BARE_URL = /^(?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#][\w\-.~!$&'+,;=:@%/?#]*)?$/i;
const BARE_EMAIL = /^[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;
const TRAILING = /[?!.,:*_~'&;-]$/;
/** What may come right before or after a bare URL for GFM to end it where it ends now. */
const BEFORE = /^$|[\s(]$/;
const AFTER = /^(?:$|[\s.,!?:)])/;

/** The text of `node` when writing it bare reads back as the same link, else null. */
function bareForm(node: Parameters<typeof defaultHandlers.link>[0]): string | null {
  const only = node.children.length === 1 ? node.children[0] : undefined;
  if (only?.type !== "text" || node.title) return null;
  const text = only.value;
  if (TRAILING.test(text)) return null;
  if (node.url === text && /^https?:\/\//i.test(text) && BARE_URL.test(text)) return text;
  if (node.url === `http://${text}` && /^www\./i.test(text) && BARE_URL.test(text)) return text;
  if (node.url === `mailto:${text}` && BARE_EMAIL.test(text)) return text;
  return null;
}

/**
 * Links whose text is their URL (or email address) were written as `<https://…>`; they stay bare
 * when that reads back the same. People paste bare URLs, and a video URL alone on its line is how an
 * embed is written.
 */
function link(...[node, parent, state, info]: Parameters<typeof defaultHandlers.link>): string {
  const bare = bareForm(node);
  if (bare !== null && BEFORE.test(info.before) && AFTER.test(info.after)) return bare;
  return defaultHandlers.link(node, parent, state, info);
}
link.peek = defaultHandlers.link.peek;

/**
 * Markdown has no empty paragraphs. The editor keeps one after a final list, table or image (so
 * there is somewhere to click and type) and wherever Enter was pressed twice; written out, each
 * became extra blank lines, so loading a document that ends with a list changed it.
 */
function root(...[node, parent, state, info]: Parameters<typeof defaultHandlers.root>): string {
  const children = node.children.filter((child) => child.type !== "paragraph" || child.children?.length);
  return defaultHandlers.root({ ...node, children }, parent, state, info);
}

export function markdownStyle(previous: Options): Options {
  return {
    ...previous,
    bullet: "-",
    rule: "-",
    handlers: { ...previous.handlers, link, root },
  };
}
