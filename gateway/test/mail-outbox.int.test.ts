/**
 * Event mail goes through a durable outbox (issue 23 item 7): a waitlist promotion is queued inside the
 * registration's own save, every row is claimed atomically before it is sent, so concurrent
 * cancellations mail each promoted person once, and a failed SMTP send is retried until it is delivered
 * (once). Mail goes to the worker's mail catcher, or to a local SMTP server that refuses on purpose.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, prepareGateway, type Gateway } from "../src/index.ts";
import {
  catcherUrl,
  createUser,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testConfig,
  testGateway,
} from "./helpers.ts";
import { createEvent, registrationBody } from "./event-support.ts";
import type { CaughtMail } from "../../scripts/lib/smtp-catcher.ts";

let gateway: Gateway;
let ip = 0;
const visitor = () => new GqlClient(gateway, { ip: `198.51.100.${++ip}` });

async function mailsTo(email: string): Promise<CaughtMail[]> {
  return (await (
    await fetch(`${catcherUrl()}/messages?to=${encodeURIComponent(email)}`)
  ).json()) as CaughtMail[];
}

beforeAll(async () => {
  gateway = await testGateway();
});

afterAll(async () => {
  await gateway?.close();
});

describe("event mail outbox", () => {
  it("three parallel cancellations on a full event: each of the 6 promoted people gets exactly one mail", async () => {
    const event = await createEvent({
      title: "Outbox supper",
      registrationMode: "registration",
      capacity: 6,
      waitlistEnabled: true,
    });
    const guest = pbAs(null);
    const parties = [];
    for (let i = 0; i < 3; i++) {
      const body = registrationBody(event, { attendees: 2, name: `Party ${i}` });
      await guest.collection("registrations").create(body);
      parties.push(body.cancelToken);
    }
    const waiting: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = registrationBody(event, {
        name: `Waiting ${i}`,
        email: `outbox-${event.id}-${i}@test.example`,
      });
      await guest.collection("registrations").create(body);
      waiting.push(body.email);
    }
    const cancelled = await Promise.all(
      parties.map((token) =>
        visitor().request<{ cancelRegistration: { status: string } }>(
          `mutation($t: String) { cancelRegistration(token: $t) { status } }`,
          { t: token },
        ),
      ),
    );
    for (const result of cancelled) expect(result.data?.cancelRegistration.status).toBe("CANCELLED");
    // Everyone promoted is mailed…
    for (const email of waiting)
      await expect
        .poll(async () => (await mailsTo(email)).length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
    // …and, once every send that was started has had time to land, exactly once.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const email of waiting) {
      const mails = await mailsTo(email);
      expect(
        mails.map((m) => m.subject),
        email,
      ).toEqual(["A seat is yours: Outbox supper"]);
    }
  });

  it("two gateway processes draining one outbox send each mail once (rows are claimed atomically)", async () => {
    const su = await system();
    const other = await testGateway();
    const to = Array.from({ length: 8 }, (_, i) => `drain-${Date.now().toString(36)}-${i}@test.example`);
    for (const address of to)
      await su.collection("mail_outbox").create({
        kind: "event.rsvp",
        message: { message: { to: address, subject: "Drained once", text: "Hello." }, churchName: "Flock" },
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(Date.now() - 1000).toISOString(),
      });
    try {
      const runs = await Promise.all([
        gateway.services.mailOutbox.drain(),
        other.services.mailOutbox.drain(),
      ]);
      expect(runs[0]!.sent + runs[1]!.sent).toBeGreaterThanOrEqual(to.length);
      for (const address of to)
        expect(
          (await mailsTo(address)).map((m) => m.subject),
          address,
        ).toEqual(["Drained once"]);
    } finally {
      await other.close();
    }
  });

  it("is the system's alone: no one else lists, reads, writes or claims its rows (REST)", async () => {
    const su = await system();
    const row = await su.collection("mail_outbox").create({
      kind: "event.registered",
      message: { message: { to: "nobody@test.example", subject: "Private", text: "x" }, churchName: "Flock" },
      status: "sent",
      attempts: 1,
    });
    try {
      const [member, administrator] = [await createUser(), await createUser({ roles: ["Administrator"] })];
      for (const [who, pb] of [
        ["guest", pbAs(null)],
        ["member", pbAs(member)],
        ["administrator", pbAs(administrator)],
      ] as const) {
        expect(await restStatus(() => pb.collection("mail_outbox").getList(1, 10)), who).toBe(403);
        expect(await restStatus(() => pb.collection("mail_outbox").getOne(row.id)), who).toBe(403);
        expect(
          await restStatus(() => pb.collection("mail_outbox").update(row.id, { status: "pending" })),
          who,
        ).toBe(403);
        expect(
          await restStatus(() =>
            pb.send("/api/flock/queues/claim", {
              method: "POST",
              body: { queue: "mail_outbox", claim: "a".repeat(24), limit: 5, leaseSeconds: 60 },
            }),
          ),
          who,
        ).toBeGreaterThanOrEqual(401);
      }
    } finally {
      await su.collection("mail_outbox").delete(row.id);
    }
  });

  it("a send the SMTP server refuses is retried with backoff and delivered once", async () => {
    // A real SMTP server that refuses the first message it is given (451, a temporary failure).
    const accepted: Array<{ to: string[]; subject: string }> = [];
    let refused = 0;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            if (refused === 0) {
              refused++;
              const error = new Error("Try again later") as Error & { responseCode: number };
              error.responseCode = 451;
              return callback(error);
            }
            accepted.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: mail.subject ?? "" });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    smtp.on("error", () => {});
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const flaky = createGateway(
      testConfig({
        smtp: {
          host: "127.0.0.1",
          port,
          username: "",
          password: "",
          tls: false,
          senderAddress: "no-reply@flock.test",
        },
        mailOutbox: { intervalMs: 100, retryDelaysMs: [300, 300, 300] },
      }),
    );
    await prepareGateway(flaky);
    await flaky.listen();
    try {
      const event = await createEvent({
        title: "Retry breakfast",
        registrationMode: "registration",
        capacity: 5,
      });
      const email = `retry-${event.id}@test.example`;
      const registered = await new GqlClient(flaky, { ip: "198.51.100.200" }).request<{
        register: { confirmed: number };
      }>(`mutation($input: RegistrationInput!) { register(input: $input) { confirmed } }`, {
        input: { eventId: event.id, originalStart: event.startsAt, name: "Retry", email, attendees: 1 },
      });
      expect(registered.errors).toBeUndefined();
      // The retry is whichever gateway process claims the row first once it is due: usually this one
      // (it polls every 100 ms), but any gateway running on this worker's PocketBase may, and sends it
      // through its own mail server (the worker's catcher). Either way the mail goes out exactly once.
      const subjects = async () => [
        ...accepted.map((mail) => mail.subject),
        ...(await mailsTo(email)).map((mail) => mail.subject),
      ];
      await expect.poll(async () => (await subjects()).length, { timeout: 10_000 }).toBe(1);
      expect(refused).toBe(1);
      expect((await subjects())[0]).toContain("Retry breakfast");
      if (accepted.length) expect(accepted[0]).toMatchObject({ to: [email] });
      // Delivered once: later runs of the job find nothing left to send.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await subjects()).toHaveLength(1);
    } finally {
      await flaky.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
