/// <reference path="../pb_data/types.d.ts" />
// Who may write RSVPs and registrations, stated whole (issue 23, item 6). 1732490000_events.js said
// "for themselves only" and "may only cancel" but let two things through the REST API:
//   - an RSVP could name anyone's person (only `user` was tied to the caller): now `person` is the
//     caller's own person or empty, on create and never changed afterwards by its owner or token holder;
//   - the owner or mail-link holder of a registration, while cancelling, could also rename the party and
//     change its phone, attendee names, split (`partOf`) or timestamps: now a cancellation carries
//     `status` and nothing else.
// Which dates take sign-ups (a real, not cancelled, not begun occurrence) is decided by the events hook
// (pb_hooks/lib/events.js#signUpRefusal with lib/recurrence.js), for every caller. Read and delete rules
// are repeated unchanged so each collection's rules read whole here. Change them by writing the new
// whole text in a new migration.

const MANAGE = '@request.auth.roles.permissions:each ?= "events.manage"';
const ACTIVE_MEMBER = '@request.auth.person.recordStatus = "active"';
const OWN = '(@request.auth.id != "" && user = @request.auth.id)';
const WITH_TOKEN = '(@request.query.token != "" && cancelToken != "" && cancelToken = @request.query.token)';
/** `@request.body.<field>:isset = false` for each field: the request may not carry them. */
const untouched = (fields) => fields.map((f) => `@request.body.${f}:isset = false`).join(" && ");
/** The caller may sign up for the event named in the body: published, of this kind, and visible to them. */
const mayJoin = (mode) =>
  `@request.body.event.status = "published" && @request.body.event.registrationMode = "${mode}" && ` +
  `(@request.body.event.visibility = "public" || ${ACTIVE_MEMBER})`;

const READ = `${OWN} || ${MANAGE} || ${WITH_TOKEN}`;

const RULES = {
  rsvps: {
    listRule: READ,
    viewRule: READ,
    // For themselves only: `user` is the caller (empty for a visitor), `person` the caller's own or none.
    createRule:
      `${MANAGE} || (@request.body.user = @request.auth.id && ` +
      `(@request.body.person:isset = false || @request.body.person = "" || @request.body.person = @request.auth.person) && ` +
      `${mayJoin("rsvp")})`,
    // The owner (or a visitor holding the RSVP's token) may change the answer, guests, name and email.
    updateRule:
      `${MANAGE} || ((${OWN} || ${WITH_TOKEN}) && ` +
      `${untouched(["user", "person", "event", "occurrenceStart", "cancelToken"])})`,
    deleteRule: `${MANAGE} || ${OWN} || ${WITH_TOKEN}`,
  },
  registrations: {
    listRule: READ,
    viewRule: READ,
    // Status, waitlist place, split and timestamps are the hook's (capacity decides them).
    createRule:
      `${MANAGE} || (@request.body.user = @request.auth.id && ${mayJoin("registration")} && ` +
      `${untouched(["status", "waitlistPosition", "partOf", "promotedAt", "cancelledAt"])})`,
    // Owners and token holders may only cancel: the status becomes "cancelled" and nothing else changes.
    updateRule:
      `${MANAGE} || ((${OWN} || ${WITH_TOKEN}) && @request.body.status = "cancelled" && ` +
      `${untouched([
        "event",
        "occurrenceStart",
        "user",
        "name",
        "email",
        "phone",
        "attendees",
        "attendeeNames",
        "confirmationCode",
        "cancelToken",
        "waitlistPosition",
        "partOf",
        "promotedAt",
        "promotionMailedAt",
        "cancelledAt",
      ])})`,
    deleteRule: MANAGE,
  },
};

// The rules 1732490000_events.js left, for going back.
const BEFORE = {
  rsvps: {
    createRule:
      `${MANAGE} || (@request.body.user = @request.auth.id && @request.body.event.status = "published" && @request.body.event.registrationMode = "rsvp" && ` +
      `(@request.body.event.visibility = "public" || ${ACTIVE_MEMBER}))`,
    updateRule:
      `${MANAGE} || ((${OWN} || ${WITH_TOKEN}) && @request.body.user:isset = false && @request.body.event:isset = false && ` +
      `@request.body.occurrenceStart:isset = false && @request.body.cancelToken:isset = false)`,
  },
  registrations: {
    createRule:
      `${MANAGE} || (@request.body.user = @request.auth.id && @request.body.event.status = "published" && @request.body.event.registrationMode = "registration" && ` +
      `(@request.body.event.visibility = "public" || ${ACTIVE_MEMBER}) && @request.body.status:isset = false && @request.body.waitlistPosition:isset = false && @request.body.partOf:isset = false && ` +
      `@request.body.promotedAt:isset = false && @request.body.cancelledAt:isset = false)`,
    updateRule:
      `${MANAGE} || ((${OWN} || ${WITH_TOKEN}) && @request.body.status = "cancelled" && @request.body.attendees:isset = false && @request.body.event:isset = false && ` +
      `@request.body.occurrenceStart:isset = false && @request.body.user:isset = false && @request.body.email:isset = false && @request.body.waitlistPosition:isset = false && ` +
      `@request.body.cancelToken:isset = false && @request.body.confirmationCode:isset = false)`,
  },
};

const apply = (app, rules) => {
  for (const [name, collectionRules] of Object.entries(rules)) {
    const collection = app.findCollectionByNameOrId(name);
    for (const [rule, text] of Object.entries(collectionRules)) collection[rule] = text;
    app.save(collection);
  }
};

migrate(
  (app) => apply(app, RULES),
  (app) => apply(app, BEFORE),
);
