/// <reference path="../pb_data/types.d.ts" />
// Registrations and RSVPs (issue 14): the sign-up window, capacity, waitlist order and promotion,
// party splits and the per-occurrence counts (seats left among them), decided here inside each write's
// transaction (see lib/events.js), so they hold for every write path (gateway, REST, seed) and under
// concurrent registrations. The gateway only reads the results.

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/events.js`);
  // The create API does not run model hooks in a transaction of its own: open one here and let the
  // save join it, so the seat count read and the insert are one serialized write.
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const rest = lib.admit(app, e.record);
    e.next();
    if (rest > 0)
      lib.splitPart(
        app,
        e.record,
        rest,
        lib.nextWaitlistPosition(app, e.record.getString("event"), e.record.getString("occurrenceStart")),
      );
    lib.recount(app, e.record.getString("event"), e.record.getString("occurrenceStart"));
  });
}, "registrations");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/events.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const before = e.record.original();
    const cancelling =
      before.getString("status") !== "cancelled" && e.record.getString("status") === "cancelled";
    if (cancelling && e.record.getDateTime("cancelledAt").isZero())
      e.record.set("cancelledAt", new DateTime());
    const moved =
      before.getString("event") !== e.record.getString("event") ||
      before.getString("occurrenceStart") !== e.record.getString("occurrenceStart");
    // A moved party must fit where it goes: the seats there decide, as for a new registration.
    if (moved && e.record.getString("status") !== "cancelled") lib.readmit(app, e.record);
    e.next();
    if (cancelling) lib.cancelParts(app, e.record);
    // Seats free up when a confirmed party leaves, shrinks or moves (a promotion itself frees none).
    const frees =
      before.getString("status") === "confirmed" &&
      (e.record.getString("status") !== "confirmed" ||
        e.record.getInt("attendees") < before.getInt("attendees") ||
        moved);
    if (frees) lib.promote(app, before.getString("event"), before.getString("occurrenceStart"));
    lib.recount(app, before.getString("event"), before.getString("occurrenceStart"));
    if (moved) lib.recount(app, e.record.getString("event"), e.record.getString("occurrenceStart"));
  });
}, "registrations");

onRecordDelete((e) => {
  const lib = require(`${__hooks}/lib/events.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    try {
      app.findRecordById("events", e.record.getString("event"));
    } catch (_) {
      return; // the event itself is being deleted
    }
    lib.promote(app, e.record.getString("event"), e.record.getString("occurrenceStart"));
    lib.recount(app, e.record.getString("event"), e.record.getString("occurrenceStart"));
  });
}, "registrations");

// RSVPs through the API answer inside the window (lib/events.js#checkRsvp); the system (superuser) may
// write any, as it may for registrations' other fields.
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/events.js`).checkRsvp(e.app, e.record, e.requestInfo());
  e.next();
}, "rsvps");

onRecordUpdateRequest((e) => {
  const before = e.record.original();
  const changed = (field) => before.getString(field) !== e.record.getString(field);
  // A changed answer is a sign-up again; staff moving it to another date or event (a split) is not.
  const answers =
    ["response", "name", "email"].some(changed) || before.getInt("guests") !== e.record.getInt("guests");
  if (!e.hasSuperuserAuth() && answers && !changed("event") && !changed("occurrenceStart"))
    require(`${__hooks}/lib/events.js`).checkRsvp(e.app, e.record, e.requestInfo());
  e.next();
}, "rsvps");

onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/events.js`).recount(
    e.app,
    e.record.getString("event"),
    e.record.getString("occurrenceStart"),
  );
}, "rsvps");

onRecordUpdate((e) => {
  e.next();
  require(`${__hooks}/lib/events.js`).recount(
    e.app,
    e.record.getString("event"),
    e.record.getString("occurrenceStart"),
  );
}, "rsvps");

onRecordDelete((e) => {
  e.next();
  try {
    e.app.findRecordById("events", e.record.getString("event"));
  } catch (_) {
    return;
  }
  require(`${__hooks}/lib/events.js`).recount(
    e.app,
    e.record.getString("event"),
    e.record.getString("occurrenceStart"),
  );
}, "rsvps");

// A new capacity changes the seats left at every date already counted.
onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const before = e.record.original().getInt("capacity");
    e.next();
    if (before !== e.record.getInt("capacity"))
      require(`${__hooks}/lib/events.js`).recountEvent(app, e.record.id);
  });
}, "events");

// Whether occurrences take sign-ups now, as a write would be decided (lib/events.js#signUpWindow), for
// the pages that show the form and for the gateway's answer before it writes. POST {occurrences: [{event,
// occurrence, kind?}]} (at most 100; kind "rsvp" or "registration", else the event's own) answers
// [{open, code} | null], in order: null for an event the caller may not view (its view rule, with the
// caller's own token) or that does not exist, as the records API would hide it.
routerAdd("POST", "/api/flock/events/sign-up-windows", (e) => {
  const lib = require(`${__hooks}/lib/events.js`);
  const asked = e.requestInfo().body.occurrences;
  if (!Array.isArray(asked) || asked.length > 100)
    throw new BadRequestError("occurrences: a list of at most 100 {event, occurrence, kind}");
  const info = e.requestInfo();
  const visible = {};
  const answers = asked.map((item) => {
    const { event: id, occurrence, kind } = item || {};
    if (typeof id !== "string" || !/^[a-z0-9]{15}$/.test(id)) throw new BadRequestError("event: a record id");
    if (typeof occurrence !== "string" || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(occurrence))
      throw new BadRequestError("occurrence: a date like 2026-12-06 15:00:00.000Z");
    if (kind !== undefined && kind !== null && kind !== "rsvp" && kind !== "registration")
      throw new BadRequestError("kind: rsvp or registration");
    if (!(id in visible)) {
      let event = null;
      try {
        event = e.app.findRecordById("events", id);
      } catch (_) {
        event = null;
      }
      visible[id] =
        event && (e.hasSuperuserAuth() || e.app.canAccessRecord(event, info, event.collection().viewRule))
          ? event
          : null;
    }
    return visible[id] ? lib.signUpWindow(e.app, visible[id], occurrence, kind || "") : null;
  });
  return e.json(200, answers);
});
