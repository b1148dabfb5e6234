import { escapeHtml, type Mailer, type MailMessage } from "../../mail/mailer.ts";

/**
 * A short plain message (paragraphs, an optional button-like link, the church's name as signature)
 * as the text and HTML bodies the mailer sends. Every value is escaped for the HTML body.
 */
export function composeMail(options: { to: string; subject: string; paragraphs: string[]; link?: { url: string; label: string }; churchName: string }): MailMessage {
  const { paragraphs, link, churchName } = options;
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), churchName].join("\n\n");
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : []),
    `<p>${escapeHtml(churchName)}</p>`,
  ].join("\n");
  return { to: options.to, subject: options.subject, text, html };
}

/**
 * Send a notification whose failure must not undo what already happened (an approval, a stored
 * request): the failure is logged for the operator and the caller goes on.
 */
export async function sendNotice(mailer: Mailer, message: MailMessage, churchName: string): Promise<boolean> {
  if (!mailer.enabled) {
    console.warn(`[mail] not sent (SMTP is not configured): ${message.subject}`);
    return false;
  }
  try {
    await mailer.send(message, churchName);
    return true;
  } catch (error) {
    console.error(`[mail] could not send "${message.subject}":`, error);
    return false;
  }
}
