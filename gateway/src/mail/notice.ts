import type { Locale } from "@flock/shared/i18n/format";
import { escapeHtml, type Mailer, type MailMessage } from "./mailer.ts";

/**
 * A short plain message (paragraphs and an optional button) as the text and HTML bodies the mailer
 * puts in the church's branded layout (the name, address and site are the layout's footer). Every
 * value is escaped for the HTML body; the text part is plain text, never Markdown.
 */
export function composeMail(options: {
  to: string;
  subject: string;
  paragraphs: string[];
  link?: { url: string; label: string };
  churchName: string;
  locale?: Locale;
}): MailMessage {
  const { paragraphs, link } = options;
  const text = paragraphs.join("\n\n");
  const html = paragraphs
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
  return {
    to: options.to,
    subject: options.subject,
    text,
    html,
    ...(link ? { button: link } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
  };
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
