import { createTransport } from "nodemailer";
import type { Locale } from "@flock/shared/i18n/format";
import type { GatewayConfig } from "../config.ts";
import type { Brand } from "./brand.ts";
import { htmlPart, textPart, type MailButton } from "./layout.ts";

export { escapeHtml } from "./layout.ts";

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body; every message has one (many church members read mail as text). Never Markdown. */
  text: string;
  /**
   * Optional HTML for the body (callers escape every value they interpolate, see escapeHtml); the
   * mailer puts it inside the church's branded layout. Built from `text` when absent.
   */
  html?: string;
  /** The mail's one action, drawn as a button in the church's colour and written out in the text part. */
  button?: MailButton;
  /** Where replies go (for example the sender of a directory "Contact" message). */
  replyTo?: string;
  /** Hidden recipients (one alert to several staff: none sees the others' addresses). */
  bcc?: string[];
  /** The language the mail is written in (its recipient's, see pickLocale); the church's when absent. */
  locale?: Locale;
}

/** An SMTP transport for the configured server (nodemailer ships its own types since 9). */
function smtpTransport(smtp: NonNullable<GatewayConfig["smtp"]>) {
  return createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls,
    auth: smtp.username ? { user: smtp.username, pass: smtp.password } : undefined,
    // Local catchers and internal relays have no certificate; STARTTLS is used when offered.
    ignoreTLS: !smtp.tls && smtp.host === "127.0.0.1",
  });
}
type SmtpTransport = ReturnType<typeof smtpTransport>;

/**
 * The gateway's mail layer for messages PocketBase does not send itself (approvals, invitations,
 * contact relay, confirmations, staff alerts). Sends through the same SMTP server as PocketBase, from
 * the church's name, and brands every message (logo, colour, button, footer) with `brand()`, read
 * from the current settings when the mail is sent. Without SMTP configured, mail is refused loudly
 * rather than silently dropped.
 */
export class Mailer {
  private readonly transport: SmtpTransport | null;

  private readonly config: GatewayConfig;
  private readonly brand: (() => Promise<Brand>) | null;

  constructor(config: GatewayConfig, brand: (() => Promise<Brand>) | null = null) {
    this.config = config;
    this.brand = brand;
    this.transport = config.smtp ? smtpTransport(config.smtp) : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends one message from "<church name> <sender address>", in the church's branded layout. */
  async send(message: MailMessage, churchName: string): Promise<void> {
    if (!this.transport || !this.config.smtp) throw new Error("Mail is not configured (set SMTP_HOST).");
    const church: Brand = this.brand
      ? await this.brand()
      : {
          churchName,
          logoUrl: null,
          color: "#2f5d8a",
          siteUrl: this.config.publicUrl,
          address: "",
          locale: "en",
          timezone: "UTC",
        };
    const brand: Brand = message.locale ? { ...church, locale: message.locale } : church;
    const content = {
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.button ? { button: message.button } : {}),
    };
    await this.transport.sendMail({
      from: { name: churchName, address: this.config.smtp.senderAddress },
      to: message.to,
      subject: message.subject,
      text: textPart(content, brand),
      html: htmlPart(content, brand, message.subject),
      replyTo: message.replyTo,
      ...(message.bcc?.length ? { bcc: message.bcc } : {}),
    });
  }
}
