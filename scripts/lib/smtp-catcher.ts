import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  /** The Reply-To header's text ("" when absent), e.g. the sender of a directory "Contact" message. */
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/**
 * A local SMTP server that keeps every message in memory, for development and tests: the app sends
 * real mail over SMTP and nothing leaves the machine. Messages are listed as JSON at
 * GET http://127.0.0.1:<httpPort>/messages (tests read verification and reset links there).
 */
export class SmtpCatcher {
  readonly messages: CaughtMail[] = [];
  private smtp: SMTPServer | null = null;
  private http: HttpServer | null = null;
  smtpPort = 0;
  httpPort = 0;

  async start(smtpPort = 0, httpPort = 0): Promise<this> {
    this.smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(null, { user: "dev" }),
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push({
              id: this.messages.length + 1,
              from: mail.from?.text ?? "",
              replyTo: mail.replyTo?.text ?? "",
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : "",
              receivedAt: new Date().toISOString(),
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    // A client that drops its connection (a mailer closed while its pool was idle, a process ending)
    // surfaces here as ECONNRESET. Without a listener the emitter would throw and end the whole test
    // run; a catcher only needs to go on catching.
    this.smtp.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE")
        console.error(`[smtp-catcher] ${error.message}`);
    });
    await new Promise<void>((resolve) => this.smtp!.listen(smtpPort, "127.0.0.1", resolve));
    this.smtpPort = (this.smtp.server.address() as { port: number }).port;

    this.http = createHttpServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://catcher");
      if (url.pathname === "/messages") {
        const to = url.searchParams.get("to")?.toLowerCase();
        const list = to ? this.messages.filter((m) => m.to.includes(to)) : this.messages;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><title>Caught mail</title><h1>Caught mail (${this.messages.length})</h1>` +
          [...this.messages]
            .reverse()
            .map(
              (m) =>
                `<article><h2>${escape(m.subject)}</h2><p>To ${escape(m.to.join(", "))} · ${m.receivedAt}</p><pre>${escape(m.text)}</pre></article>`,
            )
            .join("<hr>"),
      );
    });
    await new Promise<void>((resolve) => this.http!.listen(httpPort, "127.0.0.1", resolve));
    this.httpPort = (this.http.address() as { port: number }).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.smtp ? this.smtp.close(() => resolve()) : resolve()));
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
  }
}

const escape = (s: string) => s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);

/** Wait for a message to `to` whose subject matches, polling a catcher's HTTP API. */
export async function waitForMail(
  catcherUrl: string,
  to: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const list = (await (
      await fetch(`${catcherUrl}/messages?to=${encodeURIComponent(to)}`)
    ).json()) as CaughtMail[];
    const found = [...list].reverse().find((m) => subject.test(m.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs / 1000}s.`);
}

/** The first link in a mail whose URL contains `path`. */
export function linkFrom(mail: CaughtMail, path: string): string {
  const links = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  const link = links.find((l) => l.includes(path));
  if (!link) throw new Error(`No ${path} link in mail "${mail.subject}".`);
  return link;
}
