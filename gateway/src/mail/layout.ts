import type { Brand } from "./brand.ts";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes a value for interpolation into a mail's HTML body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export interface MailButton {
  url: string;
  label: string;
}

export interface MailContent {
  /** The body as HTML (every value already escaped); built from `text` when absent. */
  html?: string;
  /** The plain-text body (what text-only readers see; never Markdown). */
  text: string;
  /** The one action of the mail, shown as a real button (and as "label: url" in the text part). */
  button?: MailButton;
  /** A line after the button ("If it was not you, ignore this message"). */
  footnote?: string;
}

/** Plain paragraphs (blank-line separated, line breaks kept) as escaped HTML paragraphs. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** The button, built with a table so that Outlook and Gmail show a real coloured button. */
export function buttonHtml(button: MailButton, brand: Brand): string {
  return (
    `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px"><tr>` +
    `<td style="border-radius:6px;background:${brand.color}">` +
    `<a href="${escapeHtml(button.url)}" class="button" style="display:inline-block;padding:12px 24px;border-radius:6px;` +
    `background:${brand.color};color:#ffffff;font-weight:bold;text-decoration:none;font-size:16px">${escapeHtml(button.label)}</a>` +
    `</td></tr></table>`
  );
}

/** The text part's footer and the button as text: "Confirm my email:\nhttps://…". */
export function textPart(content: MailContent, brand: Brand): string {
  const parts = [content.text.trimEnd()];
  if (content.button) parts.push(`${content.button.label}:\n${content.button.url}`);
  if (content.footnote) parts.push(content.footnote);
  parts.push(["—", brand.churchName, brand.address, brand.siteUrl].filter(Boolean).join("\n"));
  return `${parts.join("\n\n")}\n`;
}

/**
 * Every mail's HTML: the church's logo (or name) on a band of its colour, the body, the button and
 * a footer with the name, address and site. Inline styles only (mail clients drop <style>).
 */
export function htmlPart(content: MailContent, brand: Brand, subject: string): string {
  const header = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.churchName)}" height="48" style="height:48px;max-width:100%;border:0;display:block;margin:0 auto">`
    : `<span style="font-family:Arial,Helvetica,sans-serif;font-size:20px;font-weight:bold;color:#ffffff">${escapeHtml(brand.churchName)}</span>`;
  const body = content.html ?? textToHtml(content.text);
  const footer = [brand.churchName, brand.address]
    .filter(Boolean)
    .map((line) => escapeHtml(line).replace(/\n/g, "<br>"))
    .join("<br>");
  return (
    `<!doctype html><html lang="${brand.locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f3f4f6">` +
    `<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;overflow:hidden">` +
    `<tr><td align="center" style="background:${brand.color};padding:20px 24px">${header}</td></tr>` +
    `<tr><td style="padding:28px 24px 8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1f2937">` +
    body +
    (content.button ? buttonHtml(content.button, brand) : "") +
    (content.footnote
      ? `<p style="margin:0 0 16px;font-size:14px;color:#4b5563">${escapeHtml(content.footnote)}</p>`
      : "") +
    `</td></tr>` +
    `<tr><td style="padding:16px 24px 24px;font-family:Arial,Helvetica,sans-serif;font-size:13px;line-height:1.5;color:#4b5563;border-top:1px solid #e5e7eb">` +
    `${footer}<br><a href="${escapeHtml(brand.siteUrl)}" style="color:${brand.color}">${escapeHtml(brand.siteUrl.replace(/^https?:\/\//, ""))}</a>` +
    `</td></tr></table></td></tr></table></body></html>`
  );
}
