/**
 * Every mail is branded (issue 10): the church's name, logo and colour, a real button, a plain-text
 * part that reads as text (no Markdown "[label](url)"), and the site's time format. Checked on the
 * mail as it arrives at the catcher, with the HTML parsed (happy-dom) and the text part read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Window } from "happy-dom";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { waitForMail, type CaughtMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  CSRF_HEADER,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
  uniqueEmail,
  catcherUrl,
  pbUrl,
} from "./helpers.ts";
import { accessibleColor } from "../src/mail/brand.ts";

let gateway: Gateway;
let su: PocketBase;
let settingsId: string;
let original: Record<string, unknown>;
const BRAND = "#ffcc00"; // too light for white text: the mail must use the darkened colour, as the site does

const PNG = pngBytes();

async function admin(): Promise<GqlClient> {
  const user = await createUser({ roles: ["Administrator"] });
  return new GqlClient(gateway, { token: user.token });
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const settings = (await su.collection("settings").getFullList())[0]!;
  settingsId = settings.id;
  original = {
    brandColor: settings.brandColor,
    serviceTimes: settings.serviceTimes,
    address: settings.address,
    locale: settings.locale,
  };
  // Through the gateway, as an administrator would: the branded PocketBase templates follow.
  const asAdmin = await admin();
  const updated = await asAdmin.request(
    `mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { brandColor } }`,
    {
      input: {
        brandColor: BRAND,
        address: "1 Chapel Road, Springfield",
        locale: "en",
        serviceTimes: [
          { day: "SUNDAY", time: "09:00", label: "Worship" },
          { day: "WEDNESDAY", time: "18:30", label: "" },
        ],
      },
    },
  );
  expect(updated.errors).toBeUndefined();
  const UPLOAD = "mutation($file: File!) { uploadLogo(file: $file) { logoUrl } }";
  const logo = await asAdmin.request(
    UPLOAD,
    {},
    {
      body: multipartBody(UPLOAD, "file", fileOf(PNG, "logo.png", "image/png"), "logo.png"),
      headers: { [CSRF_HEADER]: "1" },
    },
  );
  expect(logo.errors).toBeUndefined();
});

afterAll(async () => {
  await su.collection("settings").update(settingsId, { ...original, logo: null });
  await gateway.close();
});

function parse(mail: CaughtMail) {
  const window = new Window();
  window.document.write(mail.html);
  return window.document;
}

/** The branded layout: logo with the church's name as its text, the darkened colour, the footer. */
async function expectBranded(mail: CaughtMail) {
  const settings = await su.collection("settings").getOne(settingsId);
  const doc = parse(mail);
  const logo = doc.querySelector("img");
  expect(logo?.getAttribute("alt")).toBe(settings.churchName);
  expect(logo?.getAttribute("src")).toMatch(
    new RegExp(`^http://flock\\.test/files/.+/${settingsId}/logo.*\\.png\\?thumb=0x96$`),
  );
  expect(mail.html).toContain(`background:${accessibleColor(BRAND)}`);
  expect(accessibleColor(BRAND)).not.toBe(BRAND);
  expect(doc.body.textContent).toContain("1 Chapel Road, Springfield");
  expect(mail.text).toContain(`—\n${settings.churchName}\n1 Chapel Road, Springfield\nhttp://flock.test`);
  expect(mail.text).not.toMatch(/\[[^\]]+\]\([^)]+\)/); // no Markdown links
  expect(mail.text).not.toMatch(/<[a-z!]/i); // no markup
  return doc;
}

function button(doc: ReturnType<typeof parse>, label: string) {
  const link = [...doc.querySelectorAll("a")].find((a) => a.textContent?.trim() === label);
  expect(link, `a button labelled ${label}`).toBeTruthy();
  expect(link!.getAttribute("style")).toContain(`background:${accessibleColor(BRAND)}`);
  expect(link!.getAttribute("style")).toContain("color:#ffffff");
  return link!.getAttribute("href")!;
}

describe("PocketBase's own auth mails", () => {
  it("the verification mail is branded, with a button and a text part that is plain text", async () => {
    const email = uniqueEmail("verify");
    const result = await new GqlClient(gateway, { ip: "198.51.100.71" }).request(
      `mutation($input: SignUpInput!) { signUp(input: $input) }`,
      {
        input: {
          firstName: "Vera",
          lastName: "Fy",
          email,
          password: "correct-horse-battery-2",
          passwordConfirm: "correct-horse-battery-2",
        },
      },
    );
    expect(result.errors).toBeUndefined();
    const mail = await waitForMail(catcherUrl(), email, /Confirm your email/);
    const doc = await expectBranded(mail);
    const href = button(doc, "Confirm my email");
    expect(href).toMatch(/^http:\/\/flock\.test\/verify-email\?token=[\w.-]+$/);
    // The text part carries the same link, written out, and the marker comment is gone from the HTML.
    expect(mail.text).toContain(`Confirm my email:\n${href}`);
    expect(mail.html).not.toContain("flock:text");
    expect(mail.text).not.toContain("&#45;");
  });

  it("the password-reset mail is branded the same way", async () => {
    const user = await createUser();
    const result = await new GqlClient(gateway, { ip: "198.51.100.72" }).request(
      `mutation($e: String!) { requestPasswordReset(email: $e) }`,
      { e: user.email },
    );
    expect(result.errors).toBeUndefined();
    const mail = await waitForMail(catcherUrl(), user.email, /Reset your/);
    const doc = await expectBranded(mail);
    const href = button(doc, "Choose a new password");
    expect(href).toMatch(/^http:\/\/flock\.test\/reset-password\?token=[\w.-]+$/);
    expect(mail.text).toContain(`Choose a new password:\n${href}`);
  });

  it("the new sign-in alert is branded too, with the device and a way out", async () => {
    const user = await createUser(); // signed in once (createUser): that device is known
    const response = await fetch(`${pbUrl()}/api/collections/users/auth-with-password`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Unfamiliar Browser 1.0" },
      body: JSON.stringify({ identity: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    const mail = await waitForMail(catcherUrl(), user.email, /New sign-in to your/);
    const doc = await expectBranded(mail);
    expect(button(doc, "It wasn't me: reset my password")).toBe("http://flock.test/forgot-password");
    expect(mail.text).toContain("Unfamiliar Browser 1.0");
    expect(mail.text).toContain("It wasn't me: reset my password:\nhttp://flock.test/forgot-password");
  });
});

describe("the gateway's own mails", () => {
  it("the visit confirmation is branded and shows service times as the site does (9:00 AM)", async () => {
    const email = uniqueEmail("visit-brand");
    const result = await new GqlClient(gateway, { ip: "198.51.100.73" }).request(
      `mutation($input: VisitRequestInput!) { submitVisitRequest(input: $input) }`,
      {
        input: { name: "Bea Branded", email },
      },
    );
    expect(result.errors).toBeUndefined();
    const mail = await waitForMail(catcherUrl(), email, /Your visit to/);
    await expectBranded(mail);
    expect(mail.text).toContain("Sunday 9:00 AM — Worship");
    expect(mail.text).toContain("Wednesday 6:30 PM");
    expect(mail.text).not.toContain("09:00");
    expect(mail.text).not.toContain("18:30");
  });
});
