/**
 * Server-side text follows its reader's language (issue 9): a mail and an in-app notification are
 * written in the recipient's language (users.locale, else the church's). Mail is read from the catcher.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import type { NotificationRecord } from "../src/pocketbase/records.ts";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  GqlClient,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import { I18nMailApproveDocument, I18nMailSubmitDocument } from "./__generated__/operations.ts";

const VISIT = `mutation($input: VisitRequestInput!) { submitVisitRequest(input: $input) }`;
const SUBMIT = I18nMailSubmitDocument; // ./operations/i18n-mail.graphql
const APPROVE = I18nMailApproveDocument;

let gateway: Gateway;
let su: PocketBase;
let ip = 0;
const client = (user?: TestUser) => new GqlClient(gateway, { token: user?.token, ip: `203.0.113.${++ip}` });
const tag = () => randomUUID().slice(0, 8);
const catcher = () => catcherUrl();
const notificationsOf = (user: TestUser) =>
  su
    .collection("notifications")
    .getFullList<NotificationRecord>({ filter: su.filter("user = {:u}", { u: user.id }), sort: "-created" });

async function speaking(user: TestUser, locale: "" | "en" | "es"): Promise<TestUser> {
  await su.collection("users").update(user.id, { locale });
  return user;
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  // The church's language stays English here: the Spanish reader is Spanish by their own choice.
  expect((await su.collection("settings").getFirstListItem("")).locale).toBe("en");
});
afterAll(() => gateway.close());

describe("each reader in their own language", () => {
  it("a staff alert: a Spanish-speaking pastor gets a Spanish mail and notification, an English one English", async () => {
    const spanish = await speaking(await createUser({ roles: ["Pastor"] }), "es");
    const english = await speaking(await createUser({ roles: ["Pastor"] }), "en");
    const name = `Vera ${tag()}`;
    const result = await client().request(VISIT, {
      input: { name, email: uniqueEmail("visit"), partySize: 3, message: "Hola" },
    });
    expect(result.errors).toBeUndefined();

    const es = await waitForMail(
      catcher(),
      spanish.email,
      new RegExp(`Nueva solicitud de visita de ${name}`),
    );
    expect(es.text).toContain(`${name} planea una visita (un grupo de 3).`);
    expect(es.text).toContain("Abrir las solicitudes de visita:\nhttp://flock.test/admin/visits");
    expect(es.html).toContain('<html lang="es">');
    const en = await waitForMail(catcher(), english.email, new RegExp(`New visit request from ${name}`));
    expect(en.text).toContain(`${name} plans a visit (a party of 3).`);
    expect(en.html).toContain('<html lang="en">');
    // One mail each, never both languages to one reader.
    expect(es.text).not.toContain("New visit request");
    expect(en.text).not.toContain("Nueva solicitud");

    const [esNote] = (await notificationsOf(spanish)).filter(
      (n) => n.kind === "visit_request" && n.title.includes(name),
    );
    expect(esNote).toMatchObject({
      title: `Nueva solicitud de visita de ${name}`,
      body: `${name} planea una visita (un grupo de 3).`,
    });
    const [enNote] = (await notificationsOf(english)).filter(
      (n) => n.kind === "visit_request" && n.title.includes(name),
    );
    expect(enNote).toMatchObject({
      title: `New visit request from ${name}`,
      body: `${name} plans a visit (a party of 3).`,
    });
  });

  it("a prayer request approved: its Spanish-speaking author hears in Spanish, an English one in English", async () => {
    const moderator = await createUser({ roles: ["Care Team"] });
    const cases = [
      {
        locale: "es" as const,
        title: "Tu petición de oración fue aprobada",
        subject: /Tu petición de oración en .* fue aprobada/,
        text: "Tu petición de oración ya está en el muro de oración",
      },
      {
        locale: "en" as const,
        title: "Your prayer request was approved",
        subject: /Your prayer request at .* was approved/,
        text: "Your prayer request is now on the prayer wall",
      },
    ];
    for (const expected of cases) {
      const author = await speaking(await createUser(), expected.locale);
      const body = `Please pray for our family's move ${tag()}`;
      const submitted = await client(author).execute(SUBMIT, {
        input: { body, visibility: "PUBLIC", anonymous: false },
      });
      expect(submitted.errors).toBeUndefined();
      const approved = await client(moderator).request(APPROVE, {
        id: submitted.data!.submitPrayerRequest.id,
      });
      expect(approved.errors).toBeUndefined();

      const mail = await waitForMail(catcher(), author.email, expected.subject);
      expect(mail.text).toContain(expected.text);
      expect(mail.text).toContain(body);
      const [note] = (await notificationsOf(author)).filter((n) => n.kind === "prayer_approved");
      expect(note).toMatchObject({ title: expected.title, body });
    }
  });

  it("without a choice of their own, a reader gets the church's language", async () => {
    const undecided = await speaking(await createUser({ roles: ["Pastor"] }), "");
    const name = `Uma ${tag()}`;
    expect(
      (await client().request(VISIT, { input: { name, email: uniqueEmail("visit") } })).errors,
    ).toBeUndefined();
    const mail = await waitForMail(catcher(), undecided.email, new RegExp(`New visit request from ${name}`));
    expect(mail.text).toContain(`${name} plans a visit.`);
  });

  it("an event registration: a Spanish-speaking member's mail is Spanish, a visitor's is the church's English", async () => {
    const year = new Date().getUTCFullYear() + 1;
    const event = await su.collection("events").create({
      title: `Retiro ${tag()}`,
      slug: `retiro-${tag()}`,
      startsAt: `${year}-02-07 15:00:00.000Z`,
      endsAt: `${year}-02-07 18:00:00.000Z`,
      timezone: "UTC",
      visibility: "public",
      status: "published",
      registrationMode: "registration",
      capacity: 20,
    });
    const register = `mutation($input: RegistrationInput!) { register(input: $input) { confirmationCode } }`;
    const originalStart = `${year}-02-07T15:00:00.000Z`;
    const spanish = await speaking(await createUser(), "es");
    const visitorEmail = uniqueEmail("visitor");
    for (const [user, email] of [
      [spanish, spanish.email],
      [undefined, visitorEmail],
    ] as const) {
      const result = await client(user).request(register, {
        input: { eventId: event.id, originalStart, name: "Rosa", email, attendees: 1 },
      });
      expect(result.errors).toBeUndefined();
    }
    const es = await waitForMail(catcher(), spanish.email, /^Inscripción confirmada: Retiro/);
    expect(es.html).toContain('<html lang="es">');
    const en = await waitForMail(catcher(), visitorEmail, /^Registered: Retiro/);
    expect(en.html).toContain('<html lang="en">');
  });
});
