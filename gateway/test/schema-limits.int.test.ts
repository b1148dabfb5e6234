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
import { CHECKIN_LIMITS, GIVING_LIMITS } from "@flock/shared/limits-features";
import { SLUG_MAX } from "@flock/shared/slug";
import { ENUM_VALUES } from "../src/schema/enum-values.ts";
import { GqlClient, system, testGateway } from "./helpers.ts";

type Field = {
  name: string;
  type: string;
  system?: boolean;
  primaryKey?: boolean;
  [option: string]: unknown;
};
const collections: Record<string, CollectionModel> = {};
const field = (collection: string, name: string): Field => {
  const found = (collections[collection]!.fields as Field[]).find((f) => f.name === name);
  if (!found) throw new Error(`${collection}.${name} is missing from the live schema`);
  return found;
};

let gateway: Gateway;
beforeAll(async () => {
  const su = await system();
  for (const collection of await su.collections.getFullList({ batch: 200 }))
    collections[collection.name] = collection;
  gateway = await testGateway();
});
afterAll(() => gateway.close());

/** A limit of a field as limits.ts states it; the live field must carry exactly these values. */
interface Limit {
  min?: number;
  max?: number | null;
  maxSize?: number;
  maxSelect?: number;
  mimeTypes?: readonly string[];
  pattern?: string;
}
/** A limited field nobody types: the gateway, a hook or a migration writes it, so limits.ts has no say. */
type Written = { written: string };
const written = (why: string): Written => ({ written: why });
const image = { maxSelect: 1, maxSize: LIMITS.imageMaxBytes, mimeTypes: LIMITS.imageMimeTypes };
const text = (max: number, min = 0): Limit => ({ min, max });
const slug = text(SLUG_MAX, 1);
const counter = written("a count or position kept by the gateway or a hook");

/**
 * Every limited field of every collection (text lengths, number ranges, files, JSON sizes): the
 * limits.ts value it must equal, or why it has none. A new limited field fails the test below until
 * it is added here, so a form can never accept what PocketBase refuses, or the other way round.
 */
const SCHEMA_LIMITS: Record<string, Limit | Written> = {
  "users.name": text(LIMITS.nameMax),
  "users.avatar": image,
  "users.calendarToken": written("the personal calendar feed's secret, made by the gateway"),
  "users.sessionKeyHash": written(
    "the SHA-256 of the tokenKey (64 hex characters), kept by pb_hooks/sessions.pb.js",
  ),
  "roles.name": text(LIMITS.nameMax, 1),
  "roles.description": written("written by migrations with the seeded roles"),
  "people.firstName": text(LIMITS.personNameMax, 1),
  "people.lastName": text(LIMITS.personNameMax, 1),
  "people.preferredName": text(LIMITS.personNameMax),
  "people.photo": image,
  "settings.churchName": text(LIMITS.nameMax, 1),
  "settings.tagline": text(LIMITS.taglineMax),
  "settings.logo": image,
  "settings.brandColor": { pattern: "^#[0-9a-fA-F]{6}$" },
  "settings.timezone": text(LIMITS.timeZoneMax),
  "settings.address": text(LIMITS.addressMax),
  "settings.phone": text(LIMITS.phoneMax),
  "settings.serviceTimes": written(
    `at most ${LIMITS.serviceTimesMax} times, checked one by one by the gateway`,
  ),
  "settings.socialLinks": written("links checked one by one by the gateway"),
  "settings.prayerExpiryDays": { min: 1, max: 3650 },
  "media.file": { maxSelect: 1, maxSize: LIMITS.documentMaxBytes },
  "media.filename": written("the uploaded file's name, kept by the gateway"),
  "media.mimeType": written("the uploaded file's type, kept by the gateway"),
  "media.alt": text(LIMITS.altMax),
  "media.caption": text(LIMITS.captionMax),
  "media.width": written("measured from the image by the gateway"),
  "media.height": written("measured from the image by the gateway"),
  "media.durationSeconds": written("measured from the file by the gateway"),
  "media.size": written("the file's size, kept by the gateway"),
  "pages.title": text(LIMITS.nameMax, 1),
  "pages.slug": slug,
  "pages.body": text(LIMITS.markdownMax),
  "pages.seoDescription": text(LIMITS.seoDescriptionMax),
  "pages.revision": counter,
  "posts.title": text(LIMITS.nameMax, 1),
  "posts.slug": slug,
  "posts.summary": text(LIMITS.summaryMax),
  "posts.body": text(LIMITS.markdownMax),
  "posts.authorName": written("the author's display name, copied by the gateway"),
  "posts.revision": counter,
  "households.name": text(LIMITS.householdNameMax, 1),
  "households.photo": image,
  "person_phones.number": written(
    `stored as E.164 (+ and at most 15 digits); the typed number is checked against phoneMax`,
  ),
  "person_birthdays.month": written("a calendar month (1–12), checked with the whole date"),
  "person_birthdays.day": written("a day of the month (1–31), checked with the whole date"),
  "addresses.street1": text(LIMITS.streetMax, 1),
  "addresses.street2": text(LIMITS.streetMax),
  "addresses.city": text(LIMITS.cityMax, 1),
  "addresses.region": text(LIMITS.regionMax),
  "addresses.postalCode": text(LIMITS.postalCodeMax),
  "addresses.country": text(LIMITS.countryCodeLength),
  "household_invitations.name": text(LIMITS.invitationNameMax, 1),
  "household_invitations.tokenHash": written("SHA-256 of the invitation's secret, in hex"),
  "visit_requests.name": text(LIMITS.nameMax, 1),
  "visit_requests.phone": written("stored as E.164; the typed number is checked against phoneMax"),
  "visit_requests.partySize": { min: 1, max: LIMITS.visitPartySizeMax },
  "visit_requests.message": text(LIMITS.visitMessageMax),
  "visit_requests.staffNote": text(LIMITS.staffNoteMax),
  "prayer_requests.body": text(LIMITS.prayerBodyMax, LIMITS.prayerBodyMin),
  "prayer_requests.authorName": written(
    "the name shown, copied by the gateway from the account or the visitor's name",
  ),
  "prayer_requests.prayedCount": counter,
  "prayer_requests.flagCount": counter,
  "prayer_requests.answerNote": text(LIMITS.prayerAnswerNoteMax),
  "prayer_requests.rejectReason": text(LIMITS.prayerRejectReasonMax),
  "prayer_request_private.submitterName": text(LIMITS.nameMax),
  "prayer_marks.deviceKey": written("SHA-256 of the visitor's device cookie"),
  "prayer_marks.day": written("a date, YYYY-MM-DD, in the church's zone"),
  "prayer_flags.reason": text(LIMITS.prayerFlagReasonMax),
  "notifications.title": written("written by the gateway from the server catalogs"),
  "notifications.body": written("written by the gateway from the server catalogs"),
  "notifications.link": written("a path in the app, written by the gateway"),
  "notifications.groupKey": written("the gateway's key for batching notifications"),
  "notifications.count": counter,
  "sermon_series.title": text(LIMITS.nameMax, 1),
  "sermon_series.slug": slug,
  "sermon_series.description": text(LIMITS.seriesDescriptionMax),
  "sermon_series.artwork": image,
  "speakers.name": text(LIMITS.nameMax, 1),
  "speakers.slug": slug,
  "speakers.bio": text(LIMITS.speakerBioMax),
  "speakers.photo": image,
  "sermons.title": text(LIMITS.nameMax, 1),
  "sermons.slug": slug,
  "sermons.scripture": text(LIMITS.scriptureMax),
  "sermons.scriptureOsis": written("parsed from scripture by the gateway"),
  "sermons.scriptureBooks": written("parsed from scripture by the gateway"),
  "sermons.summary": text(LIMITS.summaryMax),
  "sermons.notes": text(LIMITS.markdownMax),
  "sermons.audio": {
    maxSelect: 1,
    maxSize: LIMITS.audioMaxBytes,
    mimeTypes: LIMITS.audioMimeTypes,
  },
  "sermons.audioSize": written("the audio file's size, recorded when attached"),
  "sermons.audioType": written("the audio file's type, read from its bytes"),
  "sermons.durationSeconds": written("read from the audio file"),
  "sermons.revision": counter,
  "sermons.videoUrl": text(LIMITS.videoUrlMax),
  "sermons.attachments": {
    maxSelect: LIMITS.sermonAttachmentsMax,
    maxSize: LIMITS.documentMaxBytes,
    mimeTypes: LIMITS.documentMimeTypes,
  },
  "revisions.title": text(LIMITS.nameMax),
  "revisions.body": text(LIMITS.markdownMax),
  "revisions.fields": written("a copy of a post's or page's other fields"),
  "revisions.revision": counter,
  "revisions.editorName": written("the editor's display name, copied by the gateway"),
  "event_categories.name": text(LIMITS.nameMax, 1),
  "event_categories.slug": slug,
  "event_categories.color": written("#rrggbb, checked by the gateway's pattern"),
  "events.title": text(LIMITS.nameMax, 1),
  "events.slug": slug,
  "events.summary": text(LIMITS.summaryMax),
  "events.description": text(LIMITS.markdownMax),
  "events.image": image,
  "events.locationName": text(LIMITS.nameMax),
  "events.locationAddress": text(LIMITS.addressMax),
  "events.timezone": text(LIMITS.timeZoneMax, 1),
  "events.rrule": written("an RRULE the gateway parses and writes back in its own form"),
  "events.exdates": written("dates removed from a series, written by the gateway"),
  "events.splitFrom": written("a record id, written by the gateway"),
  "events.ownerGroup": written("a record id, checked to be a readable group"),
  "events.capacity": { min: 0, max: LIMITS.eventCapacityMax },
  "events.questions": written(
    `at most ${LIMITS.registrationQuestionsMax} questions (${LIMITS.questionLabelMax} characters, ${LIMITS.questionChoicesMax} choices of ${LIMITS.questionChoiceMax}), checked by the gateway`,
  ),
  "event_exceptions.note": text(LIMITS.occurrenceNoteMax),
  "rsvps.name": text(LIMITS.nameMax, 1),
  "rsvps.guests": { min: 0, max: LIMITS.rsvpGuestsMax },
  "rsvps.cancelToken": written("the visitor's secret, made by the gateway"),
  "registrations.name": text(LIMITS.nameMax, 1),
  "registrations.phone": text(LIMITS.phoneMax),
  "registrations.attendees": { min: 1, max: LIMITS.partySizeMax },
  "registrations.attendeeNames": written(
    `at most ${LIMITS.partySizeMax} names of at most ${LIMITS.nameMax} characters, trimmed by the gateway`,
  ),
  "registrations.answers": written(
    `one answer of at most ${LIMITS.answerMax} characters per question of the event, checked by the gateway`,
  ),
  "registrations.confirmationCode": written("made by the gateway (and the hook, for a split party's part)"),
  "registrations.cancelToken": written("the mail link's secret, made by the gateway"),
  "registrations.waitlistPosition": counter,
  "registrations.partOf": written("a record id, written by the hook"),
  "occurrence_counts.confirmed": counter,
  "occurrence_counts.seatsLeft": written("decided by the events hook from the capacity and the seats taken"),
  "occurrence_counts.waitlisted": counter,
  "occurrence_counts.going": counter,
  "occurrence_counts.maybe": counter,
  "occurrence_counts.version": counter,
  "api_clients.name": text(LIMITS.apiTokenNameMax, 1),
  "api_clients.secretHash": written("SHA-256 of the token's secret, in hex"),
  "api_client_usage.lastUsedIp": written("the caller's IP address, written by the gateway"),
  "webhooks.description": text(LIMITS.webhookDescriptionMax),
  "webhooks.secret": written("the signing secret, made by the gateway"),
  "webhooks.disabledReason": written("written by the delivery job"),
  "webhooks.consecutiveFailures": counter,
  "webhook_deliveries.payload": written("the event's payload, written by the hook"),
  "webhook_deliveries.attempts": counter,
  "webhook_deliveries.error": written("written by the delivery job"),
  "webhook_deliveries.claim": written("the claim id of the process sending it, written by the claim route"),
  "mail_outbox.message": written("the composed mail, written by the gateway"),
  "mail_outbox.dedupeKey": written("written by the events hook for a promotion"),
  "mail_outbox.attempts": counter,
  "mail_outbox.claim": written("the claim id of the process sending it, written by the claim route"),
  "mail_outbox.error": written("written by the outbox job"),
  "job_leases.job": written("a system job's name, written by the lease route (pb_hooks/leases.pb.js)"),
  "job_leases.holder": written("the replica's id, checked by the lease route's pattern"),
  "job_leases.runs": counter,
  "settings.podcastGuid": written(
    "the podcast's guid, stored by the gateway the first time the feed is written",
  ),
  "sermon_series.podcastGuid": written(
    "the series feed's guid, stored by the gateway the first time it is written",
  ),
  "events.icalUid": written(
    "the event's iCalendar UID, stored by the gateway the first time a feed lists it",
  ),
  "groups.name": text(LIMITS.groupNameMax, 1),
  "groups.slug": slug,
  "groups.description": text(LIMITS.markdownMax),
  "groups.photo": image,
  "groups.schedule": text(LIMITS.groupScheduleMax),
  "groups.area": text(LIMITS.groupAreaMax),
  "groups.capacity": { min: 0, max: LIMITS.groupCapacityMax },
  "groups.memberCount": counter,
  "groups.leaderNames": written("the leaders' names, kept by the hook"),
  "group_join_requests.message": text(LIMITS.groupJoinMessageMax),
  "group_messages.authorName": written("the author's first and last name, copied by the gateway"),
  "group_messages.body": text(LIMITS.chatMessageMax, LIMITS.chatMessageMin),
  "group_messages.clientKey": text(LIMITS.chatClientKeyMax, 8),
  "group_addresses.address": text(LIMITS.groupLocationMax, 1),
  "group_access.rosterViewers": written("person ids, kept by the groups hook"),
  "group_access.groupViewers": written("person ids, kept by the groups hook"),
  "group_access.leaderViewers": written("person ids, kept by the groups hook"),
  "group_access.requestViewers": written("person ids, kept by the groups hook"),
  "group_access.memberGroups": written("group ids, kept by the groups hook"),
  "serving_teams.name": text(LIMITS.servingTeamNameMax, 1),
  "serving_teams.description": text(LIMITS.servingTeamDescriptionMax),
  "serving_teams.reminderDays": { min: 0, max: LIMITS.servingReminderDaysMax },
  "serving_members.name": written("the person's name, copied by the hook"),
  "serving_requests.name": written("the person's name, copied by the hook"),
  "serving_positions.name": text(LIMITS.servingPositionNameMax, 1),
  "serving_positions.description": text(LIMITS.servingPositionDescriptionMax),
  "serving_positions.sort": written("the position's place in its team's list, kept by the gateway"),
  "serving_plans.title": text(LIMITS.servingPlanTitleMax, 1),
  "serving_plans.times": written("the plan's times, validated by the gateway"),
  "serving_plans.notes": text(LIMITS.servingPlanNotesMax),
  "serving_needs.count": { min: 1, max: LIMITS.servingNeedCountMax },
  "serving_requests.declineReason": text(LIMITS.servingDeclineReasonMax),
  "serving_requests.token": written("the mail link's secret, made by the hook"),
  "serving_teams.leaderIds": written("person ids, kept by the serving hook (who may read)"),
  "serving_positions.fillerIds": written("person ids, kept by the serving hook (who may read)"),
  "serving_plans.askedIds": written("person ids, kept by the serving hook (who may read)"),
  "serving_blockouts.reason": text(LIMITS.servingBlockoutReasonMax),
  "serving_preferences.maxPerMonth": { min: 0, max: LIMITS.servingMaxPerMonthMax },
  "serving_preferences.preferredTimes": written("wall-clock times, validated by the gateway"),
  "checkin_rooms.name": text(CHECKIN_LIMITS.checkinRoomNameMax, 1),
  "checkin_rooms.minAgeMonths": { min: 0, max: CHECKIN_LIMITS.checkinAgeMonthsMax },
  "checkin_rooms.maxAgeMonths": { min: 0, max: CHECKIN_LIMITS.checkinAgeMonthsMax },
  "checkin_rooms.capacity": { min: 0, max: CHECKIN_LIMITS.checkinRoomCapacityMax },
  "checkin_rooms.ratio": { min: 0, max: CHECKIN_LIMITS.checkinRoomRatioMax },
  "checkin_rooms.sort": written("the room's place in the list, kept by the gateway"),
  "checkin_sessions.name": text(CHECKIN_LIMITS.checkinSessionNameMax, 1),
  "checkin_sessions.opensMinutes": { min: 0, max: CHECKIN_LIMITS.checkinWindowMinutesMax },
  "checkin_sessions.closesMinutes": { min: 0, max: CHECKIN_LIMITS.checkinWindowMinutesMax },
  "checkins.code": text(CHECKIN_LIMITS.checkinCodeLength),
  "checkin_counts.children": counter,
  "checkin_counts.volunteers": counter,
  "checkin_counts.childrenTotal": counter,
  "checkin_counts.firstTime": counter,
  "checkins.name": written("the person's name, copied by the hook"),
  "checkins.day": written("the session's church-local date, kept by the hook"),
  "checkins.pickupCode": text(CHECKIN_LIMITS.checkinCodeLength),
  "checkins.proposedCode": text(CHECKIN_LIMITS.checkinCodeLength),
  "settings.currency": written("an ISO 4217 code chosen from a list"),
  "funds.name": text(GIVING_LIMITS.fundNameMax, 1),
  "funds.description": text(GIVING_LIMITS.fundDescriptionMax),
  "funds.sort": written("the fund's place in the list, kept by the gateway"),
  "donation_batches.name": text(GIVING_LIMITS.batchNameMax, 1),
  "donation_batches.controlTotalCents": { min: 0, max: GIVING_LIMITS.donationCentsMax },
  "donation_batches.controlCount": { min: 0, max: GIVING_LIMITS.batchCountMax },
  "donation_batches.totalCents": counter,
  "donation_batches.count": counter,
  "donation_batches.reopenReason": text(GIVING_LIMITS.reopenReasonMax),
  "donations.amountCents": { min: 1, max: GIVING_LIMITS.donationCentsMax },
  "donations.currency": written("the church's currency, copied by the hook"),
  "donations.chequeNumber": text(GIVING_LIMITS.chequeNumberMax),
  "donations.note": text(GIVING_LIMITS.donationNoteMax),
  "donations.splits": written("1–10 funds and amounts, checked by the hook"),
  "donations.providerRef": written("the payment provider's id, kept by the gateway"),
  "donation_splits.amountCents": counter,
  "recurring_gifts.amountCents": { min: 1, max: GIVING_LIMITS.onlineGiftCentsMax },
  "recurring_gifts.coveredFeeCents": { min: 0, max: GIVING_LIMITS.onlineGiftCentsMax },
  "recurring_gifts.currency": written(
    "the church's currency, copied by the gateway from the provider's event",
  ),
  "recurring_gifts.providerRef": written("the payment provider's subscription id, kept by the gateway"),
  "recurring_gifts.failures": counter,
  "giving_provider_events.eventId": written("the payment provider's event id, kept by the gateway"),
  "giving_provider_events.type": written("the payment provider's event type, kept by the gateway"),
  "settings.statementText": text(GIVING_LIMITS.statementTextMax),
  "giving_statement_runs.unitsTotal": counter,
  "giving_statement_runs.unitsDone": counter,
  "giving_statement_runs.statements": written("the run's zip of statements, written by the gateway"),
  "giving_statement_runs.error": written("why a run failed, written by the gateway"),
  "pledge_campaigns.name": text(GIVING_LIMITS.campaignNameMax, 1),
  "pledge_campaigns.description": text(GIVING_LIMITS.campaignDescriptionMax),
  "pledge_campaigns.goalCents": { min: 1, max: GIVING_LIMITS.donationCentsMax },
  "pledges.amountCents": { min: 1, max: GIVING_LIMITS.donationCentsMax },
  "pledges.note": text(GIVING_LIMITS.pledgeNoteMax),
  "checkin_stations.name": text(CHECKIN_LIMITS.checkinStationNameMax, 1),
  "checkin_stations.pairingHash": written("the SHA-256 of the pairing code, kept by the gateway"),
  "checkin_code_holds.day": written("the session's church-local date, kept by the hook"),
  "checkin_code_holds.code": written("a pickup code the hook makes"),
  "checkins.overrideReason": text(CHECKIN_LIMITS.checkoutReasonMax),
  "checkins.allergies": text(CHECKIN_LIMITS.allergiesMax),
  "checkins.medicalNotes": text(CHECKIN_LIMITS.medicalNotesMax),
  "checkins.alerts": text(CHECKIN_LIMITS.pickupAlertsMax),
  "checkins.clientKey": text(CHECKIN_LIMITS.checkinClientKeyMax),
  "person_care.allergies": text(CHECKIN_LIMITS.allergiesMax),
  "person_care.medicalNotes": text(CHECKIN_LIMITS.medicalNotesMax),
  "pickup_authorizations.name": text(CHECKIN_LIMITS.pickupNameMax, 1),
  "pickup_authorizations.relationship": text(CHECKIN_LIMITS.pickupRelationshipMax),
  "pickup_authorizations.notes": text(CHECKIN_LIMITS.pickupNotesMax),
};

/** Fields whose values are bounded: text (every text field has a cap), numbers with a range, files, JSON with a size. */
const limited = (f: Field) =>
  !f.system &&
  !f.primaryKey &&
  (f.type === "text" ||
    f.type === "file" ||
    (f.type === "number" && (f.min != null || f.max != null)) ||
    (f.type === "json" && !!f.maxSize));

describe("every collection's limits agree with limits.ts", () => {
  it("every limited field of every collection is in SCHEMA_LIMITS, and every entry is a limited field", () => {
    const live = Object.values(collections)
      .filter((c) => !c.system)
      .flatMap((c) => (c.fields as Field[]).filter(limited).map((f) => `${c.name}.${f.name}`));
    expect(
      live.filter((name) => !(name in SCHEMA_LIMITS)),
      "limited fields without an entry",
    ).toEqual([]);
    expect(
      Object.keys(SCHEMA_LIMITS).filter((name) => !live.includes(name)),
      "entries that are no limited field",
    ).toEqual([]);
  });

  it.each(Object.entries(SCHEMA_LIMITS).filter((e): e is [string, Limit] => !("written" in e[1])))(
    "%s",
    (name, limit) => {
      const [collection, fieldName] = name.split(".") as [string, string];
      const { mimeTypes, ...scalar } = limit;
      expect(field(collection, fieldName)).toMatchObject(scalar);
      if (mimeTypes)
        expect([...(field(collection, fieldName).mimeTypes as string[])].sort()).toEqual(
          [...mimeTypes].sort(),
        );
    },
  );
});

describe("the live PocketBase schema agrees with limits.ts", () => {
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
