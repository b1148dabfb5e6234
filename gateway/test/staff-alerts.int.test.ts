/**
 * Staff alerts (issue 10): a new visit request, a sign-up waiting for approval and a prayer request
 * waiting for moderation reach the staff who handle them — a notification and a branded mail at once
 * by default, a daily digest (a system job whose state is in the database) or nothing, as each person
 * chooses — and "create a person from this visit". Mail is read from the catcher.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { runStaffDigest } from "../src/system/staff-digest.ts";
import { waitForMail, type CaughtMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  StaffAlertsFromVisitDocument,
  StaffAlertsNotificationsDocument,
  StaffAlertsPrefsDocument,
} from "./__generated__/operations.ts";
import { parsePocketBaseDate, toPocketBaseDate } from "../src/pocketbase/dates.ts";

const PREFS = StaffAlertsPrefsDocument; // ./operations/staff-alerts.graphql
const SET = `mutation($topic: StaffAlertTopic!, $delivery: AlertDelivery!) { setStaffAlertPreference(topic: $topic, delivery: $delivery) { topic delivery } }`;
const VISIT = `mutation($input: VisitRequestInput!) { submitVisitRequest(input: $input) }`;
const PRAYER = `mutation($input: PrayerRequestInput!) { submitPrayerRequest(input: $input) { id } }`;
const SIGN_UP = `mutation($input: SignUpInput!) { signUp(input: $input) }`;
const NOTIFICATIONS = StaffAlertsNotificationsDocument;
const FROM_VISIT = StaffAlertsFromVisitDocument;

let gateway: Gateway;
let su: PocketBase;
let ip = 0;
const visitor = () => new GqlClient(gateway, { ip: `192.0.2.${++ip}` });
const as = (user: TestUser) => new GqlClient(gateway, { token: user.token });
const tag = () => randomUUID().slice(0, 8);
const catcher = () => catcherUrl();

async function mailsTo(email: string): Promise<CaughtMail[]> {
  return (await (
    await fetch(`${catcher()}/messages?to=${encodeURIComponent(email)}`)
  ).json()) as CaughtMail[];
}

function buttonHref(mail: CaughtMail, label: string): string {
  const window = new Window();
  window.document.write(mail.html);
  const link = [...window.document.querySelectorAll("a")].find((a) => a.textContent?.trim() === label);
  expect(link, `button ${label}`).toBeTruthy();
  return link!.getAttribute("href")!;
}

async function setPref(user: TestUser, topic: string, delivery: string) {
  const result = await as(user).request(SET, { topic, delivery });
  expect(result.errors).toBeUndefined();
}

async function visit(name: string) {
  const result = await visitor().request(VISIT, {
    input: { name, email: uniqueEmail("visit"), phone: "(202) 555-0188", message: "We just moved here." },
  });
  expect(result.errors).toBeUndefined();
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
});
afterAll(() => gateway.close());

describe("at once (the default)", () => {
  it("a visit request reaches people managers by notification and a branded mail with a button", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const member = await createUser();
    const name = `Val Visit ${tag()}`;
    await visit(name);
    const mail = await waitForMail(catcher(), pastor.email, new RegExp(`New visit request from ${name}`));
    expect(buttonHref(mail, "Open visit requests")).toBe("http://flock.test/admin/visits");
    expect(mail.text).toContain("We just moved here.");
    expect(mail.text).toContain("Open visit requests:\nhttp://flock.test/admin/visits");
    const seen = await as(pastor).execute(NOTIFICATIONS);
    expect(seen.data!.notifications.edges.map((e) => e.node)).toContainEqual({
      kind: "VISIT_REQUEST",
      title: `New visit request from ${name}`,
      link: "/admin/visits",
    });
    // Members are not staff: nothing for them. (The pastor's mail arrived, so the alert has run.)
    expect((await mailsTo(member.email)).filter((m) => m.subject.includes(name))).toEqual([]);
  });

  it("a sign-up waiting for approval reaches people managers, linking to the person", async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    const last = `Signup${tag()}`;
    const result = await visitor().request(SIGN_UP, {
      input: {
        firstName: "Sam",
        lastName: last,
        email: uniqueEmail("signup"),
        password: "correct-horse-battery-9",
        passwordConfirm: "correct-horse-battery-9",
      },
    });
    expect(result.errors).toBeUndefined();
    const mail = await waitForMail(catcher(), admin.email, new RegExp(`Sam ${last} signed up`));
    const person = await su.collection("people").getFirstListItem(su.filter("lastName = {:l}", { l: last }));
    expect(buttonHref(mail, "Review the sign-up")).toBe(`http://flock.test/admin/people/${person.id}`);
  });

  it("a prayer request waiting for moderation reaches moderators; a pastoral one only pastoral staff", async () => {
    const careTeam = await createUser({ roles: ["Care Team"] });
    const role = await su
      .collection("roles")
      .create({ name: `Moderator ${tag()}`, description: "", permissions: ["prayer.moderate"] });
    const moderator = await createUser();
    await su.collection("users").update(moderator.id, { roles: [role.id] });
    const publicBody = `Please pray for the harvest supper ${tag()}`;
    expect(
      (
        await visitor().request(PRAYER, {
          input: { body: publicBody, visibility: "PUBLIC", anonymous: true, email: uniqueEmail("p") },
        })
      ).errors,
    ).toBeUndefined();
    for (const staff of [careTeam, moderator]) {
      const mail = await waitForMail(catcher(), staff.email, /A prayer request waits for moderation/);
      expect(mail.text).toContain(publicBody);
      expect(buttonHref(mail, "Open prayer requests")).toBe("http://flock.test/admin/prayer");
    }
    const pastoralBody = `Only for the pastors, please ${tag()}`;
    expect(
      (
        await visitor().request(PRAYER, {
          input: { body: pastoralBody, visibility: "PASTORAL", anonymous: true, email: uniqueEmail("p") },
        })
      ).errors,
    ).toBeUndefined();
    const pastoral = await waitForMail(catcher(), careTeam.email, /A pastoral prayer request arrived/);
    expect(pastoral.text).toContain(pastoralBody);
    expect((await mailsTo(moderator.email)).some((m) => m.text.includes(pastoralBody))).toBe(false);
  });
});

describe("preferences", () => {
  it("each topic the viewer handles, immediate by default; members have none and cannot set one", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const careTeam = await createUser({ roles: ["Care Team"] });
    const member = await createUser();
    expect((await as(pastor).request(PREFS)).data).toEqual({
      staffAlertPreferences: [
        { topic: "VISIT_REQUESTS", delivery: "IMMEDIATE" },
        { topic: "SIGNUPS", delivery: "IMMEDIATE" },
        { topic: "PRAYER_MODERATION", delivery: "IMMEDIATE" },
      ],
    });
    expect((await as(careTeam).request(PREFS)).data).toEqual({
      staffAlertPreferences: [{ topic: "PRAYER_MODERATION", delivery: "IMMEDIATE" }],
    });
    expect((await as(member).request(PREFS)).data).toEqual({ staffAlertPreferences: [] });
    expect(errorCode(await as(member).request(SET, { topic: "VISIT_REQUESTS", delivery: "OFF" }))).toBe(
      "FORBIDDEN",
    );
    expect(errorCode(await as(careTeam).request(SET, { topic: "SIGNUPS", delivery: "OFF" }))).toBe(
      "FORBIDDEN",
    );
    expect(errorCode(await new GqlClient(gateway).request(PREFS))).toBe("UNAUTHENTICATED");
    await setPref(pastor, "SIGNUPS", "DAILY_DIGEST");
    expect((await as(pastor).execute(PREFS)).data!.staffAlertPreferences).toContainEqual({
      topic: "SIGNUPS",
      delivery: "DAILY_DIGEST",
    });
  });

  it("rows are their owner's: nobody else reads them, and nobody but the digest job moves lastDigestAt", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const admin = await createUser({ roles: ["Administrator"] });
    await setPref(pastor, "VISIT_REQUESTS", "OFF");
    const row = await su
      .collection("staff_alert_prefs")
      .getFirstListItem(su.filter("user = {:u}", { u: pastor.id }));
    expect(row.visits).toBe("off");
    for (const other of [admin, null])
      expect(await restStatus(() => pbAs(other).collection("staff_alert_prefs").getOne(row.id))).toBe(404);
    expect(
      await restStatus(() =>
        pbAs(pastor)
          .collection("staff_alert_prefs")
          .update(row.id, { lastDigestAt: "2001-01-01 00:00:00.000Z" }),
      ),
    ).toBe(404);
    expect(
      await restStatus(() => pbAs(pastor).collection("staff_alert_prefs").update(row.id, { user: admin.id })),
    ).toBe(404);
    expect(
      await restStatus(() =>
        pbAs(admin).collection("staff_alert_prefs").create({ user: pastor.id, visits: "immediate" }),
      ),
    ).toBe(400);
    expect(
      await restStatus(() =>
        pbAs(pastor).collection("staff_alert_prefs").update(row.id, { visits: "digest" }),
      ),
    ).toBe(200);
    expect((await su.collection("staff_alert_prefs").getOne(row.id)).lastDigestAt).toBe("");
  });

  it("off: nothing; daily digest: nothing now, then one digest mail a day (state in the database)", async () => {
    const [now, off, digest] = await Promise.all([
      createUser({ roles: ["Pastor"] }),
      createUser({ roles: ["Pastor"] }),
      createUser({ roles: ["Pastor"] }),
    ]);
    await setPref(off, "VISIT_REQUESTS", "OFF");
    await setPref(digest, "VISIT_REQUESTS", "DAILY_DIGEST");
    // The first run after choosing only starts the count (no digest of old news at once) …
    expect(await runStaffDigest(gateway.services, new Date(), { hour: 0 })).not.toContain(digest.id);
    const started = await su
      .collection("staff_alert_prefs")
      .getFirstListItem(su.filter("user = {:u}", { u: digest.id }));
    expect(started.lastDigestAt).not.toBe("");
    // … and the next day's run sends what arrived since. (Yesterday's digest, as the job would have left it.)
    await su
      .collection("staff_alert_prefs")
      .update(started.id, { lastDigestAt: toPocketBaseDate(Date.now() - 24 * 3600_000) });
    const name = `Dee Digest ${tag()}`;
    await visit(name);
    await waitForMail(catcher(), now.email, new RegExp(name));
    // The immediate mail went out (one Bcc mail for all), so the alert has run: the others got nothing.
    for (const user of [off, digest])
      expect((await mailsTo(user.email)).filter((m) => m.subject.includes(name))).toEqual([]);

    const sent = await runStaffDigest(gateway.services, new Date(), { hour: 0 });
    expect(sent).toContain(digest.id);
    expect(sent).not.toContain(off.id);
    const mail = await waitForMail(catcher(), digest.email, /Daily digest for/);
    expect(mail.text).toContain("New visit requests (");
    expect(mail.text).toContain(name);
    expect(mail.text).not.toMatch(/\[[^\]]+\]\(/);
    expect(buttonHref(mail, "Open the church office")).toBe("http://flock.test/admin/visits");
    const row = await su
      .collection("staff_alert_prefs")
      .getFirstListItem(su.filter("user = {:u}", { u: digest.id }));
    expect(parsePocketBaseDate(row.lastDigestAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Once a day: a second run the same day (a restart, the next tick) sends nothing again.
    expect(await runStaffDigest(gateway.services, new Date(), { hour: 0 })).not.toContain(digest.id);
    const seen = await as(digest).execute(NOTIFICATIONS);
    expect(seen.data!.notifications.edges.filter((e) => e.node.kind === "STAFF_DIGEST")).toHaveLength(1);
  });
});

describe("create a person from a visit", () => {
  it("people managers add the visitor as a person (visitor status, private contact rows) linked to the visit", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const careTeam = await createUser({ roles: ["Care Team"] });
    const last = `Newcomer${tag()}`;
    await visit(`Nina Jo ${last}`);
    const stored = await su
      .collection("visit_requests")
      .getFirstListItem(su.filter("name = {:n}", { n: `Nina Jo ${last}` }));
    expect(errorCode(await as(careTeam).request(FROM_VISIT, { id: stored.id }))).toBe("FORBIDDEN");
    const result = await as(pastor).execute(FROM_VISIT, { id: stored.id });
    expect(result.errors).toBeUndefined();
    const made = result.data!.createPersonFromVisit;
    expect(made).toMatchObject({
      id: stored.id,
      status: "CONTACTED",
      person: { firstName: "Nina Jo", lastName: last, membershipStatus: "VISITOR" },
    });
    const emails = await su
      .collection("person_emails")
      .getFullList({ filter: su.filter("person = {:p}", { p: made.person!.id }) });
    expect(emails.map((e) => [e.email, e.visibility])).toEqual([[stored.email, "private"]]);
    const phones = await su
      .collection("person_phones")
      .getFullList({ filter: su.filter("person = {:p}", { p: made.person!.id }) });
    expect(phones.map((p) => [p.number, p.visibility])).toEqual([["+12025550188", "private"]]);
    expect(errorCode(await as(pastor).request(FROM_VISIT, { id: stored.id }))).toBe("CONFLICT");
  });

  it("a one-word name needs a last name from staff", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const only = `Cher${tag()}`;
    await visit(only);
    const stored = await su
      .collection("visit_requests")
      .getFirstListItem(su.filter("name = {:n}", { n: only }));
    const missing = await as(pastor).request(FROM_VISIT, { id: stored.id });
    expect(errorCode(missing)).toBe("BAD_USER_INPUT");
    expect(missing.errors![0]!.extensions!.fieldErrors).toHaveProperty("lastName");
    const named = await as(pastor).execute(FROM_VISIT, { id: stored.id, first: only, last: "Sarkisian" });
    expect(named.errors).toBeUndefined();
    expect(named.data!.createPersonFromVisit.person!.lastName).toBe("Sarkisian");
  });
});
