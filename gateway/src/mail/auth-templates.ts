import type { Brand } from "./brand.ts";
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
    body: html.replace("</body>", `${TEXT_MARKER_START}${encodeForComment(textPart(content, brand))}${TEXT_MARKER_END}</body>`),
  };
}

export function authTemplates(brand: Brand): {
  verificationTemplate: AuthTemplate;
  resetPasswordTemplate: AuthTemplate;
  authAlert: { enabled: boolean; emailTemplate: AuthTemplate };
} {
  const name = brand.churchName;
  const verification = [`Welcome to ${name}!`, "Please confirm your email address with the button below."];
  const reset = ["Hello,", `Someone asked to reset the password of your ${name} account. Choose a new one with the button below.`];
  // {ALERT_INFO} is PocketBase's description of the new device or location.
  const alert = ["Hello,", `Someone signed in to your ${name} account from a new device or location:`, "{ALERT_INFO}", "If this was you, there is nothing to do."];
  const html = (paragraphs: string[]) => paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("\n");
  return {
    verificationTemplate: template(brand, `Confirm your email for ${name}`, {
      text: verification.join("\n\n"),
      html: html(verification),
      button: { url: `${brand.siteUrl}/verify-email?token={TOKEN}`, label: "Confirm my email" },
      footnote: "If you did not create an account, you can ignore this message.",
    }),
    resetPasswordTemplate: template(brand, `Reset your ${name} password`, {
      text: reset.join("\n\n"),
      html: html(reset),
      button: { url: `${brand.siteUrl}/reset-password?token={TOKEN}`, label: "Choose a new password" },
      footnote: "The link works for 30 minutes. If it was not you, you can ignore this message: your password stays as it is.",
    }),
    authAlert: {
      enabled: true,
      emailTemplate: template(brand, `New sign-in to your ${name} account`, {
        text: alert.join("\n\n"),
        html: html(alert),
        button: { url: `${brand.siteUrl}/forgot-password`, label: "It wasn't me: reset my password" },
      }),
    },
  };
}
