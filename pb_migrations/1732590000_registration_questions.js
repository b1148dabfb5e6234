/// <reference path="../pb_data/types.d.ts" />
// Registration forms ask a church's own questions (issue 26): events.questions holds them (text, a
// choice, yes/no; required or not), registrations.answers what each party answered, with the question's
// wording as it was asked. The gateway validates both against shared/src/limits.ts (at most 10
// questions of 200 characters, 20 choices of 100, answers of 500); these sizes are PocketBase's backstop.
//
// The registrations update rule, stated whole (it was 1732570000_sign_up_rules.js's): an owner or mail-link
// holder cancelling may not touch the answers either. The other rules are unchanged.

const MANAGE = '@request.auth.roles.permissions:each ?= "events.manage"';
const OWN = '(@request.auth.id != "" && user = @request.auth.id)';
const WITH_TOKEN = '(@request.query.token != "" && cancelToken != "" && cancelToken = @request.query.token)';
const untouched = (fields) => fields.map((f) => `@request.body.${f}:isset = false`).join(" && ");
const CANCEL_ONLY = [
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
];
const updateRule = (fields) =>
  `${MANAGE} || ((${OWN} || ${WITH_TOKEN}) && @request.body.status = "cancelled" && ${untouched(fields)})`;

migrate(
  (app) => {
    const events = app.findCollectionByNameOrId("events");
    events.fields.add(new JSONField({ name: "questions", maxSize: 20000 }));
    app.save(events);
    const registrations = app.findCollectionByNameOrId("registrations");
    registrations.fields.add(new JSONField({ name: "answers", maxSize: 20000 }));
    registrations.updateRule = updateRule([...CANCEL_ONLY, "answers"]);
    app.save(registrations);
  },
  (app) => {
    const registrations = app.findCollectionByNameOrId("registrations");
    registrations.fields.removeByName("answers");
    registrations.updateRule = updateRule(CANCEL_ONLY);
    app.save(registrations);
    const events = app.findCollectionByNameOrId("events");
    events.fields.removeByName("questions");
    app.save(events);
  },
);
