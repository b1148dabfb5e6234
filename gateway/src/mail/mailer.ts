import nodemailer from "nodemailer";
import type { GatewayConfig } from "../config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body; every message has one (many church members read mail as text). */
  text: string;
  /** Optional HTML body; callers escape every value they interpolate (see escapeHtml). */
  html?: string;
  /** Where replies go (for example the sender of a directory "Contact" message). */
  replyTo?: string;
}

/**
 * The gateway's mail layer for messages PocketBase does not send itself (approvals, invitations,
 * contact relay, confirmations). Sends through the same SMTP server as PocketBase, from the church's
 * name. Without SMTP configured, mail is refused loudly rather than silently dropped.
 */
export class Mailer {
  private readonly transport: nodemailer.Transporter | null;

  constructor(private readonly config: GatewayConfig) {
    const smtp = config.smtp;
    this.transport = smtp
      ? nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.tls,
          auth: smtp.username ? { user: smtp.username, pass: smtp.password } : undefined,
          // Local catchers and internal relays have no certificate; STARTTLS is used when offered.
          ignoreTLS: !smtp.tls && smtp.host === "127.0.0.1",
        })
      : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends one message from "<church name> <sender address>". */
  async send(message: MailMessage, churchName: string): Promise<void> {
    if (!this.transport || !this.config.smtp) throw new Error("Mail is not configured (set SMTP_HOST).");
    await this.transport.sendMail({
      from: { name: churchName, address: this.config.smtp.senderAddress },
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      replyTo: message.replyTo,
    });
  }
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes a value for interpolation into a mail's HTML body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
