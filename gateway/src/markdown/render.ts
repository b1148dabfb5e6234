/**
 * Markdown → sanitized HTML for everything readers see (PRODUCT.md §2.4): pages, news, sermon notes,
 * events. The gateway renders, so no Markdown parser ships to browsers.
 *
 * The pipeline (one frozen processor, reused for every render):
 *
 *   remark-parse + GFM → Markdown fixes (raw HTML becomes visible text, # becomes h2)
 *   → remark-rehype (raw HTML off) → rehype-sanitize with the allow-list below
 *   → our own finishing step on the already-sanitized tree (URL policy, link rel/target, image
 *     attributes, heading ids, click-to-load video embeds) → HTML.
 *
 * Raw HTML typed into the Markdown is shown as text rather than interpreted: editors see what they
 * typed, and nothing an editor (or a hijacked editor account) writes can become markup. The
 * finishing step runs after the sanitizer and only ever adds values it computed itself (slugs,
 * numbers from the media library, embed markup rebuilt from a validated video id), so the embed
 * attributes never need to be allowed in the sanitizer's schema.
 */
import type {
  Element,
  ElementContent,
  Properties,
  Root as HastRoot,
  RootContent as HastRootContent,
} from "hast";
import type { Nodes as MdastNodes, Parent as MdastParent, PhrasingContent, Root as MdastRoot } from "mdast";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { SKIP, visit } from "unist-util-visit";

export interface ImageInfo {
  width: number;
  height: number;
  alt: string;
}

export interface RenderOptions {
  /** Absolute origin of the app, e.g. "https://grace.example" — links to other origins are "external". */
  siteOrigin: string;
  /** Look up dimensions/alt of images stored in the media library, given the image URL found in the Markdown
   *  (URLs look like "/files/<collection>/<recordId>/<filename>", possibly absolute on siteOrigin). Return null if unknown. Called once per distinct URL; batch-friendly (may be async). */
  resolveImages?: (urls: string[]) => Promise<Map<string, ImageInfo>>;
}

/**
 * The allow-list. Written out in full (starting from hast-util-sanitize's GitHub-like default, then
 * narrowed): only the elements Markdown produces, only the attributes they need, and footnote
 * ids/references only in the exact shapes remark-rehype generates (already prefixed with
 * "user-content-", so they cannot clobber globals such as `window.config`).
 */
export const SANITIZE_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "a",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "input",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "hr",
    "br",
    "img",
    // GFM footnotes: <sup><a …>1</a></sup> and <section class="footnotes">.
    "sup",
    "section",
  ],
  attributes: {
    a: [
      "href",
      "title",
      ["id", /^user-content-fnref-[\w-]+$/],
      ["dataFootnoteRef", true],
      ["dataFootnoteBackref", ""],
      ["className", "data-footnote-backref"],
      ["ariaDescribedBy", "footnote-label"],
      ["ariaLabel", /^Back to reference [\w-]+$/],
    ],
    img: ["src", "alt", "title"],
    code: [["className", /^language-[\w.+#-]{1,40}$/]],
    ol: ["start", ["className", "contains-task-list"]],
    ul: [["className", "contains-task-list"]],
    li: [
      ["className", "task-list-item"],
      ["id", /^user-content-fn-[\w-]+$/],
    ],
    input: [
      ["type", "checkbox"],
      ["disabled", true],
      ["checked", true],
    ],
    th: [["align", "left", "center", "right"]],
    td: [["align", "left", "center", "right"]],
    h2: [
      ["className", "visually-hidden"],
      ["id", "footnote-label"],
    ],
    section: [
      ["dataFootnotes", true],
      ["className", "footnotes"],
    ],
  },
  // Ids are only allowed in the already-prefixed footnote shapes above; prefixing again would
  // break the footnote links.
  clobber: [],
  clobberPrefix: "",
  protocols: {
    href: ["http", "https", "mailto", "tel"],
    // Narrowed further by the finishing step: same-site /files/… or https only.
    src: ["http", "https"],
  },
  required: { input: { type: "checkbox", disabled: true } },
  ancestors: {
    tbody: ["table"],
    thead: ["table"],
    tr: ["table"],
    th: ["table"],
    td: ["table"],
    li: ["ol", "ul"],
  },
  // Removed with their content (everything else unknown is unwrapped to its children).
  strip: [
    "script",
    "style",
    "template",
    "noscript",
    "iframe",
    "object",
    "embed",
    "textarea",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "plaintext",
    "svg",
    "math",
  ],
  allowComments: false,
  allowDoctypes: false,
};

// ---------------------------------------------------------------------------------------------
// Per-render state, carried on the vfile so the shared processor stays stateless.

interface RenderState {
  site: URL;
  /** Original Markdown URL of each image, by the source offset of its node. */
  imageUrlAt: Map<number, string>;
  images: Map<string, ImageInfo | null>;
}

const STATE_KEY = "flockRender";
function stateOf(file: { data: Record<string, unknown> }): RenderState {
  const state = file.data[STATE_KEY] as RenderState | undefined;
  if (!state) throw new Error("renderMarkdown: render state missing");
  return state;
}

// ---------------------------------------------------------------------------------------------
// Markdown (mdast) step.

/**
 * Deepest nesting kept as structure after parsing. Emphasis inside emphasis inside … can still be
 * thousands of levels deep, and the recursive tree walkers downstream (remark-rehype, the sanitizer,
 * the serializer) would overflow the stack; nobody means 32 levels, so deeper content becomes text.
 */
const MAX_DEPTH = 32;
const FLOW_PARENTS = new Set(["root", "blockquote", "listItem", "footnoteDefinition"]);

/** Text of a subtree without recursion (the subtree may be very deep). */
function flatText(node: MdastNodes): string {
  const parts: string[] = [];
  const stack: MdastNodes[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if ("value" in current && typeof current.value === "string" && current.type !== "html")
      parts.push(current.value);
    else if ("children" in current) {
      parts.push(" ");
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as MdastNodes);
    }
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

function limitDepth(tree: MdastRoot): MdastRoot {
  const stack: Array<[MdastParent, number]> = [[tree, 0]];
  while (stack.length) {
    const [parent, depth] = stack.pop()!;
    for (const child of parent.children as MdastNodes[]) {
      if (!("children" in child) || child.type === "table" || child.type === "tableRow") continue;
      if (depth + 1 < MAX_DEPTH) {
        stack.push([child, depth + 1]);
        continue;
      }
      const text = flatText(child);
      const paragraph: MdastNodes = { type: "paragraph", children: [{ type: "text", value: text }] };
      if (child.type === "list") child.children = [{ type: "listItem", children: [paragraph] }];
      else if (FLOW_PARENTS.has(child.type)) (child as MdastParent).children = [paragraph];
      else (child as MdastParent).children = [{ type: "text", value: text }];
    }
  }
  return tree;
}

const COMMENT = /^<!--[\s\S]*-->$/;
const BREAK_TAG = /^<br\s*\/?>$/i;

/** Raw HTML → visible text (comments dropped, `<br>` kept as a line break); `#` → h2. */
function remarkFlock() {
  return (tree: MdastRoot) => {
    visit(tree, (node, index, parent) => {
      if (node.type === "heading" && node.depth === 1) node.depth = 2;
      if (node.type !== "html" || !parent || index === undefined) return;
      const value = node.value.trim();
      if (COMMENT.test(value)) {
        parent.children.splice(index, 1);
        return [SKIP, index];
      }
      let replacement: MdastNodes;
      if (BREAK_TAG.test(value) && !FLOW_PARENTS.has(parent.type)) replacement = { type: "break" };
      else if (FLOW_PARENTS.has(parent.type))
        replacement = { type: "paragraph", children: [{ type: "text", value: node.value }] };
      else replacement = { type: "text", value: node.value };
      (parent.children as MdastNodes[])[index] = replacement;
      return SKIP;
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Finishing step on the sanitized HTML tree (hast).

const SAFE_LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);
const EXTERNAL_REL = ["noopener", "noreferrer"];

function rehypeFlock() {
  return (tree: HastRoot, file: { data: Record<string, unknown> }) => {
    const state = stateOf(file);
    visit(tree, "element", (node) => {
      // A class the sanitizer emptied (say, a code language it refused) would print as class="".
      if (Array.isArray(node.properties.className) && node.properties.className.length === 0)
        delete node.properties.className;
    });
    embeds(tree);
    links(tree, state.site);
    images(tree, state);
    headingIds(tree);
  };
}

/** A URL as the browser will resolve it (WHATWG parsing: control characters, tabs, case), or null. */
function resolve(value: unknown, site: URL): URL | null {
  if (typeof value !== "string") return null;
  try {
    return new URL(value, site);
  } catch {
    return null;
  }
}

function isExternal(url: URL, site: URL): boolean {
  return (url.protocol === "http:" || url.protocol === "https:") && url.origin !== site.origin;
}

/** Replace `node` (a child of `parent` at `index`) by `replacement` nodes. */
function replaceChild(parent: HastRoot | Element, index: number, replacement: ElementContent[]): void {
  parent.children.splice(index, 1, ...replacement);
}

function links(tree: HastRoot, site: URL): void {
  visit(tree, "element", (node, index, parent) => {
    if (node.tagName !== "a" || !parent || index === undefined) return;
    const url = resolve(node.properties.href, site);
    if (!url || !SAFE_LINK_PROTOCOLS.has(url.protocol)) {
      // A link with no (safe) destination is just its text.
      replaceChild(parent, index, node.children);
      return [SKIP, index];
    }
    delete node.properties.rel;
    delete node.properties.target;
    if (isExternal(url, site)) {
      node.properties.rel = [...EXTERNAL_REL];
      node.properties.target = "_blank";
    }
  });
}

function images(tree: HastRoot, state: RenderState): void {
  visit(tree, "element", (node, index, parent) => {
    if (node.tagName !== "img" || !parent || index === undefined) return;
    const src = imageSource(node.properties.src, state.site);
    const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
    if (!src) {
      // Not from the media library: keep what the image was meant to say.
      replaceChild(parent, index, alt ? [{ type: "text", value: alt }] : []);
      return [SKIP, index];
    }
    const original =
      node.position?.start.offset !== undefined
        ? state.imageUrlAt.get(node.position.start.offset)
        : undefined;
    const info = original !== undefined ? state.images.get(original) : undefined;
    const properties: Properties = { src, alt };
    if (typeof node.properties.title === "string") properties.title = node.properties.title;
    if (info) {
      if (!alt.trim() && typeof info.alt === "string") properties.alt = info.alt;
      if (isDimension(info.width) && isDimension(info.height)) {
        properties.width = Math.round(info.width);
        properties.height = Math.round(info.height);
      }
    }
    properties.loading = "lazy";
    properties.decoding = "async";
    node.properties = properties;
  });
}

const isDimension = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 1 && value <= 100_000;

/**
 * Same-site media-library images only (as a root-relative path); anything else null. Images from
 * other sites would tell those sites who reads the page (and the app's CSP blocks them anyway):
 * editors put images in the media library instead.
 */
function imageSource(value: unknown, site: URL): string | null {
  const url = resolve(value, site);
  if (!url) return null;
  if (url.origin === site.origin && (url.protocol === "http:" || url.protocol === "https:")) {
    return url.pathname.startsWith("/files/") ? url.pathname + url.search : null;
  }
  return null;
}

/** The same-site media-library path an image URL points at, or null (used for resolveImages). */
function libraryPath(value: string, site: URL): string | null {
  const url = resolve(value, site);
  return url && url.origin === site.origin && url.pathname.startsWith("/files/") ? url.pathname : null;
}

function textOf(node: HastRoot | ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element" || node.type === "root")
    return node.children.map((child) => textOf(child as ElementContent)).join("");
  return "";
}

/** "¿Quiénes somos?" → "quiénes-somos": letters and digits of any script, dashes between words. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "section";
}

function headingIds(tree: HastRoot): void {
  const taken = new Set<string>();
  visit(tree, "element", (node) => {
    if (typeof node.properties.id === "string") taken.add(node.properties.id);
  });
  visit(tree, "element", (node) => {
    if (!/^h[2-6]$/.test(node.tagName) || node.properties.id !== undefined) return;
    const base = slugify(textOf(node));
    let id = base;
    for (let n = 1; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    node.properties.id = id;
  });
}

// Click-to-load video embeds.

export interface Embed {
  provider: "youtube" | "vimeo";
  id: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^[0-9]{1,15}$/;
const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com"]);
const YOUTUBE_NOCOOKIE_HOSTS = new Set(["youtube-nocookie.com", "www.youtube-nocookie.com"]);
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com"]);

/** The video a URL points at, with its id validated strictly, or null. */
export function embedFor(value: string): Embed | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.port)
    return null;
  const path = url.pathname;
  const host = url.hostname;
  const segment = (prefix: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : null);
  let id: string | null = null;
  if (YOUTUBE_HOSTS.has(host)) {
    if (path === "/watch") {
      const ids = url.searchParams.getAll("v");
      id = ids.length === 1 ? ids[0]! : null;
    } else id = segment("/embed/");
  } else if (YOUTUBE_NOCOOKIE_HOSTS.has(host)) id = segment("/embed/");
  else if (host === "youtu.be") id = segment("/");
  if (id !== null) return YOUTUBE_ID.test(id) ? { provider: "youtube", id } : null;

  if (VIMEO_HOSTS.has(host)) id = segment("/");
  else if (host === "player.vimeo.com") id = segment("/video/");
  if (id !== null) return VIMEO_ID.test(id) ? { provider: "vimeo", id } : null;
  return null;
}

/**
 * The click-to-load block: no iframe until the reader asks. The web app (components/RichText.tsx)
 * swaps it in, after checking data-embed-src against the same bare player address shape and adding
 * its own query string, so the address carries none.
 */
export function embedElement(embed: Embed, title = ""): Element {
  const youtube = embed.provider === "youtube";
  const src = youtube
    ? `https://www.youtube-nocookie.com/embed/${embed.id}`
    : `https://player.vimeo.com/video/${embed.id}`;
  const href = youtube ? `https://www.youtube.com/watch?v=${embed.id}` : `https://vimeo.com/${embed.id}`;
  const site = youtube ? "YouTube" : "Vimeo";
  const children: ElementContent[] = [
    {
      type: "element",
      tagName: "a",
      properties: { className: ["embed__link"], href, rel: [...EXTERNAL_REL], target: "_blank" },
      children: [{ type: "text", value: title ? `Play: ${title} (${site})` : `Watch on ${site}` }],
    },
  ];
  // The video's title, from the Markdown link text ([Title](video URL) alone on its line): stays under the player.
  if (title)
    children.push({
      type: "element",
      tagName: "figcaption",
      properties: { className: ["embed__title"] },
      children: [{ type: "text", value: title }],
    });
  return {
    type: "element",
    tagName: "figure",
    properties: { className: ["embed"], dataEmbedProvider: embed.provider, dataEmbedSrc: src },
    children,
  };
}

const isBlank = (node: ElementContent) => node.type === "text" && !node.value.trim();

/**
 * A top-level paragraph that is only a video link → embed: a bare URL, or [Title](URL) whose text
 * becomes the video's title.
 */
function embeds(tree: HastRoot): void {
  tree.children = tree.children.map((node): HastRootContent => {
    if (node.type !== "element" || node.tagName !== "p") return node;
    const content = node.children.filter((child) => !isBlank(child));
    const link = content[0];
    if (content.length !== 1 || link?.type !== "element" || link.tagName !== "a") return node;
    const href = link.properties.href;
    if (typeof href !== "string" || !link.children.every((child) => child.type === "text")) return node;
    const text = textOf(link).trim();
    const bare = text === href || `http://${text}` === href;
    // Link text that is some other address stays a plain link (as it always did).
    if (!bare && (/^(?:[a-z][a-z0-9+.-]*:|www\.)/i.test(text) || !text)) return node;
    const embed = embedFor(href);
    return embed ? embedElement(embed, bare ? "" : text.slice(0, 200)) : node;
  });
}

// ---------------------------------------------------------------------------------------------
// The processor.

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFlock)
  .use(remarkRehype, {
    allowDangerousHtml: false,
    footnoteLabelProperties: { className: ["visually-hidden"] },
  })
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeFlock)
  .use(rehypeStringify)
  .freeze();

/**
 * Container nesting is capped before parsing. A line of thousands of `>` (or `- `, `1. `) makes the
 * parser quadratic (40,000 ">" took 9 s) and then overflows the stack; stairs of ever more indented
 * lines each opening many lists did the same (15 s for 200,000 chars). A line's nesting is at most its
 * indentation / 2 plus the container markers it opens; the marker past MAX_LEVELS is
 * backslash-escaped, so the rest of the line is text. Thematic breaks (`* * * *`) are left alone.
 */
const MAX_LEVELS = 32;
const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]*)+/;
const CONTAINER_MARKER = /(?:>|[-+*]|\d{1,9}[.)])[ \t]*/y;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

export function capContainerNesting(markdown: string): string {
  return markdown.replace(/^[^\n]*/gm, (line) => {
    const prefix = CONTAINER_PREFIX.exec(line)?.[0];
    if (!prefix || THEMATIC_BREAK.test(line)) return line;
    const indent = /^[ \t]*/.exec(prefix)![0];
    let level = Math.floor(indent.replace(/\t/g, "    ").length / 2);
    if (level + prefix.length - indent.length <= MAX_LEVELS) return line;
    CONTAINER_MARKER.lastIndex = indent.length;
    while (CONTAINER_MARKER.lastIndex < prefix.length) {
      const start = CONTAINER_MARKER.lastIndex;
      const marker = CONTAINER_MARKER.exec(line);
      if (!marker) break;
      if (++level > MAX_LEVELS) {
        const at = start + marker[0].trimEnd().length - 1; // the marker's last character: ">", "-", "." or ")"
        return `${line.slice(0, at)}\\${line.slice(at)}`;
      }
    }
    return line;
  });
}

function parse(markdown: string): MdastRoot {
  try {
    return limitDepth(processor.parse(capContainerNesting(markdown)));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Nested too deeply for the parser's recursion (thousands of nested emphasis markers): keep
    // the words as plain paragraphs rather than fail the page.
    return {
      type: "root",
      children: markdown
        .split(/\n[ \t]*\n/)
        .filter((block) => block.trim())
        .map((block) => ({ type: "paragraph", children: [{ type: "text", value: block }] })),
    };
  }
}

/** Images in document order with the URL each one uses (references resolved), from the syntax tree. */
function imagesIn(tree: MdastRoot): Array<{ offset: number | undefined; url: string }> {
  const definitions = new Map<string, string>();
  visit(tree, "definition", (node) => {
    if (!definitions.has(node.identifier)) definitions.set(node.identifier, node.url);
  });
  const found: Array<{ offset: number | undefined; url: string }> = [];
  visit(tree, (node) => {
    if (node.type === "image") found.push({ offset: node.position?.start.offset, url: node.url });
    else if (node.type === "imageReference") {
      const url = definitions.get(node.identifier);
      if (url !== undefined) found.push({ offset: node.position?.start.offset, url });
    }
  });
  return found;
}

function siteOf(siteOrigin: string): URL {
  const site = new URL(siteOrigin);
  if (site.protocol !== "https:" && site.protocol !== "http:")
    throw new TypeError(`siteOrigin must be an http(s) origin: ${siteOrigin}`);
  return new URL(site.origin);
}

export async function renderMarkdown(markdown: string, options: RenderOptions): Promise<string> {
  const site = siteOf(options.siteOrigin);
  const tree = parse(markdown);
  const found = imagesIn(tree);
  const imageUrlAt = new Map<number, string>();
  for (const { offset, url } of found) if (offset !== undefined) imageUrlAt.set(offset, url);

  const images = new Map<string, ImageInfo | null>();
  const library = [
    ...new Set(found.map((image) => image.url).filter((url) => libraryPath(url, site) !== null)),
  ];
  if (library.length && options.resolveImages) {
    const resolved = await options.resolveImages(library);
    for (const url of library) images.set(url, resolved.get(url) ?? null);
  }

  const state: RenderState = { site, imageUrlAt, images };
  const hast = await processor.run(tree, { data: { [STATE_KEY]: state } });
  return processor.stringify(hast);
}

/** Every image URL the Markdown uses (for "used in" and alt-text checks), in document order, unique. */
export function imageUrls(markdown: string): string[] {
  return [
    ...new Set(
      imagesIn(parse(markdown))
        .map((image) => image.url)
        .filter((url) => url !== ""),
    ),
  ];
}

// Plain text.

/** Nodes whose text is not part of the prose (raw HTML, link definitions, footnote bodies, images). */
const NOT_PROSE = new Set([
  "html",
  "definition",
  "footnoteDefinition",
  "image",
  "imageReference",
  "footnoteReference",
]);

function collectText(node: MdastNodes, out: string[]): void {
  if (node.type === "html" && BREAK_TAG.test(node.value.trim())) out.push(" ");
  if (NOT_PROSE.has(node.type)) return;
  if (node.type === "text" || node.type === "inlineCode") {
    out.push(node.value);
    return;
  }
  if (node.type === "code") {
    out.push(node.value, " ");
    return;
  }
  if (node.type === "break" || node.type === "thematicBreak") {
    out.push(" ");
    return;
  }
  if ("children" in node) {
    for (const child of (node as MdastParent).children as Array<MdastNodes | PhrasingContent>)
      collectText(child, out);
    // Blocks (and table cells) are separated by a space; inline containers are not.
    if (!INLINE.has(node.type)) out.push(" ");
  }
}
const INLINE = new Set(["emphasis", "strong", "delete", "link", "linkReference"]);

/** Plain text of the Markdown (for summaries, meta descriptions, feeds), whitespace-collapsed, truncated to max chars on a word boundary with "…". */
export function plainText(markdown: string, max?: number): string {
  if (max === undefined) return proseOf(markdown);
  if (max < 1) return "";
  // Summaries are computed on page views and feed requests, and a 200,000-char body takes seconds to
  // parse: parse only as many whole blocks as the summary needs, after the definitions from the
  // rest of the document (so references in those blocks still resolve; definitions are not prose).
  for (let size = Math.max(4 * max, 2_000); ; size *= 4) {
    const blankLine = /\n[ \t]*\n/g;
    blankLine.lastIndex = size;
    const cut = size < markdown.length ? blankLine.exec(markdown) : null;
    const text = cut
      ? proseOf(`${definitionsIn(markdown.slice(cut.index))}\n\n${markdown.slice(0, cut.index)}`)
      : proseOf(markdown);
    if (!cut || text.length > max) return truncate(text, max);
  }
}

function proseOf(markdown: string): string {
  const parts: string[] = [];
  collectText(parse(markdown), parts);
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** Complete one-line link definitions only, so none can run into the blocks that follow. */
const LINK_DEFINITION =
  /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/gm;
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^(?:[^\]\\\s]|\\.)+\]:/gm;

function definitionsIn(markdown: string): string {
  const links = (markdown.match(LINK_DEFINITION) ?? []).map((line) => line.trim());
  const footnotes = (markdown.match(FOOTNOTE_DEFINITION) ?? []).map((label) => `${label.trim()} .`);
  // The comment (not prose) closes the last footnote definition before the document's own blocks.
  return [...links, ...footnotes, "<!-- -->"].join("\n\n");
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never split a surrogate pair (an emoji at the cut).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(" ");
  const atWord = /\s/.test(text.charAt(max - 1)) ? cut : space > 0 ? cut.slice(0, space) : cut;
  return `${atWord.replace(/[\s,;:.–—-]+$/u, "")}…`;
}
