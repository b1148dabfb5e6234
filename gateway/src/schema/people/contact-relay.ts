import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { conflict, forbidden, notFound, pbCall, rateLimited, serviceUnavailable } from "../../errors.ts";
import { recipientLocale, translator } from "../../mail/i18n.ts";
import { escapeHtml } from "../../mail/mailer.ts";
import type { PersonEmailRecord, PersonRecord, UserRecord } from "../../pocketbase/records.ts";
import { THROTTLE } from "@flock/shared/limits";
import { requireViewer } from "../../access/guards.ts";
import { isContactable, maySendContactMessages } from "../../access/people.ts";
import { displayName, viewerPerson } from "./mappers.ts";
import { validateContactMessage } from "./validate-people.ts";

const HOUR_MS = 60 * 60 * 1000;

/**
 * The directory's "Contact" button (PRODUCT.md §2): a message reaches a listed member by email without
 * the sender ever learning the address. The sender's name and login email go with it (Reply-To), so
 * the recipient may answer directly if they choose.
 *
 * Everything the sender decides is checked with the sender's token: they must be an active member and
 * able to see the recipient, who must be listed in the directory (never a child). Only then does a
 * system job read the recipient's address (documented exception, docs/ARCHITECTURE.md) and send the
 * mail. The address is used for sending and never returned.
 */
export async function contactPerson(
  ctx: GatewayContext,
  personId: string,
  message: string,
): Promise<boolean> {
  const viewer = await requireViewer(ctx);
  const sender = viewerPerson(viewer);
  if (!sender || !maySendContactMessages(viewer)) throw forbidden();
  const text = validateContactMessage(message);

  const limitKey = `contact:${viewer.id}`;
  const wait = await ctx.limiter.retryAfter(limitKey, THROTTLE.contactPerSenderPerHour, HOUR_MS);
  if (wait > 0) throw rateLimited(wait);

  const found = await pbCall(() =>
    ctx.pb.collection("people").getList<PersonRecord>(1, 1, {
      filter: ctx.pb.filter("id = {:id}", { id: personId }),
      skipTotal: true,
    }),
  );
  const recipient = found.items[0];
  if (!recipient) throw notFound();
  // Visible but not contactable (a child of the sender's own household, someone who opted out).
  if (!isContactable(recipient)) throw forbidden();

  await ctx.limiter.hit(limitKey, HOUR_MS);
  const address = await recipientAddress(ctx, recipient.id);
  if (!address) {
    throw conflict(
      "This person can't receive messages through the app yet. The church office can help.",
      "no_address",
    );
  }
  // The footer says what is true for this recipient's choices: whether the sender may already see
  // the address the message went to (a row the recipient shares), asked with the sender's own token.
  const shownToSender = address.rowId !== null && (await readableBy(ctx, address.rowId));
  await sendContactMail(ctx, {
    to: address.email,
    locale: address.locale,
    shownToSender,
    recipient,
    sender: viewer,
    senderName: displayName(sender),
    text,
  });
  return true;
}

/** Whether the caller's rules let them read this email row (a hidden row answers 404). */
async function readableBy(ctx: GatewayContext, rowId: string): Promise<boolean> {
  try {
    await ctx.pb.collection("person_emails").getOne(rowId, { fields: "id" });
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && (error.status === 404 || error.status === 403)) return false;
    throw error;
  }
}

/**
 * System job: the recipient's primary email (else their oldest email row, else their login's email).
 * The sender's rules would hide a private address, which is the point of the relay.
 */
async function recipientAddress(
  ctx: GatewayContext,
  personId: string,
): Promise<{ email: string; rowId: string | null; locale: string } | null> {
  const system = await ctx.system.get();
  const users = await pbCall(() =>
    system.collection("users").getList<UserRecord>(1, 1, {
      filter: system.filter("person = {:id}", { id: personId }),
      skipTotal: true,
    }),
  );
  // The mail is written in the language the recipient chose for their login (else the church's).
  const locale = users.items[0]?.locale ?? "";
  const rows = await pbCall(() =>
    system.collection("person_emails").getList<PersonEmailRecord>(1, 1, {
      filter: system.filter("person = {:id}", { id: personId }),
      sort: "-isPrimary,created",
      skipTotal: true,
    }),
  );
  if (rows.items[0]) return { email: rows.items[0].email, rowId: rows.items[0].id, locale };
  // A login's email is private to its owner: never shown to other members.
  return users.items[0] ? { email: users.items[0].email, rowId: null, locale } : null;
}

async function sendContactMail(
  ctx: GatewayContext,
  mail: {
    to: string;
    locale: string;
    shownToSender: boolean;
    recipient: PersonRecord;
    sender: UserRecord;
    senderName: string;
    text: string;
  },
): Promise<void> {
  const settings = await ctx.publicSettings.get();
  const { churchName } = settings;
  const locale = recipientLocale({ locale: mail.locale as UserRecord["locale"] }, settings);
  const t = translator(locale);
  const hello = t("mail.hello", { name: mail.recipient.preferredName || mail.recipient.firstName });
  const subject = t("contact.subject", { sender: mail.senderName, church: churchName });
  const footer = t("contact.footer", {
    sender: mail.senderName,
    church: churchName,
    shown: mail.shownToSender ? "yes" : "no",
  });
  try {
    await ctx.mailer.send(
      {
        to: mail.to,
        replyTo: mail.sender.email,
        subject,
        text: `${hello}\n\n${mail.text}\n\n— ${mail.senderName}\n\n${footer}\n`,
        locale,
        html:
          `<p>${escapeHtml(hello)}</p>` +
          `<p style="white-space: pre-wrap">${escapeHtml(mail.text)}</p>` +
          `<p>— ${escapeHtml(mail.senderName)}</p><p><small>${escapeHtml(footer)}</small></p>`,
      },
      churchName,
    );
  } catch (error) {
    console.error("[contact] sending failed", error);
    throw serviceUnavailable("We couldn't send the message right now. Please try again.");
  }
}
