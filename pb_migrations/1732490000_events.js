/// <reference path="../pb_data/types.d.ts" />
// Events (PRODUCT.md §4–§6, issue 14): categories, events, single-occurrence exceptions, RSVPs,
// registrations and the per-occurrence counts the public pages (and their live seat count) read.
//
// Who sees what:
// - an event is visible once it is not a draft (published or cancelled): to everyone when its
//   visibility is "public", to signed-in users whose person is active when it is "members";
//   drafts only for `events.manage`. Exceptions and occurrence counts follow their event.
// - writing events, categories and exceptions needs `events.manage`.
// - an RSVP or registration is seen by its own user, by `events.manage`, and (registrations only)
//   by whoever holds its secret cancel token (the link in the confirmation mail works signed out:
//   the token is sent as the `token` query parameter; the caller chooses it when creating, and only
//   the owner, staff and the holder can read it).
// - anyone who can see a published event open for RSVP/registration may create one, for themselves
//   only (`user` is the caller, or empty for a visitor); the owner may only change their own RSVP, or
//   cancel their registration; staff may do anything.
// Capacity, waitlist order, promotion and party splits are decided by pb_hooks/events.pb.js inside
// the create/update transaction (PocketBase serializes writes), never by the caller.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const SLUG = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const MANAGE = has("events.manage");
const ACTIVE_MEMBER = '@request.auth.person.recordStatus = "active"';
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** The event (reached through `path`, "" for the event itself) is visible to the caller. */
const visible = (path) => `(${path}status != "draft" && (${path}visibility = "public" || ${ACTIVE_MEMBER}))`;
const own = '(@request.auth.id != "" && user = @request.auth.id)';
const withToken = '(@request.query.token != "" && cancelToken != "" && cancelToken = @request.query.token)';

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const people = app.findCollectionByNameOrId("people");

    const categories = new Collection({
      type: "base",
      name: "event_categories",
      listRule: "",
      viewRule: "",
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "color", type: "text", max: 7, pattern: "^#[0-9a-fA-F]{6}$" },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_event_categories_slug ON event_categories (slug)"],
    });
    app.save(categories);

    const events = new Collection({
      type: "base",
      name: "events",
      listRule: `${visible("")} || ${MANAGE}`,
      viewRule: `${visible("")} || ${MANAGE}`,
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "summary", type: "text", max: 500 },
        { name: "description", type: "text", max: 200000 },
        {
          name: "image",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["640x360", "1200x630"],
        },
        { name: "category", type: "relation", collectionId: categories.id, maxSelect: 1 },
        { name: "locationName", type: "text", max: 200 },
        { name: "locationAddress", type: "text", max: 500 },
        // The first occurrence's start and end (UTC instants); the series repeats them in `timezone`.
        { name: "startsAt", type: "date", required: true },
        { name: "endsAt", type: "date", required: true },
        { name: "allDay", type: "bool" },
        { name: "timezone", type: "text", required: true, min: 1, max: 64 },
        // RFC 5545 RRULE value without the "RRULE:" prefix ("FREQ=WEEKLY;BYDAY=SU"); empty for one-off events.
        { name: "rrule", type: "text", max: 500 },
        // Dates removed from the series, as the local start times ("2026-12-27T10:00:00", comma separated).
        { name: "exdates", type: "text", max: 5000 },
        // Set when "this and following" split a series: the series this one continues.
        { name: "splitFrom", type: "text", max: 15 },
        { name: "visibility", type: "select", required: true, maxSelect: 1, values: ["public", "members"] },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["draft", "published", "cancelled"],
        },
        {
          name: "registrationMode",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["none", "rsvp", "registration"],
        },
        { name: "capacity", type: "number", onlyInt: true, min: 0, max: 100000 },
        { name: "waitlistEnabled", type: "bool" },
        { name: "registrationOpensAt", type: "date" },
        { name: "registrationClosesAt", type: "date" },
        // R2 groups will own events; kept as plain text until the groups collection exists.
        { name: "ownerGroup", type: "text", max: 15 },
        { name: "updatedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_events_slug ON events (slug)",
        "CREATE INDEX idx_events_range ON events (status, startsAt)",
        "CREATE INDEX idx_events_category ON events (category, startsAt)",
      ],
    });
    app.save(events);

    const exceptions = new Collection({
      type: "base",
      name: "event_exceptions",
      listRule: `${visible("event.")} || ${MANAGE}`,
      viewRule: `${visible("event.")} || ${MANAGE}`,
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        {
          name: "event",
          type: "relation",
          required: true,
          collectionId: events.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // The occurrence's original start (UTC instant), as the series generates it.
        { name: "originalStart", type: "date", required: true },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["cancelled", "moved"] },
        { name: "startsAt", type: "date" },
        { name: "endsAt", type: "date" },
        { name: "note", type: "text", max: 500 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_event_exceptions_occurrence ON event_exceptions (event, originalStart)",
      ],
    });
    app.save(exceptions);

    const rsvps = new Collection({
      type: "base",
      name: "rsvps",
      listRule: `${own} || ${MANAGE} || ${withToken}`,
      viewRule: `${own} || ${MANAGE} || ${withToken}`,
      createRule:
        `${MANAGE} || (@request.body.user = @request.auth.id && @request.body.event.status = "published" && @request.body.event.registrationMode = "rsvp" && ` +
        `(@request.body.event.visibility = "public" || ${ACTIVE_MEMBER}))`,
      // The owner (or a visitor holding the RSVP's token) may change the answer and guests, nothing else.
      updateRule:
        `${MANAGE} || ((${own} || ${withToken}) && @request.body.user:isset = false && @request.body.event:isset = false && ` +
        `@request.body.occurrenceStart:isset = false && @request.body.cancelToken:isset = false)`,
      deleteRule: `${MANAGE} || ${own} || ${withToken}`,
      fields: [
        {
          name: "event",
          type: "relation",
          required: true,
          collectionId: events.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "occurrenceStart", type: "date", required: true },
        { name: "user", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "person", type: "relation", collectionId: people.id, maxSelect: 1 },
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "email", type: "email" },
        { name: "response", type: "select", required: true, maxSelect: 1, values: ["yes", "no", "maybe"] },
        { name: "guests", type: "number", onlyInt: true, min: 0, max: 20 },
        // A visitor's secret for changing or withdrawing their answer (in their confirmation mail).
        { name: "cancelToken", type: "text", max: 64 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_rsvps_occurrence ON rsvps (event, occurrenceStart)",
        "CREATE INDEX idx_rsvps_user ON rsvps (user)",
      ],
    });
    app.save(rsvps);

    const registrations = new Collection({
      type: "base",
      name: "registrations",
      listRule: `${own} || ${MANAGE} || ${withToken}`,
      viewRule: `${own} || ${MANAGE} || ${withToken}`,
      createRule:
        `${MANAGE} || (@request.body.user = @request.auth.id && @request.body.event.status = "published" && @request.body.event.registrationMode = "registration" && ` +
        `(@request.body.event.visibility = "public" || ${ACTIVE_MEMBER}) && @request.body.status:isset = false && @request.body.waitlistPosition:isset = false && @request.body.partOf:isset = false && ` +
        `@request.body.promotedAt:isset = false && @request.body.cancelledAt:isset = false)`,
      // Owners and token holders may only cancel.
      updateRule:
        `${MANAGE} || ((${own} || ${withToken}) && @request.body.status = "cancelled" && @request.body.attendees:isset = false && @request.body.event:isset = false && ` +
        `@request.body.occurrenceStart:isset = false && @request.body.user:isset = false && @request.body.email:isset = false && @request.body.waitlistPosition:isset = false && ` +
        `@request.body.cancelToken:isset = false && @request.body.confirmationCode:isset = false)`,
      deleteRule: MANAGE,
      fields: [
        {
          name: "event",
          type: "relation",
          required: true,
          collectionId: events.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "occurrenceStart", type: "date", required: true },
        { name: "user", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "email", type: "email", required: true },
        { name: "phone", type: "text", max: 40 },
        { name: "attendees", type: "number", required: true, onlyInt: true, min: 1, max: 10 },
        { name: "attendeeNames", type: "json", maxSize: 5000 },
        { name: "status", type: "select", maxSelect: 1, values: ["confirmed", "waitlisted", "cancelled"] },
        { name: "confirmationCode", type: "text", required: true, min: 6, max: 20 },
        { name: "cancelToken", type: "text", required: true, min: 32, max: 64 },
        { name: "waitlistPosition", type: "number", onlyInt: true, min: 0 },
        // A party split by the hook: the waitlisted part points at its confirmed part.
        { name: "partOf", type: "text", max: 15 },
        { name: "promotedAt", type: "date" },
        { name: "promotionMailedAt", type: "date" },
        { name: "cancelledAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_registrations_occurrence ON registrations (event, occurrenceStart, status)",
        "CREATE INDEX idx_registrations_user ON registrations (user)",
        "CREATE UNIQUE INDEX idx_registrations_code ON registrations (confirmationCode)",
        // The parts of a split party share their token (one mail link cancels the whole party).
        "CREATE INDEX idx_registrations_token ON registrations (cancelToken)",
      ],
    });
    app.save(registrations);

    // Seats taken and RSVP totals per occurrence, kept by the hooks; the public (and live) seat count.
    const counts = new Collection({
      type: "base",
      name: "occurrence_counts",
      listRule: `${visible("event.")} || ${MANAGE}`,
      viewRule: `${visible("event.")} || ${MANAGE}`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "event",
          type: "relation",
          required: true,
          collectionId: events.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "occurrenceStart", type: "date", required: true },
        { name: "confirmed", type: "number", onlyInt: true, min: 0 },
        { name: "waitlisted", type: "number", onlyInt: true, min: 0 },
        { name: "going", type: "number", onlyInt: true, min: 0 },
        { name: "maybe", type: "number", onlyInt: true, min: 0 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_occurrence_counts_occurrence ON occurrence_counts (event, occurrenceStart)",
      ],
    });
    app.save(counts);

    // The personal calendar feed's secret (reset from /me); only its owner reads or changes it.
    users.fields.add(new TextField({ name: "calendarToken", max: 64, hidden: true }));
    app.save(users);
  },
  (app) => {
    for (const name of [
      "occurrence_counts",
      "registrations",
      "rsvps",
      "event_exceptions",
      "events",
      "event_categories",
    ]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("calendarToken");
    app.save(users);
  },
);
