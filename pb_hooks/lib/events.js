/// <reference path="../../pb_data/types.d.ts" />
// Registration capacity, waitlist and counts (issue 14), and the sign-up window of RSVPs and
// registrations: the one place each is decided. Called from model hooks, so every read and write here
// happens inside the record's own transaction: PocketBase writes through one connection, so two
// registrations for the last seat are decided one after the other, never both "confirmed". The gateway
// reads the results: the refusals' codes (as field errors), occurrence_counts.seatsLeft, and the
// window through POST /api/flock/events/sign-up-windows (events.pb.js).

/** Seats confirmed for one occurrence (the sum of the confirmed parties). */
function seatsTaken(app, eventId, occurrenceStart) {
  const row = new DynamicModel({ n: 0 });
  app
    .db()
    .newQuery(
      "SELECT COALESCE(SUM(attendees), 0) AS n FROM registrations WHERE event = {:e} AND occurrenceStart = {:o} AND status = 'confirmed'",
    )
    .bind({ e: eventId, o: occurrenceStart })
    .one(row);
  return row.n;
}

function nextWaitlistPosition(app, eventId, occurrenceStart) {
  const row = new DynamicModel({ n: 0 });
  app
    .db()
    .newQuery(
      "SELECT COALESCE(MAX(waitlistPosition), 0) AS n FROM registrations WHERE event = {:e} AND occurrenceStart = {:o}",
    )
    .bind({ e: eventId, o: occurrenceStart })
    .one(row);
  return row.n + 1;
}

/**
 * Seats left at an occurrence with `confirmed` seats taken: never below 0 (a capacity lowered under the
 * seats taken leaves none); 0 for an event without a capacity, which counts no seats.
 */
function seatsLeft(event, confirmed) {
  const capacity = event.getInt("capacity");
  return capacity ? Math.max(0, capacity - confirmed) : 0;
}

const fail = (message, field) => {
  throw new BadRequestError(message, { [field]: new ValidationError("validation_" + message, message) });
};

const instant = (pbDate) => new Date(pbDate.replace(" ", "T"));

/** Whether staff cancelled this one date of the series (an exception). */
function cancelledOn(app, eventId, occurrenceStart) {
  const row = new DynamicModel({ n: 0 });
  app
    .db()
    .newQuery(
      "SELECT COUNT(*) AS n FROM event_exceptions WHERE event = {:e} AND originalStart = {:o} AND status = 'cancelled'",
    )
    .bind({ e: eventId, o: occurrenceStart })
    .one(row);
  return row.n > 0;
}

/**
 * The sign-up window: why a new RSVP (`mode` "rsvp") or registration ("registration") for this
 * occurrence is refused now, as { code, field }, or null when it may be made. The event must take that
 * kind of sign-up and be published; the instant must be one of the series' dates (its rule, COUNT,
 * UNTIL and EXDATEs: lib/recurrence.js), not cancelled and not begun; the registration window
 * (registrationOpensAt … registrationClosesAt), when set, must be open.
 */
function signUpRefusal(app, event, occurrenceStart, mode) {
  if (event.getString("registrationMode") !== mode)
    return { code: mode === "rsvp" ? "rsvp_not_open" : "registration_not_open", field: "event" };
  const now = new Date();
  if (event.getString("status") !== "published") return { code: "registration_closed", field: "event" };
  if (cancelledOn(app, event.id, occurrenceStart))
    return { code: "registration_closed", field: "occurrenceStart" };
  // An instant that is no date of the series names nothing to sign up for; the gateway never sends
  // one (it answers NOT_FOUND first), but the REST API takes any date.
  if (!require(`${__hooks}/lib/recurrence.js`).isOccurrence(event, occurrenceStart))
    return { code: "registration_closed", field: "occurrenceStart" };
  if (instant(occurrenceStart) < now) return { code: "registration_closed", field: "occurrenceStart" };
  const opens = event.getDateTime("registrationOpensAt");
  const closes = event.getDateTime("registrationClosesAt");
  if (!opens.isZero() && now < instant(opens.string()))
    return { code: "registration_closed", field: "event" };
  if (!closes.isZero() && now > instant(closes.string()))
    return { code: "registration_closed", field: "event" };
  return null;
}

/**
 * Refuse an RSVP's answer outside the window (a new one, or a changed answer, name or email). Only for
 * an event the caller may view: anything else the API rules refuse without saying why.
 */
function checkRsvp(app, record, requestInfo) {
  let event;
  try {
    event = app.findRecordById("events", record.getString("event"));
  } catch (_) {
    return;
  }
  if (!app.canAccessRecord(event, requestInfo, event.collection().viewRule)) return;
  const refusal = signUpRefusal(app, event, record.getString("occurrenceStart"), "rsvp");
  if (refusal) fail(refusal.code, refusal.field);
}

/**
 * Decide a new registration's status before it is inserted. A party larger than the seats left is
 * confirmed for those seats; `splitRest` tells the caller how many attendees to waitlist separately.
 */
/** JSON of a record's field as a value (null when empty or not JSON). */
function jsonOf(record, field) {
  try {
    return JSON.parse(record.getString(field) || "null");
  } catch (_) {
    return null;
  }
}

/**
 * A new registration's answers to the event's own questions, as every write path must give them (the
 * gateway checks the same first, with a message per question): each required question answered, a
 * choice among its options, YES or NO, at most 500 characters. Stored in the form's order with the
 * question's wording from the event, whatever wording the request carried; answers to no question dropped.
 */
function answersFor(event, record) {
  const questions = jsonOf(event, "questions");
  const given = jsonOf(record, "answers");
  const byId = {};
  if (Array.isArray(given))
    for (const a of given)
      if (a && typeof a.questionId === "string" && typeof a.value === "string")
        byId[a.questionId] = a.value.trim();
  const answers = [];
  for (const q of Array.isArray(questions) ? questions : []) {
    const value = byId[q.id] || "";
    if (!value) {
      if (q.required) fail("answer_required", "answers");
      continue;
    }
    const ok =
      value.length <= 500 &&
      (q.kind === "choice"
        ? (q.options || []).indexOf(value) >= 0
        : q.kind === "yes_no"
          ? value === "YES" || value === "NO"
          : true);
    if (!ok) fail("answer_invalid", "answers");
    answers.push({ questionId: q.id, question: q.label, value: value });
  }
  return answers;
}

function admit(app, record) {
  // A part made by a split keeps what the split decided.
  if (record.getString("partOf") && record.getString("status")) return 0;
  const eventId = record.getString("event");
  const occurrence = record.getString("occurrenceStart");
  const event = app.findRecordById("events", eventId);
  const refusal = signUpRefusal(app, event, occurrence, "registration");
  if (refusal) fail(refusal.code, refusal.field);
  record.set("answers", answersFor(event, record));

  const duplicate = app
    .db()
    .newQuery(
      "SELECT COUNT(*) AS n FROM registrations WHERE event = {:e} AND occurrenceStart = {:o} AND lower(email) = lower({:m}) AND status != 'cancelled' AND partOf = ''",
    )
    .bind({ e: eventId, o: occurrence, m: record.getString("email") });
  const row = new DynamicModel({ n: 0 });
  duplicate.one(row);
  if (row.n > 0) fail("duplicate_registration", "email");

  const party = record.getInt("attendees");
  if (!event.getInt("capacity")) {
    record.set("status", "confirmed");
    return 0;
  }
  const left = seatsLeft(event, seatsTaken(app, eventId, occurrence));
  if (party <= left) {
    record.set("status", "confirmed");
    return 0;
  }
  if (!event.getBool("waitlistEnabled")) fail("not_enough_seats", "attendees");
  if (left === 0) {
    record.set("status", "waitlisted");
    record.set("waitlistPosition", nextWaitlistPosition(app, eventId, occurrence));
    return 0;
  }
  record.set("status", "confirmed");
  record.set("attendees", left);
  return party - left;
}

/**
 * A registration moved to another date (or event) is admitted there again: confirmed when its party
 * fits the seats left, else waitlisted at the end (or refused without a waitlist). Never split.
 */
function readmit(app, record) {
  const eventId = record.getString("event");
  const occurrence = record.getString("occurrenceStart");
  const event = app.findRecordById("events", eventId);
  if (event.getString("registrationMode") !== "registration") fail("registration_not_open", "event");
  const party = record.getInt("attendees");
  if (!event.getInt("capacity") || party <= seatsLeft(event, seatsTaken(app, eventId, occurrence))) {
    record.set("status", "confirmed");
    record.set("waitlistPosition", 0);
    return;
  }
  if (!event.getBool("waitlistEnabled")) fail("not_enough_seats", "occurrenceStart");
  record.set("status", "waitlisted");
  record.set("waitlistPosition", nextWaitlistPosition(app, eventId, occurrence));
}

/** The waitlisted remainder of a split party, as its own record pointing at the confirmed part. */
function splitPart(app, confirmed, attendees, position) {
  const part = new Record(app.findCollectionByNameOrId("registrations"));
  for (const field of [
    "event",
    "occurrenceStart",
    "user",
    "name",
    "email",
    "phone",
    "attendeeNames",
    "answers",
  ])
    part.set(field, confirmed.get(field));
  part.set("attendees", attendees);
  part.set("status", "waitlisted");
  part.set("waitlistPosition", position);
  part.set("partOf", confirmed.getString("partOf") || confirmed.id);
  part.set("confirmationCode", confirmed.getString("confirmationCode").slice(0, 16) + "-W" + attendees);
  part.set("cancelToken", confirmed.getString("cancelToken"));
  app.save(part);
  return part;
}

/** Fill freed seats from the waitlist, in order; a party larger than the seats freed is split. */
function promote(app, eventId, occurrenceStart) {
  const event = app.findRecordById("events", eventId);
  const limited = event.getInt("capacity") > 0;
  for (let guard = 0; guard < 1000; guard++) {
    const next = app.findRecordsByFilter(
      "registrations",
      "event = {:e} && occurrenceStart = {:o} && status = 'waitlisted'",
      "waitlistPosition,created",
      1,
      0,
      { e: eventId, o: occurrenceStart },
    );
    if (!next.length) return;
    const waiting = next[0];
    const left = limited
      ? seatsLeft(event, seatsTaken(app, eventId, occurrenceStart))
      : waiting.getInt("attendees");
    if (left <= 0) return;
    const party = waiting.getInt("attendees");
    if (party > left) {
      waiting.set("attendees", left);
      splitPart(app, waiting, party - left, waiting.getInt("waitlistPosition"));
    }
    waiting.set("status", "confirmed");
    waiting.set("promotedAt", new DateTime());
    app.save(waiting);
    queuePromotionMail(app, waiting);
  }
}

/**
 * "A seat is yours": one mail_outbox row per promotion, written in the same transaction as the
 * promotion, so concurrent cancellations can neither mail a person twice nor lose the mail (the
 * gateway's outbox job writes and sends it; its unique dedupeKey holds even if this ran twice).
 */
function queuePromotionMail(app, registration) {
  const row = new Record(app.findCollectionByNameOrId("mail_outbox"));
  row.set("kind", "event.promoted");
  row.set("registration", registration.id);
  row.set("dedupeKey", "event.promoted:" + registration.id + ":" + registration.getString("promotedAt"));
  row.set("status", "pending");
  row.set("attempts", 0);
  row.set("nextAttemptAt", new DateTime());
  app.save(row);
}

/** Refresh the public per-occurrence counts (seats taken and left, waitlist, RSVP totals). */
function recount(app, eventId, occurrenceStart) {
  const event = app.findRecordById("events", eventId);
  let counts;
  try {
    counts = app.findFirstRecordByFilter("occurrence_counts", "event = {:e} && occurrenceStart = {:o}", {
      e: eventId,
      o: occurrenceStart,
    });
  } catch (_) {
    counts = new Record(app.findCollectionByNameOrId("occurrence_counts"));
    counts.set("event", eventId);
    counts.set("occurrenceStart", occurrenceStart);
  }
  const sum = (sql) => {
    const row = new DynamicModel({ n: 0 });
    app.db().newQuery(sql).bind({ e: eventId, o: occurrenceStart }).one(row);
    return row.n;
  };
  const confirmed = seatsTaken(app, eventId, occurrenceStart);
  const waitlisted = sum(
    "SELECT COALESCE(SUM(attendees), 0) AS n FROM registrations WHERE event = {:e} AND occurrenceStart = {:o} AND status = 'waitlisted'",
  );
  const going = sum(
    "SELECT COALESCE(SUM(1 + guests), 0) AS n FROM rsvps WHERE event = {:e} AND occurrenceStart = {:o} AND response = 'yes'",
  );
  const maybe = sum(
    "SELECT COALESCE(SUM(1 + guests), 0) AS n FROM rsvps WHERE event = {:e} AND occurrenceStart = {:o} AND response = 'maybe'",
  );
  const left = seatsLeft(event, confirmed);
  if (
    !counts.isNew() &&
    counts.getInt("confirmed") === confirmed &&
    counts.getInt("seatsLeft") === left &&
    counts.getInt("waitlisted") === waitlisted &&
    counts.getInt("going") === going &&
    counts.getInt("maybe") === maybe
  )
    return;
  counts.set("confirmed", confirmed);
  counts.set("seatsLeft", left);
  counts.set("waitlisted", waitlisted);
  counts.set("going", going);
  counts.set("maybe", maybe);
  // Realtime changes may arrive out of order: subscribers keep the highest version (see the migration).
  counts.set("version", counts.getInt("version") + 1);
  app.save(counts);
}

/** Cancel the other parts of a split party when one is cancelled. */
function cancelParts(app, record) {
  const root = record.getString("partOf") || record.id;
  const parts = app.findRecordsByFilter(
    "registrations",
    "(partOf = {:r} || id = {:r}) && status != 'cancelled'",
    "",
    0,
    0,
    { r: root },
  );
  for (const part of parts) {
    if (part.id === record.id) continue;
    part.set("status", "cancelled");
    part.set("cancelledAt", new DateTime());
    app.save(part);
  }
}

/** After an event's capacity or sign-up kind changed: its occurrences' seats left, recounted. */
function recountEvent(app, eventId) {
  const rows = app.findRecordsByFilter("occurrence_counts", "event = {:e}", "", 0, 0, { e: eventId });
  for (const row of rows) recount(app, eventId, row.getString("occurrenceStart"));
}

/**
 * The window as the gateway shows it before a write: open, or the refusal a sign-up of `kind` ("rsvp",
 * "registration"; the event's own kind when not given) would get now.
 */
function signUpWindow(app, event, occurrenceStart, kind) {
  const mode = kind || event.getString("registrationMode");
  if (mode !== "rsvp" && mode !== "registration") return { open: false, code: "registration_not_open" };
  const refusal = signUpRefusal(app, event, occurrenceStart, mode);
  return { open: refusal === null, code: refusal ? refusal.code : null };
}

module.exports = {
  admit,
  readmit,
  splitPart,
  promote,
  recount,
  recountEvent,
  cancelParts,
  nextWaitlistPosition,
  checkRsvp,
  signUpWindow,
};
