import type { Brand } from "./brand.ts";
import { translator } from "./i18n.ts";
import { escapeHtml, htmlPart, textPart, type MailContent } from "./layout.ts";

/**
 * PocketBase sends the verification and password-reset mails itself (it owns their tokens). Their
 * templates are written here, in the same branded layout as the gateway's own mail, and synced into
 * the users collection whenever the church's name, logo, colour or address changes
 * (system/pocketbase-settings.ts). PocketBase replaces {TOKEN}; everything else is written in
 * already, escaped for HTML (PocketBase's {APP_NAME} is not HTML-escaped).
 *
 * PocketBase would derive the text part from the HTML, which left "[Confirm my email](…)" in it.
 * The real text part travels in an HTML comment that pb_hooks/mail.pb.js moves into the message's
 * text part (and removes from the HTML) before sending.
 *
 * PocketBase keeps one template per mail for everyone, so these are in the church's language.
 */

export const TEXT_MARKER_START = "<!--flock:text\n";
export const TEXT_MARKER_END = "\n-->";

/** Inside an HTML comment: no "--" or ">" may appear raw (pb_hooks/lib/mail-text.js decodes these). */
export function encodeForComment(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/-/g, "&#45;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export interface AuthTemplate {
  subject: string;
  body: string;
}

function template(brand: Brand, subject: string, content: MailContent): AuthTemplate {
  const html = htmlPart(content, brand, subject);
  return {
    subject,
    body: html.replace(
      "</body>",
      `${TEXT_MARKER_START}${encodeForComment(textPart(content, brand))}${TEXT_MARKER_END}</body>`,
    ),
  };
}

export function authTemplates(brand: Brand): {
  verificationTemplate: AuthTemplate;
  resetPasswordTemplate: AuthTemplate;
  authAlert: { enabled: boolean; emailTemplate: AuthTemplate };
} {
  const church = brand.churchName;
  const t = translator(brand.locale);
  const verification = [t("auth.verify.welcome", { church }), t("auth.verify.body")];
  const reset = [t("auth.reset.hello"), t("auth.reset.body", { church })];
  // {ALERT_INFO} is PocketBase's description of the new device or location.
  const alert = [t("auth.reset.hello"), t("auth.alert.body", { church }), "{ALERT_INFO}", t("auth.alert.ok")];
  const html = (paragraphs: string[]) =>
    paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("\n");
  return {
    verificationTemplate: template(brand, t("auth.verify.subject", { church }), {
      text: verification.join("\n\n"),
      html: html(verification),
      button: { url: `${brand.siteUrl}/verify-email?token={TOKEN}`, label: t("auth.verify.button") },
      footnote: t("auth.verify.footnote"),
    }),
    resetPasswordTemplate: template(brand, t("auth.reset.subject", { church }), {
      text: reset.join("\n\n"),
      html: html(reset),
      button: { url: `${brand.siteUrl}/reset-password?token={TOKEN}`, label: t("auth.reset.button") },
      footnote: t("auth.reset.footnote"),
    }),
    authAlert: {
      enabled: true,
      emailTemplate: template(brand, t("auth.alert.subject", { church }), {
        text: alert.join("\n\n"),
        html: html(alert),
        button: { url: `${brand.siteUrl}/forgot-password`, label: t("auth.alert.button") },
      }),
    },
  };
}
