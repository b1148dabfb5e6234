/**
 * Markdown-lite for chat messages (issue 15): links, **bold**, *italics* (or _italics_) and line
 * breaks, nothing else. The text is HTML-escaped first and only these few tags are put back, so no
 * markup a member types reaches the page; links are http(s) or mailto only and open with
 * rel="noopener noreferrer nofollow ugc". Short and synchronous: chat needs no worker process.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const SAFE_URL = /^(https?:\/\/[^\s<>"']+|mailto:[^\s<>"'@]+@[^\s<>"']+)$/i;
const anchor = (href: string, label: string) =>
  `<a href="${href}" rel="noopener noreferrer nofollow ugc" target="_blank">${label}</a>`;

/** Render one chat message to sanitized HTML. */
export function renderChat(body: string): string {
  const links: string[] = [];
  const keep = (html: string) => `\uE000${links.push(html) - 1}\uE000`;
  let text = escapeHtml(body.replace(/\r\n?/g, "\n").replace(/\uE000/g, ""));
  // [label](url): the url already escaped; only safe schemes become links.
  text = text.replace(/\[([^\]\n]{1,200})\]\(([^)\s]{1,2000})\)/g, (whole, label: string, url: string) => {
    const raw = url.replace(/&amp;/g, "&");
    return SAFE_URL.test(raw) ? keep(anchor(url, label)) : whole;
  });
  // Bare links.
  text = text.replace(/\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/gi, (url) => keep(anchor(url, url)));
  text = text.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g, "<strong>$1</strong>");
  text = text.replace(/(^|[^*\w])\*(?=\S)([^*\n]*?\S)\*(?![*\w])/g, "$1<em>$2</em>");
  text = text.replace(/(^|[^_\w])_(?=\S)([^_\n]*?\S)_(?![_\w])/g, "$1<em>$2</em>");
  text = text.replace(/\uE000(\d+)\uE000/g, (_, i: string) => links[Number(i)]!);
  return text.replace(/\n/g, "<br>");
}
