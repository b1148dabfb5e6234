/**
 * Church settings: the administrator edits them, everyone reads them; validation answers with field
 * errors; the logo goes through GraphQL multipart into PocketBase's file storage; the church's name
 * reaches the emails PocketBase sends. On a PocketBase of its own (a copy of the migrated template): the
 * church's name, language and time zone it changes are read by every other file, and a CI run once had
 * another file render this file's Spanish title mid-run. Its changes are still undone in afterAll.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "graphql-sse";
import type { RecordModel } from "pocketbase";
import { prepareGateway, type Gateway } from "../src/index.ts";
import { LIMITS } from "@flock/shared/limits";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  countPocketBaseCalls,
  createUser,
  CSRF_HEADER,
  errorCode,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
  type TestUser,
  catcherUrl,
  ownPocketBase,
  pbUrl,
} from "./helpers.ts";
import { SseSubscription } from "./sse.ts";
import { DedicatedPocketBase } from "./realtime-support.ts";

const SETTINGS_FIELDS = `churchName tagline brandColor timezone locale address phone email allowSignup directoryDefaultVisibility
  prayerRequiresApproval prayerExpiryDays serviceTimes { day time label } socialLinks { facebook instagram youtube website }`;
const UPDATE = `mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { ${SETTINGS_FIELDS} } }`;
const UPLOAD = `mutation($file: File!) { uploadLogo(file: $file) { logo: logoUrl header: logoUrl(size: HEADER) square: logoUrl(size: SQUARE) } }`;

let gateway: Gateway;
let admin: TestUser;
let original: RecordModel;
let church: DedicatedPocketBase;
let backToWorker: () => void = () => {};

const asAdmin = () => new GqlClient(gateway, { token: admin.token });
const readSettings = async () =>
  (
    await new GqlClient(gateway).request<{ settings: Record<string, unknown> }>(
      `{ settings { ${SETTINGS_FIELDS} logoUrl } }`,
    )
  ).data!.settings;
const settingsRecord = async () => (await (await system()).collection("settings").getFullList())[0]!;

function upload(client: GqlClient, bytes: Uint8Array, type: string, name: string) {
  return client.request<{
    uploadLogo: { logo: string | null; header: string | null; square: string | null };
  }>(
    UPLOAD,
    {},
    {
      body: multipartBody(UPLOAD, "file", fileOf(bytes, name, type), name),
      headers: { [CSRF_HEADER]: "1" },
    },
  );
}

beforeAll(async () => {
  church = await DedicatedPocketBase.start();
  backToWorker = ownPocketBase(church.url);
  gateway = await testGateway();
  admin = await createUser({ roles: ["Administrator"] });
  original = await settingsRecord();
});

afterAll(async () => {
  const su = await system();
  const {
    churchName,
    tagline,
    brandColor,
    timezone,
    locale,
    address,
    phone,
    email,
    serviceTimes,
    socialLinks,
    allowSignup,
    directoryDefaultVisibility,
    prayerRequiresApproval,
    prayerExpiryDays,
  } = original;
  await su.collection("settings").update(original.id, {
    churchName,
    tagline,
    brandColor,
    timezone,
    locale,
    address,
    phone,
    email,
    serviceTimes,
    socialLinks,
    allowSignup,
    directoryDefaultVisibility,
    prayerRequiresApproval,
    prayerExpiryDays,
    logo: null,
  });
  await prepareGateway(gateway); // PocketBase's mail settings follow the restored name again
  await gateway.close();
  backToWorker();
  await church.stop();
});

describe("updating settings", () => {
  it("saves what the administrator changes and everyone reads it back", async () => {
    const input = {
      churchName: "  Grace Test Church  ",
      tagline: "Love God, love people",
      brandColor: "#1F6FEB",
      timezone: "Europe/Madrid",
      locale: "es",
      address: "1 Church Street\nSpringfield",
      phone: "+34 600 000 000",
      email: "Office@Grace.example",
      serviceTimes: [
        { day: "SUNDAY", time: "10:30", label: "Worship" },
        { day: "WEDNESDAY", time: "19:00", label: "Prayer" },
      ],
      socialLinks: { facebook: "https://facebook.com/grace", youtube: "https://youtube.com/@grace" },
      directoryDefaultVisibility: "LEADERS",
      prayerRequiresApproval: false,
      prayerExpiryDays: 30,
    };
    const result = await asAdmin().request(UPDATE, { input });
    expect(result.errors).toBeUndefined();
    const expected = {
      ...input,
      churchName: "Grace Test Church", // trimmed
      brandColor: "#1f6feb", // stored lower-case
      email: "office@grace.example",
      socialLinks: {
        facebook: "https://facebook.com/grace",
        instagram: null,
        youtube: "https://youtube.com/@grace",
        website: null,
      },
      allowSignup: original.allowSignup,
    };
    expect(result.data).toEqual({ updateSettings: expected });
    expect(await readSettings()).toEqual({ ...expected, logoUrl: null });
    // Stored in PocketBase as the schema expects (lower-case enums).
    expect(await settingsRecord()).toMatchObject({
      directoryDefaultVisibility: "leaders",
      serviceTimes: [
        { day: "sunday", time: "10:30", label: "Worship" },
        { day: "wednesday", time: "19:00", label: "Prayer" },
      ],
    });
  });

  it("leaves fields that are not sent as they are", async () => {
    const before = await readSettings();
    const result = await asAdmin().request(UPDATE, { input: { tagline: "Only the tagline" } });
    expect(result.data).toEqual({
      updateSettings: { ...before, logoUrl: undefined, tagline: "Only the tagline" },
    });
  });

  it.each([
    ["an empty church name", { churchName: "   " }, "churchName", "required"],
    [
      "a church name over 200 characters",
      { churchName: "x".repeat(LIMITS.nameMax + 1) },
      "churchName",
      "too_long",
    ],
    ["a tagline over 200 characters", { tagline: "x".repeat(LIMITS.taglineMax + 1) }, "tagline", "too_long"],
    ["a colour that is not #rrggbb", { brandColor: "#12345" }, "brandColor", "invalid_color"],
    ["a colour name", { brandColor: "red" }, "brandColor", "invalid_color"],
    ["an unknown time zone", { timezone: "Mars/Olympus_Mons" }, "timezone", "invalid_timezone"],
    [
      "a service at 25:00",
      { serviceTimes: [{ day: "SUNDAY", time: "25:00", label: "Late" }] },
      "serviceTimes.0.time",
      "invalid_time",
    ],
    [
      "a service at 9:30 (not HH:MM)",
      {
        serviceTimes: [
          { day: "SUNDAY", time: "10:00", label: "" },
          { day: "MONDAY", time: "9:30", label: "" },
        ],
      },
      "serviceTimes.1.time",
      "invalid_time",
    ],
    [
      "more than 20 service times",
      { serviceTimes: Array.from({ length: 21 }, () => ({ day: "SUNDAY", time: "10:00", label: "" })) },
      "serviceTimes",
      "too_many",
    ],
    ["a bad email", { email: "office@" }, "email", "invalid_email"],
    [
      "a social link that is not https",
      { socialLinks: { website: "http://grace.example" } },
      "socialLinks.website",
      "invalid_url",
    ],
    ["zero prayer expiry days", { prayerExpiryDays: 0 }, "prayerExpiryDays", "out_of_range"],
  ])("refuses %s with a field error, before calling PocketBase", async (_, input, field, code) => {
    const before = await settingsRecord();
    const { result, calls } = await countPocketBaseCalls(() =>
      asAdmin().request(UPDATE, { input: { tagline: "should not be saved", ...input } }),
    );
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
    expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ [field]: code });
    expect(result.errors?.[0]?.extensions?.fieldErrors).toEqual({ [field]: expect.any(String) });
    expect(calls).toBe(0);
    expect((await settingsRecord()).updated).toBe(before.updated);
  });

  it("reports every bad field at once", async () => {
    const result = await asAdmin().request(UPDATE, {
      input: { churchName: "", brandColor: "blue", timezone: "Nowhere", email: "x" },
    });
    expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({
      churchName: "required",
      brandColor: "invalid_color",
      timezone: "invalid_timezone",
      email: "invalid_email",
    });
  });

  it("is for administrators only", async () => {
    const editor = await createUser({ roles: ["Editor"] });
    expect(
      errorCode(
        await new GqlClient(gateway, { token: editor.token }).request(UPDATE, { input: { tagline: "x" } }),
      ),
    ).toBe("FORBIDDEN");
    expect(errorCode(await new GqlClient(gateway).request(UPDATE, { input: { tagline: "x" } }))).toBe(
      "UNAUTHENTICATED",
    );
  });
});

describe("the logo", () => {
  it("uploads through GraphQL multipart into PocketBase, with thumbnails", async () => {
    const png = pngBytes(200, 120);
    const result = await upload(asAdmin(), png, "image/png", "logo.png");
    expect(result.errors).toBeUndefined();
    const record = await settingsRecord();
    expect(record.logo).toMatch(/^logo_\w+\.png$/);
    const base = `http://flock.test/files/${record.collectionId}/${record.id}/${record.logo}`;
    expect(result.data?.uploadLogo).toEqual({
      logo: base,
      header: `${base}?thumb=0x96`,
      square: `${base}?thumb=192x192`,
    });

    // The file really arrived (the SDK silently drops a File it does not recognise).
    const stored = await fetch(`${pbUrl()}/api/files/${record.collectionId}/${record.id}/${record.logo}`);
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await fetch(
      `${pbUrl()}/api/files/${record.collectionId}/${record.id}/${record.logo}?thumb=0x96`,
    );
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/png");
  });

  it("refuses a file over 10 MB with PAYLOAD_TOO_LARGE and keeps the old logo", async () => {
    const before = (await settingsRecord()).logo;
    const big = Buffer.alloc(LIMITS.imageMaxBytes + 1);
    pngBytes().copy(big);
    const result = await upload(asAdmin(), big, "image/png", "huge.png");
    expect(errorCode(result)).toBe("PAYLOAD_TOO_LARGE");
    expect(result.errors?.[0]?.extensions?.maxBytes).toBe(LIMITS.imageMaxBytes);
    expect((await settingsRecord()).logo).toBe(before);
  });

  it.each([
    ["plain text", "text/plain", "logo.txt", Buffer.from("not an image")],
    [
      "SVG (it can carry script)",
      "image/svg+xml",
      "logo.svg",
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
    ],
    ["HTML", "text/html", "logo.html", Buffer.from("<script>alert(1)</script>")],
  ])("refuses %s with UNSUPPORTED_FILE_TYPE", async (_, type, name, bytes) => {
    const before = (await settingsRecord()).logo;
    const result = await upload(asAdmin(), bytes, type, name);
    expect(errorCode(result)).toBe("UNSUPPORTED_FILE_TYPE");
    expect(result.errors?.[0]?.extensions?.allowed).toEqual(["JPEG", "PNG", "WebP", "GIF"]);
    expect((await settingsRecord()).logo).toBe(before);
  });

  it("refuses a file that claims to be a PNG but is not (PocketBase sniffs the content)", async () => {
    const before = (await settingsRecord()).logo;
    const result = await upload(
      asAdmin(),
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
      "image/png",
      "logo.png",
    );
    expect(errorCode(result)).toBe("UNSUPPORTED_FILE_TYPE");
    expect(result.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ logo: "unsupported_file_type" });
    expect((await settingsRecord()).logo).toBe(before);
  });

  it("is for administrators only", async () => {
    const member = await createUser();
    const result = await upload(
      new GqlClient(gateway, { token: member.token }),
      pngBytes(),
      "image/png",
      "logo.png",
    );
    expect(errorCode(result)).toBe("FORBIDDEN");
  });

  it("can be removed", async () => {
    await upload(asAdmin(), pngBytes(), "image/png", "logo.png");
    const record = await settingsRecord();
    expect(record.logo).not.toBe("");
    const result = await asAdmin().request(`mutation { removeLogo { logoUrl } }`);
    expect(result.data).toEqual({ removeLogo: { logoUrl: null } });
    expect((await settingsRecord()).logo).toBe("");
    expect(
      (await fetch(`${pbUrl()}/api/files/${record.collectionId}/${record.id}/${record.logo}`)).status,
    ).toBe(404);
  });
});

describe("live settings", () => {
  it("a visitor's open page receives an administrator's change over SSE", async () => {
    const page = await SseSubscription.open<{ settingsChanged: { tagline: string } }>(gateway, {
      query: "subscription { settingsChanged { tagline } }",
    });
    expect(page.response.headers.get("content-type")).toMatch(/text\/event-stream/);
    try {
      const tagline = `Live ${Date.now()}`;
      // The subscription to PocketBase opens asynchronously: change until an event arrives.
      const changes = setInterval(() => void asAdmin().request(UPDATE, { input: { tagline } }), 300);
      try {
        await page.next(
          (result) => result.data?.settingsChanged.tagline === tagline,
          "the new tagline",
          20_000,
        );
      } finally {
        clearInterval(changes);
      }
      expect(page.raw).toContain(`data: {"data":{"settingsChanged":{"tagline":"${tagline}"}}}`);
    } finally {
      await page.close();
    }
  });
});

describe("browsers' event stream (graphql-sse, single connection mode)", () => {
  it("runs a tab's subscriptions over one stream at /graphql/stream, through the CSRF check", async () => {
    const base = await gateway.listen();
    const streams: string[] = [];
    const client = createClient({
      url: `${base}/graphql/stream`,
      singleConnection: true,
      headers: { [CSRF_HEADER]: "1" },
      // Counts the event streams the client opens (the browser's connection budget).
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        if ((init?.method ?? "GET") === "GET") streams.push(String(input));
        return fetch(input, init);
      },
      retryAttempts: 0,
    });
    const tagline = `One stream ${Date.now()}`;
    const received = [0, 1].map(
      () =>
        new Promise<string>((resolve, reject) => {
          const dispose = client.subscribe<{ settingsChanged: { tagline: string } }>(
            { query: "subscription { settingsChanged { tagline } }" },
            {
              next: (value) => {
                if (value.data?.settingsChanged.tagline === tagline) {
                  dispose();
                  resolve(tagline);
                }
              },
              error: reject,
              complete: () => undefined,
            },
          );
        }),
    );
    const changes = setInterval(() => void asAdmin().request(UPDATE, { input: { tagline } }), 300);
    try {
      expect(await Promise.all(received)).toEqual([tagline, tagline]);
    } finally {
      clearInterval(changes);
      client.dispose();
    }
    expect(streams).toHaveLength(1);
  });

  it("refuses a request a cross-site form could send (simple POST without the CSRF header)", async () => {
    const response = await gateway.yoga.fetch("http://flock.test/graphql/stream", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ query: "mutation { signOut }" }),
    });
    expect(response.status).toBe(403);
    // Nor may anything else reach the stream endpoint without it (reservations, event streams).
    for (const method of ["PUT", "GET"]) {
      expect((await gateway.yoga.fetch("http://flock.test/graphql/stream", { method })).status, method).toBe(
        403,
      );
    }
  });
});

describe("the church's name in PocketBase's emails", () => {
  it("a renamed church sends verification and reset emails under its new name", async () => {
    const name = `St Test ${Date.now()}`;
    // In English: PocketBase's mails follow the church's language, which an earlier test set to Spanish.
    expect(
      (await asAdmin().request(UPDATE, { input: { churchName: name, locale: "en" } })).errors,
    ).toBeUndefined();

    const member = await createUser();
    await new GqlClient(gateway, { ip: "198.51.100.90" }).request(
      `mutation($e: String!) { requestPasswordReset(email: $e) }`,
      { e: member.email },
    );
    const reset = await waitForMail(catcherUrl(), member.email, /^Reset your/);
    expect(reset.subject).toBe(`Reset your ${name} password`);
    expect(reset.from).toContain(name);

    const unverified = await createUser({ verified: false });
    await asAdmin().request(`mutation($id: ID!) { resendVerification(userId: $id) }`, { id: unverified.id });
    const verify = await waitForMail(catcherUrl(), unverified.email, /^Confirm your email/);
    expect(verify.subject).toBe(`Confirm your email for ${name}`);
  });
});
