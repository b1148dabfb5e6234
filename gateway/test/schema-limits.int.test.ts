/**
 * The limits are written once in shared/src/limits.ts (and enforced there, before any
 * PocketBase call), and again in pb_migrations (enforced by PocketBase itself). This reads the live
 * schema and checks that the two agree, so a form never accepts what PocketBase then refuses, or the
 * other way round.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CollectionModel } from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { GRAPHQL_LIMITS, LIMITS, SESSION } from "@flock/shared/limits";
import { ENUM_VALUES } from "../src/schema/enum-values.ts";
import { GqlClient, system, testGateway } from "./helpers.ts";

type Field = { name: string; type: string; [option: string]: unknown };
const collections: Record<string, CollectionModel> = {};
const field = (collection: string, name: string): Field => {
  const found = (collections[collection]!.fields as Field[]).find((f) => f.name === name);
  if (!found) throw new Error(`${collection}.${name} is missing from the live schema`);
  return found;
};

let gateway: Gateway;
beforeAll(async () => {
  const su = await system();
  for (const name of [
    "users",
    "people",
    "roles",
    "settings",
    "sermons",
    "sermon_series",
    "speakers",
    "api_clients",
    "webhooks",
    "registrations",
    "events",
    "rsvps",
    "groups",
    "group_messages",
    "group_join_requests",
    "group_addresses",
  ])
    collections[name] = await su.collections.getOne(name);
  gateway = await testGateway();
});
afterAll(() => gateway.close());

describe("the live PocketBase schema agrees with limits.ts", () => {
  it.each([
    ["people", "firstName", 1, LIMITS.personNameMax],
    ["people", "lastName", 1, LIMITS.personNameMax],
    ["settings", "churchName", 1, LIMITS.nameMax],
    ["settings", "tagline", 0, LIMITS.taglineMax],
    ["settings", "address", 0, LIMITS.addressMax],
    ["settings", "phone", 0, LIMITS.phoneMax],
    ["registrations", "phone", 0, LIMITS.phoneMax],
    ["roles", "name", 1, LIMITS.nameMax],
    ["users", "name", 0, LIMITS.nameMax],
    ["api_clients", "name", 1, LIMITS.apiTokenNameMax],
    ["webhooks", "description", 0, LIMITS.webhookDescriptionMax],
    ["groups", "name", 1, LIMITS.groupNameMax],
    ["groups", "schedule", 0, LIMITS.groupScheduleMax],
    ["groups", "area", 0, LIMITS.groupAreaMax],
    ["groups", "description", 0, LIMITS.markdownMax],
    ["group_messages", "body", LIMITS.chatMessageMin, LIMITS.chatMessageMax],
    ["group_messages", "clientKey", 8, LIMITS.chatClientKeyMax],
    ["group_join_requests", "message", 0, LIMITS.groupJoinMessageMax],
    ["group_addresses", "address", 1, LIMITS.groupLocationMax],
  ])("%s.%s is text of %i–%i characters", (collection, name, min, max) => {
    expect(field(collection, name)).toMatchObject({ type: "text", min, max });
  });

  it("a group's capacity is 0 (no limit) to the same maximum on both sides", () => {
    expect(field("groups", "capacity")).toMatchObject({
      type: "number",
      min: 0,
      max: LIMITS.groupCapacityMax,
      onlyInt: true,
    });
  });

  it("required text fields are required on both sides", () => {
    for (const [collection, name] of [
      ["people", "firstName"],
      ["people", "lastName"],
      ["settings", "churchName"],
      ["roles", "name"],
    ] as const) {
      expect(field(collection, name).required, `${collection}.${name}`).toBe(true);
    }
  });

  it(`passwords are ${LIMITS.passwordMinChars}–${LIMITS.passwordMaxBytes}`, () => {
    expect(field("users", "password")).toMatchObject({
      type: "password",
      min: LIMITS.passwordMinChars,
      max: LIMITS.passwordMaxBytes,
    });
  });

  it("the logo is one image of at most 10 MB, of the allowed types, with the thumbnails the API offers", () => {
    expect(field("settings", "logo")).toMatchObject({
      type: "file",
      maxSelect: 1,
      maxSize: LIMITS.imageMaxBytes,
      protected: false, // public: shown on the public site
      thumbs: ["0x96", "192x192"], // Settings.logoUrl(size: HEADER | SQUARE)
    });
    expect([...(field("settings", "logo").mimeTypes as string[])].sort()).toEqual(
      [...LIMITS.imageMimeTypes].sort(),
    );
    expect(LIMITS.imageMaxBytes).toBe(10 * 1024 * 1024);
  });

  it("avatars are images of the allowed types, at most 10 MB (no SVG: it can carry script)", () => {
    expect(field("users", "avatar")).toMatchObject({
      type: "file",
      maxSelect: 1,
      maxSize: LIMITS.imageMaxBytes,
    });
    expect([...(field("users", "avatar").mimeTypes as string[])].sort()).toEqual(
      [...LIMITS.imageMimeTypes].sort(),
    );
  });

  it("brand colours use the same pattern as the gateway's check", () => {
    expect(field("settings", "brandColor").pattern).toBe("^#[0-9a-fA-F]{6}$");
  });

  it("prayer expiry days are 1–3650, as the gateway checks", () => {
    expect(field("settings", "prayerExpiryDays")).toMatchObject({
      type: "number",
      min: 1,
      max: 3650,
      onlyInt: true,
    });
  });

  it("sessions last 7 days in PocketBase's tokens and in the cookie", () => {
    expect((collections.users as unknown as { authToken: { duration: number } }).authToken.duration).toBe(
      SESSION.maxAgeSeconds,
    );
    expect(SESSION.maxAgeSeconds).toBe(7 * 24 * 60 * 60);
  });

  it("sermon audio: at most 300 MB, the audio types the gateway sniffs, protected (drafts' files follow the view rule)", () => {
    expect(field("sermons", "audio")).toMatchObject({
      type: "file",
      maxSelect: 1,
      maxSize: LIMITS.audioMaxBytes,
      protected: true,
    });
    expect([...(field("sermons", "audio").mimeTypes as string[])].sort()).toEqual(
      [...LIMITS.audioMimeTypes].sort(),
    );
    expect(field("sermons", "attachments")).toMatchObject({
      type: "file",
      maxSelect: LIMITS.sermonAttachmentsMax,
      maxSize: LIMITS.documentMaxBytes,
      protected: true,
    });
    expect(field("sermons", "scripture")).toMatchObject({ type: "text", max: LIMITS.scriptureMax });
    expect(field("sermons", "notes")).toMatchObject({ type: "text", max: LIMITS.markdownMax });
    expect(field("sermons", "summary")).toMatchObject({ type: "text", max: LIMITS.summaryMax });
    expect(field("sermons", "videoUrl")).toMatchObject({ type: "text", max: LIMITS.videoUrlMax });
    expect(field("sermon_series", "description")).toMatchObject({
      type: "text",
      max: LIMITS.seriesDescriptionMax,
    });
    expect(field("speakers", "bio")).toMatchObject({ type: "text", max: LIMITS.speakerBioMax });
    for (const [collection, name] of [
      ["sermon_series", "artwork"],
      ["speakers", "photo"],
    ] as const) {
      expect(field(collection, name)).toMatchObject({
        type: "file",
        maxSelect: 1,
        maxSize: LIMITS.imageMaxBytes,
      });
      expect([...(field(collection, name).mimeTypes as string[])].sort()).toEqual(
        [...LIMITS.imageMimeTypes].sort(),
      );
    }
  });

  it("page sizes are capped at 100 in both limit lists", () => {
    expect(LIMITS.pageSizeMax).toBe(GRAPHQL_LIMITS.maxFirst);
    expect(LIMITS.pageSizeMax).toBe(100);
  });
});

describe("the live schema agrees with the GraphQL enums", () => {
  const enumValues = async (name: string) => {
    const result = await new GqlClient(gateway).request<{ __type: { enumValues: Array<{ name: string }> } }>(
      `query($name: String!) { __type(name: $name) { enumValues { name } } }`,
      { name },
    );
    return result.data!.__type.enumValues.map((v) => v.name).sort();
  };

  /** A stored value → its GraphQL name, by the schema's own mapping (enum-values.ts); an unmapped enum stores its names. */
  const toGraphQL = (graphqlEnum: string) => (value: string) => {
    const mapping = (ENUM_VALUES as Record<string, Record<string, string>>)[graphqlEnum];
    return mapping
      ? (Object.entries(mapping).find(([, stored]) => stored === value)?.[0] ?? `(unmapped ${value})`)
      : value;
  };

  it.each([
    ["roles.permissions ⇄ Permission", "roles", "permissions", "Permission"],
    ["people.recordStatus ⇄ RecordStatus", "people", "recordStatus", "RecordStatus"],
    ["users.status ⇄ UserStatus", "users", "status", "UserStatus"],
    ["users.locale ⇄ Locale", "users", "locale", "Locale"],
    ["settings.locale ⇄ Locale", "settings", "locale", "Locale"],
    [
      "settings.directoryDefaultVisibility ⇄ ContactVisibility",
      "settings",
      "directoryDefaultVisibility",
      "ContactVisibility",
    ],
    ["sermons.status ⇄ SermonStatus", "sermons", "status", "SermonStatus"],
    ["events.status ⇄ EventStatus", "events", "status", "EventStatus"],
    ["events.visibility ⇄ EventVisibility", "events", "visibility", "EventVisibility"],
    ["events.registrationMode ⇄ RegistrationMode", "events", "registrationMode", "RegistrationMode"],
    ["rsvps.response ⇄ RsvpResponse", "rsvps", "response", "RsvpResponse"],
    ["registrations.status ⇄ RegistrationStatus", "registrations", "status", "RegistrationStatus"],
  ])("%s", async (_, collection, name, graphqlEnum) => {
    const values = field(collection, name).values as string[];
    expect(values.map(toGraphQL(graphqlEnum)).sort()).toEqual(await enumValues(graphqlEnum));
  });
});
