/// <reference path="../pb_data/types.d.ts" />
// Registrations and RSVPs (issue 14): capacity, waitlist order and promotion, party splits and the
// per-occurrence counts, decided here inside each write's transaction (see lib/events.js), so they
// hold for every write path (gateway, REST, seed) and under concurrent registrations.

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
