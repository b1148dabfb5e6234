import { ClientResponseError } from "pocketbase";
import type { SystemClient } from "../pocketbase/client.ts";
import type { MailOutboxKind, MailOutboxRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";
import { claimRows, released } from "../pocketbase/queue-claims.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { startPeriodicJob } from "./periodic-job.ts";

/*
 * The mail outbox (issue 23 item 7): every mail the app sends from an event is a `mail_outbox` row
 * before it is sent — written by the gateway after the write that caused it, or, for a waitlist
 * promotion, by pb_hooks/lib/events.js inside the registration's own save. Rows are claimed atomically
 * (pocketbase/queue-claims.ts), sent, and marked sent; a failed send is retried with backoff. A mail is
 * sent once unless a gateway dies between the SMTP server accepting it and the row being marked (then
 * once more, after the lease): at least once, never lost.
 */

/** The waits before the 2nd, 3rd… attempt (about a day in all), then the row is failed for good. */
export const MAIL_RETRY_DELAYS_MS = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
];
/** Longer than any one SMTP send: a row held longer than this belongs to a gateway that died. */
const LEASE_SECONDS = 120;
const BATCH = 10;

/** A composed mail as the outbox stores it. */
export interface QueuedMail {
  message: MailMessage;
  churchName: string;
}

/**
 * Writes a mail that is composed only when it is sent (a promotion: the hook queued the row, the
 * registration says what to write); null when there is nothing to send any more.
 */
export type MailComposer = (row: MailOutboxRecord) => Promise<QueuedMail | null>;

export interface MailOutboxRun {
  sent: number;
  retrying: number;
  failed: number;
}

export class MailOutbox {
  private readonly composers = new Map<MailOutboxKind, MailComposer>();
  private draining: Promise<MailOutboxRun> | null = null;
  private drainAgain = false;
  private retryDelaysMs: readonly number[] = MAIL_RETRY_DELAYS_MS;

  private readonly system: SystemClient;
  private readonly mailer: Mailer;

  constructor(system: SystemClient, mailer: Mailer) {
    this.system = system;
    this.mailer = mailer;
  }

  /** The composer of a kind whose rows carry no message (the events feature registers its promotions). */
  compose(kind: MailOutboxKind, composer: MailComposer): void {
    this.composers.set(kind, composer);
  }

  /**
   * Queue a composed mail and send it soon (now, if this process is idle). With a `dedupeKey` the mail
   * is queued once whoever queues it (two runs of a job, two gateways: the key is unique in the table);
   * resolves to false when a row with that key was queued before.
   */
  async enqueue(
    kind: MailOutboxKind,
    mail: QueuedMail,
    options: { dedupeKey?: string } = {},
  ): Promise<boolean> {
    const pb = await this.system.get();
    try {
      await pb.collection("mail_outbox").create({
        kind,
        message: mail,
        dedupeKey: options.dedupeKey ?? "",
        status: "pending",
        attempts: 0,
        nextAttemptAt: toPocketBaseDate(new Date()),
      });
    } catch (error) {
      const taken =
        error instanceof ClientResponseError &&
        (error.response?.data as Record<string, { code?: string }> | undefined)?.dedupeKey?.code ===
          "validation_not_unique";
      if (options.dedupeKey && taken) return false;
      throw error;
    }
    this.kick();
    return true;
  }

  /** Send what is due now, without waiting (after a write that may have queued mail). */
  kick(): void {
    void this.drain().catch((error: unknown) =>
      console.error("[mail-outbox] could not send:", error instanceof Error ? error.message : error),
    );
  }

  /** Send every due row, batch by batch; concurrent callers share one pass (and ask for another). */
  drain(): Promise<MailOutboxRun> {
    if (this.draining) {
      this.drainAgain = true;
      return this.draining;
    }
    this.draining = (async () => {
      const run: MailOutboxRun = { sent: 0, retrying: 0, failed: 0 };
      do {
        this.drainAgain = false;
        for (;;) {
          const rows = await claimRows<MailOutboxRecord>(this.system, "mail_outbox", BATCH, LEASE_SECONDS);
          if (!rows.length) break;
          for (const row of rows) run[await this.sendOne(row)]++;
        }
      } while (this.drainAgain);
      return run;
    })().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /** One claimed row: compose if needed, send, record the outcome and give the row back. */
  private async sendOne(row: MailOutboxRecord): Promise<keyof MailOutboxRun> {
    const pb = await this.system.get();
    const attempts = (row.attempts ?? 0) + 1;
    let error = "";
    try {
      const mail = row.message ? (row.message as QueuedMail) : await this.composers.get(row.kind)?.(row);
      if (mail === null) {
        await pb.collection("mail_outbox").update(row.id, {
          status: "failed",
          attempts,
          error: "Nothing to send any more (the registration is gone or was cancelled).",
          ...released,
        });
        return "failed";
      }
      if (!mail) throw new Error(`No composer for ${row.kind}.`);
      await this.mailer.send(mail.message, mail.churchName);
    } catch (failure) {
      error = (failure instanceof Error ? failure.message : String(failure)).slice(0, 500);
    }
    const now = new Date();
    if (!error) {
      await pb.collection("mail_outbox").update(row.id, {
        status: "sent",
        attempts,
        sentAt: toPocketBaseDate(now),
        error: "",
        ...released,
      });
      if (row.kind === "event.promoted" && row.registration)
        await pb
          .collection("registrations")
          .update(row.registration, { promotionMailedAt: toPocketBaseDate(now) })
          .catch(() => undefined);
      return "sent";
    }
    const again = attempts <= this.retryDelaysMs.length;
    console.error(`[mail-outbox] ${row.kind} ${row.id}: attempt ${attempts} failed: ${error}`);
    await pb.collection("mail_outbox").update(row.id, {
      status: again ? "pending" : "failed",
      attempts,
      nextAttemptAt: again ? toPocketBaseDate(now.getTime() + this.retryDelaysMs[attempts - 1]!) : "",
      error,
      ...released,
    });
    return again ? "retrying" : "failed";
  }

  /**
   * The periodic job (retries, rows another process queued): every `intervalMs` (1 s by default; tests
   * pass a shorter retry schedule). Returns the stop function.
   */
  start(options: { intervalMs?: number; retryDelaysMs?: readonly number[] } = {}): () => void {
    if (options.retryDelaysMs) this.retryDelaysMs = options.retryDelaysMs;
    return startPeriodicJob({
      name: "mail-outbox",
      intervalMs: options.intervalMs ?? 1_000,
      run: () => this.drain(),
      report: (run) =>
        run.failed ? `${run.sent} sent, ${run.retrying} to retry, ${run.failed} failed for good` : null,
      failure: "could not send queued mail",
    });
  }
}
