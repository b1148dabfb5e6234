/// <reference path="../../pb_data/types.d.ts" />
// Child check-in (issue 28), decided inside each write's transaction (see ../checkin.pb.js), so the
// rules hold on every write path and under concurrent check-ins from several stations: a room never
// holds more children than its capacity, a household's children share one pickup code that day and no
// other household has it, and a child leaves only with the matching code or an operator's reason.

/** Refuse the write with a field error the gateway passes on (errors.ts maps the code). */
const fail = (code, field, message) => {
  throw new BadRequestError(message, { [field]: new ValidationError("validation_" + code, message) });
};

/** Pickup codes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G look-alikes, so a code read aloud or off a tag is never misread. */
const CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479";
const CODE_LENGTH = 4;
const randomCode = () => {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++)
    code += CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)];
  return code;
};

const msOf = (pbDate) => Date.parse(String(pbDate).replace(" ", "T"));

/** The church-local date (YYYY-MM-DD) of a PocketBase date, in the settings' time zone. */
function localDay(app, pbDate) {
  let zone = "UTC";
  try {
    zone = app.findFirstRecordByFilter("settings", "id != ''").getString("timezone") || "UTC";
  } catch (_) {
    /* no settings yet: UTC */
  }
  const location = new DateTime("2000-01-01 00:00:00", zone).time().location();
  return new DateTime(String(pbDate)).time().in(location).format("2006-01-02");
}

/** A session's window from its start: opens `opensMinutes` before, closes `closesMinutes` after. */
function deriveSession(session) {
  const start = msOf(session.getString("startsAt"));
  if (!Number.isFinite(start)) return;
  const text = (ms) => new Date(ms).toISOString().replace("T", " ");
  session.set("opensAt", text(start - session.getInt("opensMinutes") * 60_000));
  session.set("closesAt", text(start + session.getInt("closesMinutes") * 60_000));
}

/** Children (or volunteers) in the room for the session now: checked in and not out. */
const present = (app, sessionId, roomId, kind) =>
  app.countRecords("checkins", $dbx.hashExp({ session: sessionId, room: roomId, kind, checkedOutAt: "" }));

/** A current background check (serving_clearances), for rooms that require one of their volunteers. */
function hasClearance(app, personId, day) {
  const rows = app.findRecordsByFilter(
    "serving_clearances",
    "person = {:person} && kind = 'background_check'",
    "",
    20,
    0,
    { person: personId },
  );
  return rows.some((row) => {
    const expires = row.getString("expiresOn");
    return !expires || expires.slice(0, 10) >= day;
  });
}

/** A code no household has today and no station holds for it. */
function freeCode(app, day) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const code = randomCode();
    const taken =
      app.countRecords("checkins", $dbx.hashExp({ day, code })) +
      app.countRecords("checkin_code_holds", $dbx.hashExp({ day, code }));
    if (!taken) return code;
  }
  fail("no_code", "code", "No pickup code is free today; try again.");
}

/**
 * The pickup code of the household's children today; else the code a station proposes for a check-in
 * it made offline, when that station holds it for the day (and it is not another household's); else a
 * new one.
 */
function codeFor(app, householdId, day, proposed, stationId) {
  if (householdId) {
    const mine = app.findRecordsByFilter(
      "checkins",
      "household = {:household} && day = {:day} && code != ''",
      "",
      1,
      0,
      { household: householdId, day },
    );
    if (mine.length) return mine[0].getString("code");
  }
  if (proposed && stationId) {
    const held = app.findRecordsByFilter(
      "checkin_code_holds",
      "day = {:day} && code = {:code} && station = {:station} && (household = '' || household = {:household})",
      "",
      1,
      0,
      { day, code: proposed, station: stationId, household: householdId },
    );
    if (held.length) {
      held[0].set("household", householdId);
      app.save(held[0]);
      return proposed;
    }
  }
  return freeCode(app, day);
}

/** How far back a queued offline check-in may say it was made. */
const OFFLINE_MAX_MS = 30 * 60 * 1000;

/** The names the household said may not pick its children up, for the room's alert. */
function alertsOf(app, householdId) {
  if (!householdId) return "";
  return app
    .findRecordsByFilter(
      "pickup_authorizations",
      "household = {:household} && status = 'not_authorized'",
      "name",
      50,
      0,
      { household: householdId },
    )
    .map((row) => {
      const relationship = row.getString("relationship");
      return relationship ? `${row.getString("name")} (${relationship})` : row.getString("name");
    })
    .join("; ");
}

/**
 * A new check-in: inside the session's window, into a room open in it, within the room's capacity
 * and ratio; a volunteer with a clearance where the room asks for one. The hook fills the code, the
 * day, first time and the copies the room reads.
 */
function admitCheckin(app, checkin) {
  const session = app.findRecordById("checkin_sessions", checkin.getString("session"));
  // A check-in a station queued while offline counts from when it was made (the last 30 minutes).
  let now = Date.now();
  const offlineAt = checkin.getString("offlineAt");
  if (offlineAt) {
    const at = msOf(offlineAt);
    if (!Number.isFinite(at) || at > now + 60_000 || at < now - OFFLINE_MAX_MS)
      fail(
        "offline_too_old",
        "offlineAt",
        "This check-in was made offline too long ago; check the child in again.",
      );
    now = Math.min(at, now);
  }
  if (now < msOf(session.getString("opensAt")) || now > msOf(session.getString("closesAt")))
    fail("checkin_closed", "session", "Check-in for this session is not open now.");
  const roomId = checkin.getString("room");
  if (!session.getStringSlice("rooms").includes(roomId))
    fail("room_not_open", "room", "This room is not open for this session.");
  const stationId = checkin.getString("station");
  if (stationId) {
    const set = app.findRecordById("checkin_stations", stationId).getStringSlice("rooms");
    if (set.length && !set.includes(roomId))
      fail("room_not_open", "room", "This station does not check children into this room.");
  }
  const proposed = checkin.getString("proposedCode").trim().toUpperCase();
  checkin.set("proposedCode", "");
  const room = app.findRecordById("checkin_rooms", roomId);
  if (!room.getBool("active")) fail("room_not_open", "room", "This room is closed.");
  const person = app.findRecordById("people", checkin.getString("person"));
  if (person.getString("recordStatus") === "archived")
    fail("person_archived", "person", "This person's record is archived.");

  const day = localDay(app, session.getString("startsAt"));
  checkin.set("day", day);
  checkin.set("household", person.getString("household"));
  checkin.set(
    "name",
    `${person.getString("preferredName").trim() || person.getString("firstName")} ${person.getString("lastName")}`.trim(),
  );
  checkin.set("firstTime", app.countRecords("checkins", $dbx.hashExp({ person: person.id })) === 0);
  checkin.set("checkedOutAt", "");
  checkin.set("pickupCode", "");

  checkin.set("overRatio", false);
  const kind = checkin.getString("kind");
  if (kind === "volunteer") {
    if (room.getBool("requiresClearance") && !hasClearance(app, person.id, day))
      fail("clearance_required", "person", "This room needs a current background check for its volunteers.");
    checkin.set("code", "");
    checkin.set("allergies", "");
    checkin.set("medicalNotes", "");
    checkin.set("alerts", "");
    return;
  }

  const children = present(app, session.id, roomId, "child");
  const capacity = room.getInt("capacity");
  if (capacity > 0 && children >= capacity)
    fail("room_full", "room", `${room.getString("name")} is full (${capacity} children).`);
  const ratio = room.getInt("ratio");
  if (ratio > 0) {
    const volunteers = present(app, session.id, roomId, "volunteer");
    let mode = "refuse";
    try {
      mode = app.findFirstRecordByFilter("settings", "id != ''").getString("checkinRatioMode") || "refuse";
    } catch (_) {
      /* default */
    }
    const over = children + 1 > ratio * volunteers;
    checkin.set("overRatio", over);
    if (over && mode === "refuse")
      fail(
        "ratio",
        "room",
        volunteers
          ? `${room.getString("name")} needs another volunteer first (${ratio} children each).`
          : `${room.getString("name")} has no volunteer checked in yet.`,
      );
  }
  let care = null;
  try {
    care = app.findFirstRecordByFilter("person_care", "person = {:person}", { person: person.id });
  } catch (_) {
    /* no care notes */
  }
  checkin.set("allergies", care ? care.getString("allergies") : "");
  checkin.set("medicalNotes", care ? care.getString("medicalNotes") : "");
  checkin.set("alerts", alertsOf(app, person.getString("household")));
  checkin.set("code", codeFor(app, person.getString("household"), day, proposed, stationId));
}

/** The id of the check-in station `auth` is (an api_clients identity a station was registered to), or "". */
function stationOf(app, auth) {
  if (!auth || auth.collection().name !== "api_clients") return "";
  try {
    return app.findFirstRecordByFilter("checkin_stations", "client = {:client}", { client: auth.id }).id;
  } catch (_) {
    return "";
  }
}

/** Unused codes one station may hold for a day (enough for the families of a few minutes offline). */
const HOLDS_MAX = 20;

/** A code held for a station's offline check-ins: the session's day, a free code, within the station's allowance. */
function holdCode(app, hold) {
  const session = app.findRecordById("checkin_sessions", hold.getString("session"));
  const day = localDay(app, session.getString("startsAt"));
  const unused = app.countRecords(
    "checkin_code_holds",
    $dbx.hashExp({ station: hold.getString("station"), day, household: "" }),
  );
  if (unused >= HOLDS_MAX)
    fail("too_many_holds", "code", "This station already holds enough codes for today.");
  hold.set("day", day);
  hold.set("household", "");
  hold.set("code", freeCode(app, day));
}

/**
 * A change to a check-in is a checkout: once, with the child's code (the pickup tag's) or an
 * operator's reason for letting the child go without it. The code given is compared, never kept.
 */
function reviseCheckin(app, checkin) {
  const before = checkin.original();
  const given = checkin.getString("pickupCode").trim().toUpperCase();
  checkin.set("pickupCode", "");
  const wasOut = !!before.getString("checkedOutAt");
  const isOut = !!checkin.getString("checkedOutAt");
  if (wasOut) {
    if (
      !isOut ||
      checkin.getString("checkedOutAt") !== before.getString("checkedOutAt") ||
      checkin.getString("overrideReason") !== before.getString("overrideReason")
    )
      fail("checked_out", "checkedOutAt", "This check-in is already checked out.");
    return;
  }
  if (!isOut) {
    checkin.set("overrideReason", "");
    return;
  }
  checkin.set("checkedOutAt", new DateTime());
  if (checkin.getString("kind") !== "child") {
    checkin.set("overrideReason", "");
    return;
  }
  const reason = checkin.getString("overrideReason").trim();
  if (given) {
    if (given !== checkin.getString("code"))
      fail("wrong_code", "pickupCode", "This code does not match the child's pickup tag.");
    checkin.set("overrideReason", "");
    return;
  }
  if (reason.length < 3)
    fail(
      "code_required",
      "pickupCode",
      "Enter the code on the pickup tag, or a reason to check out without it.",
    );
  checkin.set("overrideReason", reason);
}

/** A room's numbers in a session (checkin_counts), counted again inside the write that changed them. */
function recount(app, sessionId, roomId) {
  if (!sessionId || !roomId) return;
  const where = (extra) => $dbx.hashExp(Object.assign({ session: sessionId, room: roomId }, extra));
  const numbers = {
    children: app.countRecords("checkins", where({ kind: "child", checkedOutAt: "" })),
    volunteers: app.countRecords("checkins", where({ kind: "volunteer", checkedOutAt: "" })),
    childrenTotal: app.countRecords("checkins", where({ kind: "child" })),
    firstTime: app.countRecords("checkins", where({ kind: "child", firstTime: true })),
  };
  let row;
  try {
    row = app.findFirstRecordByFilter("checkin_counts", "session = {:session} && room = {:room}", {
      session: sessionId,
      room: roomId,
    });
  } catch (_) {
    row = new Record(app.findCollectionByNameOrId("checkin_counts"));
    row.set("session", sessionId);
    row.set("room", roomId);
  }
  for (const [field, value] of Object.entries(numbers)) row.set(field, value);
  app.save(row);
}

module.exports = { admitCheckin, reviseCheckin, deriveSession, recount, holdCode, stationOf, CODE_ALPHABET };
