// Feeds and the sitemap are XML: text goes in escaped, HTML inside CDATA.

// XML 1.0 cannot carry most control characters at all, escaped or not: drop them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
export const xml = (value: string) =>
  value
    .replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
    )
    .replace(XML_INVALID, "");
/** HTML inside CDATA: a "]]>" in the text would end the section, so it is split across two. */
export const cdata = (html: string) =>
  `<![CDATA[${html.replace(XML_INVALID, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
