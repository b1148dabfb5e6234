/// <reference path="../pb_data/types.d.ts" />
// Child check-in (issue 28): rooms with an age range, a capacity and a ratio; check-in sessions (a
// service time, often an event occurrence, with a window around its start); one check-in per person and
// session, with the pickup code on the child's label and the parent's tag; a child's care notes
// (allergies, medical notes) and the household's pickup list (trusted adults, and people not
// authorised to pick up). Limits mirror shared/src/limits.ts.
//
// Who sees what (the new permission `checkin.operate`: the people at the check-in desk and the
// children's ministry staff):
// - rooms and sessions: operators, and any active member (names and times, nothing about children);
// - a check-in: operators; the household's adults (their child's code, in their account); and a
//   volunteer checked in to the same room and session, while they are there (the room's leaders). A
//   check-in carries, copied when it was made, the child's allergies and medical notes and the names
//   of people not authorised to pick up, so the room sees them for the session only;
// - care notes: operators, the person, and the adults of their household — never other members, staff
//   without checkin.operate, or a room leader outside the session (they read the check-in's copy);
// - the pickup list: operators and the household's adults, who keep it;
// - each room's counts in a session (checkin_counts, kept by the hook): operators, and API tokens with
//   the scope "checkin.counts" (a lobby screen, an attendance report) — numbers only, never a name.
// Writes: operators check anyone in and out; an active member checks themself in to serve in a room
// (kind volunteer) and out again; households keep their care notes and pickup list.
//
// Decided inside the write (pb_hooks/checkin.pb.js): the session's window, the room open in it, the
// room's capacity and ratio (never exceeded under concurrent check-ins), a volunteer's clearance where
// the room requires one, the pickup code (shared by a household's children that day, unique among the
// day's other households, without look-alike characters), first time, the copies above; checkout only
// with the matching code or an operator's override with a reason.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const OPERATE = has("checkin.operate");
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const ADULT = '@request.auth.person.ageGroup = "adult"';
const USER = '@request.auth.collectionName = "users"';
/** The caller is an active adult of the household at `field`. */
const ADULT_OF = (field) =>
  `(${ACTIVE} && ${ADULT} && @request.auth.person.household != "" && ${field} = @request.auth.person.household)`;
/** The caller serves, checked in and not yet out, in this check-in's room and session. */
const SERVES_HERE =
  `(${ME} != "" && @collection.checkins:crew.person ?= ${ME} && @collection.checkins:crew.kind ?= "volunteer" && ` +
  "@collection.checkins:crew.session ?= session && @collection.checkins:crew.room ?= room && " +
  '@collection.checkins:crew.checkedOutAt ?= "")';
/** Fields only the hook writes. */
const HOOK_FIELDS = [
  "name",
  "code",
  "household",
  "firstTime",
  "allergies",
  "medicalNotes",
  "alerts",
  "day",
  "overRatio",
];
const notSet = (fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(" && ");

const CHECKIN_EVENTS = ["checkin.checked_in", "checkin.checked_out"];
/** The API scope for attendance counts (rooms, sessions and their numbers; never a check-in). */
const COUNTS = '@request.auth.scopes:each ?= "checkin.counts"';

migrate(
  (app) => {
    const roles = app.findCollectionByNameOrId("roles");
    const permissions = roles.fields.getByName("permissions");
    permissions.values = [...permissions.values, "checkin.operate"];
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
    for (const name of ["Administrator", "Pastor"]) {
      try {
        const role = app.findFirstRecordByFilter("roles", "name = {:name}", { name });
        role.set("permissions", [...role.get("permissions"), "checkin.operate"]);
        app.save(role);
      } catch (_) {
        /* renamed or removed by the church */
      }
    }

    const clients = app.findCollectionByNameOrId("api_clients");
    const scopes = clients.fields.getByName("scopes");
    scopes.values = [...scopes.values, "checkin.counts"];
    scopes.maxSelect = scopes.values.length;
    app.save(clients);

    const settings = app.findCollectionByNameOrId("settings");
    // A room over its ratio of children to volunteers: refuse the check-in, or let it through with a warning.
    settings.fields.add(
      new SelectField({ name: "checkinRatioMode", maxSelect: 1, values: ["refuse", "warn"] }),
    );
    app.save(settings);

    const people = app.findCollectionByNameOrId("people");
    const households = app.findCollectionByNameOrId("households");
    const users = app.findCollectionByNameOrId("users");
    const events = app.findCollectionByNameOrId("events");

    const rooms = new Collection({
      type: "base",
      name: "checkin_rooms",
      listRule: `${OPERATE} || ${ACTIVE} || ${COUNTS}`,
      viewRule: `${OPERATE} || ${ACTIVE} || ${COUNTS}`,
      createRule: OPERATE,
      updateRule: OPERATE,
      deleteRule: OPERATE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 60 },
        // Ages the room is for, in months (0–216); empty: no bound.
        { name: "minAgeMonths", type: "number", onlyInt: true, min: 0, max: 216 },
        { name: "maxAgeMonths", type: "number", onlyInt: true, min: 0, max: 216 },
        // Children at once (0: no limit).
        { name: "capacity", type: "number", onlyInt: true, min: 0, max: 500 },
        // Children per volunteer (0: no ratio).
        { name: "ratio", type: "number", onlyInt: true, min: 0, max: 50 },
        // Volunteers need a current background check (serving_clearances) to serve here.
        { name: "requiresClearance", type: "bool" },
        { name: "active", type: "bool" },
        { name: "sort", type: "number", onlyInt: true, min: 0, max: 10000 },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_checkin_rooms_sort ON checkin_rooms (sort, name)"],
    });
    app.save(rooms);

    const sessions = new Collection({
      type: "base",
      name: "checkin_sessions",
      listRule: `${OPERATE} || ${ACTIVE} || ${COUNTS}`,
      viewRule: `${OPERATE} || ${ACTIVE} || ${COUNTS}`,
      createRule: OPERATE,
      updateRule: OPERATE,
      deleteRule: OPERATE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        { name: "startsAt", type: "date", required: true },
        // The window: check-in opens this many minutes before the start and closes this many after.
        { name: "opensMinutes", type: "number", onlyInt: true, min: 0, max: 240 },
        { name: "closesMinutes", type: "number", onlyInt: true, min: 0, max: 240 },
        // Kept by the hook from the start and the window (the rules and lists read them).
        { name: "opensAt", type: "date" },
        { name: "closesAt", type: "date" },
        // The event occurrence it belongs to, when there is one.
        { name: "event", type: "relation", collectionId: events.id, maxSelect: 1, cascadeDelete: false },
        { name: "rooms", type: "relation", collectionId: rooms.id, maxSelect: 50, cascadeDelete: false },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_checkin_sessions_starts ON checkin_sessions (startsAt)"],
    });
    app.save(sessions);

    const checkins = new Collection({
      type: "base",
      name: "checkins",
      // Filled in below, once the collection exists (SERVES_HERE names it).
      fields: [
        {
          name: "session",
          type: "relation",
          required: true,
          collectionId: sessions.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "room", type: "relation", required: true, collectionId: rooms.id, maxSelect: 1 },
        { name: "kind", type: "select", required: true, maxSelect: 1, values: ["child", "volunteer"] },
        { name: "household", type: "relation", collectionId: households.id, maxSelect: 1 },
        // The person's name as the room calls them (hook: operators do not read people records).
        { name: "name", type: "text", max: 101 },
        // The pickup code on the label and tag (hook).
        { name: "code", type: "text", max: 4 },
        // The church-local date of the session (YYYY-MM-DD): codes are unique per day.
        { name: "day", type: "text", max: 10 },
        { name: "checkedInBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "checkedOutAt", type: "date" },
        { name: "checkedOutBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        // Checkout: the code the parent shows (compared by the hook, which always empties it: never stored) …
        { name: "pickupCode", type: "text", max: 4 },
        // … or an operator's reason for checking out without it (kept: the override is logged).
        { name: "overrideReason", type: "text", max: 200 },
        { name: "firstTime", type: "bool" },
        // Admitted past the room's ratio because the church warns instead of refusing (the station says so).
        { name: "overRatio", type: "bool" },
        // Copies made at check-in for the room (the care notes, the names not authorised to pick up).
        { name: "allergies", type: "text", max: 500 },
        { name: "medicalNotes", type: "text", max: 1000 },
        { name: "alerts", type: "text", max: 1000 },
        // The station's own id for the write (a check-in queued offline and sent twice lands once).
        { name: "clientKey", type: "text", max: 40 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_checkins_session_person ON checkins (session, person)",
        "CREATE INDEX idx_checkins_room ON checkins (session, room, checkedOutAt)",
        "CREATE INDEX idx_checkins_day_code ON checkins (day, code)",
        "CREATE INDEX idx_checkins_household ON checkins (household, day)",
      ],
    });
    app.save(checkins);
    const read = `${OPERATE} || (${USER} && (person = ${ME} || ${ADULT_OF("household")} || ${SERVES_HERE}))`;
    checkins.listRule = read;
    checkins.viewRule = read;
    // Operators check anyone in; an active member checks themself in to serve.
    checkins.createRule =
      `(${OPERATE} && ${notSet([...HOOK_FIELDS, "checkedInBy", "checkedOutBy"])}) || ` +
      `(${USER} && ${ACTIVE} && ${ME} != "" && @request.body.person = ${ME} && @request.body.kind = "volunteer" && ` +
      `${notSet([...HOOK_FIELDS, "checkedInBy", "checkedOutBy", "overrideReason", "pickupCode"])})`;
    // Checking out: operators (with the code or a reason); a volunteer themself. Nothing else changes.
    checkins.updateRule =
      `(${OPERATE} || (${USER} && ${ME} != "" && person = ${ME} && kind = "volunteer")) && ` +
      `${notSet([...HOOK_FIELDS, "session", "person", "room", "kind", "checkedInBy", "checkedOutBy", "clientKey"])}`;
    checkins.deleteRule = OPERATE;
    app.save(checkins);

    // Each room's numbers in a session, kept by the hook with every check-in and checkout.
    const counts = new Collection({
      type: "base",
      name: "checkin_counts",
      listRule: `${OPERATE} || ${COUNTS}`,
      viewRule: `${OPERATE} || ${COUNTS}`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "session",
          type: "relation",
          required: true,
          collectionId: sessions.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "room",
          type: "relation",
          required: true,
          collectionId: rooms.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // In the room now, and checked in during the session (out or not).
        { name: "children", type: "number", onlyInt: true, min: 0 },
        { name: "volunteers", type: "number", onlyInt: true, min: 0 },
        { name: "childrenTotal", type: "number", onlyInt: true, min: 0 },
        { name: "firstTime", type: "number", onlyInt: true, min: 0 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_checkin_counts_room ON checkin_counts (session, room)"],
    });
    app.save(counts);

    const care = new Collection({
      type: "base",
      name: "person_care",
      fields: [
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "allergies", type: "text", max: 500 },
        { name: "medicalNotes", type: "text", max: 1000 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_person_care_person ON person_care (person)"],
    });
    const careAccess = `${OPERATE} || (${USER} && ${ME} != "" && (person = ${ME} || ${ADULT_OF("person.household")}))`;
    care.listRule = careAccess;
    care.viewRule = careAccess;
    // (The body's person is looked up by id: a rule does not follow a relation inside the request body.)
    const BODY_PERSON_IN_MY_HOUSEHOLD =
      `(${ACTIVE} && ${ADULT} && @request.auth.person.household != "" && @collection.people:cared.id ?= @request.body.person && ` +
      "@collection.people:cared.household ?= @request.auth.person.household)";
    care.createRule = `${OPERATE} || (${USER} && ${ME} != "" && (@request.body.person = ${ME} || ${BODY_PERSON_IN_MY_HOUSEHOLD}))`;
    care.updateRule = `(${careAccess}) && @request.body.person:isset = false`;
    care.deleteRule = careAccess;
    app.save(care);

    const pickups = new Collection({
      type: "base",
      name: "pickup_authorizations",
      fields: [
        {
          name: "household",
          type: "relation",
          required: true,
          collectionId: households.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        { name: "relationship", type: "text", max: 50 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["trusted", "not_authorized"],
        },
        { name: "notes", type: "text", max: 255 },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_pickup_authorizations_household ON pickup_authorizations (household)"],
    });
    const pickupAccess = `${OPERATE} || (${USER} && ${ADULT_OF("household")})`;
    pickups.listRule = pickupAccess;
    pickups.viewRule = pickupAccess;
    pickups.createRule = `${OPERATE} || (${USER} && ${ADULT_OF("@request.body.household")})`;
    pickups.updateRule = `(${pickupAccess}) && @request.body.household:isset = false`;
    pickups.deleteRule = pickupAccess;
    app.save(pickups);

    // Webhook events (pb_hooks/lib/webhooks.js): ids only, never a child's name.
    for (const [name, field] of [
      ["webhooks", "events"],
      ["webhook_deliveries", "type"],
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      const select = collection.fields.getByName(field);
      select.values = [...select.values, ...CHECKIN_EVENTS];
      if (field === "events") select.maxSelect = select.values.length;
      app.save(collection);
    }

    // Notification kinds: a room pages a parent.
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, "checkin_page"];
    app.save(notifications);
  },
  (app) => {
    for (const name of [
      "pickup_authorizations",
      "person_care",
      "checkin_counts",
      "checkins",
      "checkin_sessions",
      "checkin_rooms",
    ]) {
      app.delete(app.findCollectionByNameOrId(name));
    }
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.removeByName("checkinRatioMode");
    app.save(settings);
    for (const [name, field] of [
      ["webhooks", "events"],
      ["webhook_deliveries", "type"],
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      const select = collection.fields.getByName(field);
      select.values = select.values.filter((value) => !CHECKIN_EVENTS.includes(value));
      if (field === "events") select.maxSelect = select.values.length;
      app.save(collection);
    }
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter((value) => value !== "checkin_page");
    app.save(notifications);
    const clients = app.findCollectionByNameOrId("api_clients");
    const scopes = clients.fields.getByName("scopes");
    scopes.values = scopes.values.filter((value) => value !== "checkin.counts");
    scopes.maxSelect = scopes.values.length;
    app.save(clients);
    const roles = app.findCollectionByNameOrId("roles");
    for (const role of app.findAllRecords("roles")) {
      role.set(
        "permissions",
        role.get("permissions").filter((permission) => permission !== "checkin.operate"),
      );
      app.save(role);
    }
    const permissions = roles.fields.getByName("permissions");
    permissions.values = permissions.values.filter((value) => value !== "checkin.operate");
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
  },
);
