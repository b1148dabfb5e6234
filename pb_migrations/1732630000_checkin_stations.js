/// <reference path="../pb_data/types.d.ts" />
// Check-in stations and offline check-in (issue 28).
//
// A station is a device staff register with a short pairing code: a browser on a tablet, laptop or
// phone that then acts as the station, not as the person who set it up (a self station in the lobby
// must never be someone's open account). Its identity is an `api_clients` record with the scope
// "checkin.station", made when the code is redeemed (gateway: schema/checkin/stations.ts), so the same
// machinery as API tokens checks its secret, impersonates it and stops it at once when it is removed.
// The station's record keeps its name, its mode (staffed or self), its label size and the rooms it checks
// children into (its location set; none: every room of the session).
//
// What a station may do, in these rules: read rooms, sessions and their counts; read the check-ins of
// the last day (a family's "already in", its code for pickup); check a child in (the hook checks the
// room is in its set) and out with the code on the pickup tag — never with an override, which needs a
// signed-in operator. People, households and care notes it never reads: the gateway reads only what a
// family's check-in needs, for it, as it does for operators.
//
// Working offline: a station holds a few pickup codes for the day (checkin_code_holds) that the hook
// gives no other household. A check-in made while the network is down is queued with one of them and
// the time it was made (`proposedCode`, `offlineAt`); when it syncs, the hook keeps that code unless the
// household already has one that day (a sibling checked in elsewhere meanwhile): one code per household
// and day, whichever station was first, and the station is told when its label's code was replaced.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const OPERATE = has("checkin.operate");
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const ADULT = '@request.auth.person.ageGroup = "adult"';
const USER = '@request.auth.collectionName = "users"';
const COUNTS = '@request.auth.scopes:each ?= "checkin.counts"';
/** A registered check-in station (an api_clients identity with the station scope). */
const STATION =
  '(@request.auth.collectionName = "api_clients" && @request.auth.scopes:each ?= "checkin.station")';
const ADULT_OF = (field) =>
  `(${ACTIVE} && ${ADULT} && @request.auth.person.household != "" && ${field} = @request.auth.person.household)`;
const SERVES_HERE =
  `(${ME} != "" && @collection.checkins:crew.person ?= ${ME} && @collection.checkins:crew.kind ?= "volunteer" && ` +
  "@collection.checkins:crew.session ?= session && @collection.checkins:crew.room ?= room && " +
  '@collection.checkins:crew.checkedOutAt ?= "")';
/** Fields only the hook writes (1732620000_checkin.js), and the station it records. */
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
  "station",
];
/** What a queued offline check-in brings with it (the hook checks both). */
const OFFLINE_FIELDS = ["proposedCode", "offlineAt"];
const notSet = (fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(" && ");
/** A station's fields only the gateway sets (a system job: the pairing code and the identity it makes). */
const SYSTEM_FIELDS = ["client", "pairingHash", "pairingExpiresAt", "pairedBy", "registeredAt"];
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];

/** The checkins rules of 1732620000_checkin.js, with the station's branches. */
function checkinRules(withStations) {
  const station = (rule) => (withStations ? ` || (${STATION} && ${rule})` : "");
  const read =
    `${OPERATE} || (${USER} && (person = ${ME} || ${ADULT_OF("household")} || ${SERVES_HERE}))` +
    station("created >= @yesterday");
  const hookFields = withStations ? HOOK_FIELDS : HOOK_FIELDS.filter((f) => f !== "station");
  return {
    listRule: read,
    viewRule: read,
    createRule:
      `(${OPERATE} && ${notSet([...hookFields, "checkedInBy", "checkedOutBy"])}) || ` +
      `(${USER} && ${ACTIVE} && ${ME} != "" && @request.body.person = ${ME} && @request.body.kind = "volunteer" && ` +
      `${notSet([...hookFields, ...(withStations ? OFFLINE_FIELDS : []), "checkedInBy", "checkedOutBy", "overrideReason", "pickupCode"])})` +
      (withStations
        ? ` || (${STATION} && @request.body.kind = "child" && ` +
          `${notSet([...hookFields, "checkedInBy", "checkedOutBy", "overrideReason", "pickupCode", "checkedOutAt"])})`
        : ""),
    updateRule:
      `(${OPERATE} || (${USER} && ${ME} != "" && person = ${ME} && kind = "volunteer")) && ` +
      `${notSet([...hookFields, ...(withStations ? OFFLINE_FIELDS : []), "session", "person", "room", "kind", "checkedInBy", "checkedOutBy", "clientKey"])}` +
      // A station checks a child out with the pickup tag's code, never with an override.
      station(
        `kind = "child" && @request.body.pickupCode:isset = true && @request.body.pickupCode != "" && ` +
          notSet([
            ...hookFields,
            ...OFFLINE_FIELDS,
            "session",
            "person",
            "room",
            "kind",
            "checkedInBy",
            "checkedOutBy",
            "clientKey",
            "overrideReason",
          ]),
      ),
    deleteRule: OPERATE,
  };
}

migrate(
  (app) => {
    const clients = app.findCollectionByNameOrId("api_clients");
    const scopes = clients.fields.getByName("scopes");
    scopes.values = [...scopes.values, "checkin.station"];
    scopes.maxSelect = scopes.values.length;
    app.save(clients);

    const rooms = app.findCollectionByNameOrId("checkin_rooms");
    const sessions = app.findCollectionByNameOrId("checkin_sessions");
    const stations = new Collection({
      type: "base",
      name: "checkin_stations",
      listRule: `${OPERATE} || (${STATION} && client = @request.auth.id)`,
      viewRule: `${OPERATE} || (${STATION} && client = @request.auth.id)`,
      // The identity and the pairing code are the gateway's to set (a system job, after an operator asks).
      createRule: `${OPERATE} && ${notSet(SYSTEM_FIELDS)}`,
      updateRule: `${OPERATE} && ${notSet(SYSTEM_FIELDS)}`,
      deleteRule: OPERATE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 60 }, // LIMITS.checkinStationNameMax
        { name: "mode", type: "select", required: true, maxSelect: 1, values: ["staffed", "self"] },
        {
          name: "labelSize",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["62mm", "225in", "none"],
        },
        // Its location set: the rooms it checks children into (none: every room of the session).
        { name: "rooms", type: "relation", collectionId: rooms.id, maxSelect: 50 },
        // The device's identity once the code is redeemed; a new pairing replaces it.
        { name: "client", type: "relation", collectionId: clients.id, maxSelect: 1 },
        // The SHA-256 of the pairing code (8 characters, 15 minutes), never the code.
        { name: "pairingHash", type: "text", max: 64, hidden: true },
        { name: "pairingExpiresAt", type: "date" },
        // The operator who asked for the code (the identity's createdBy).
        {
          name: "pairedBy",
          type: "relation",
          collectionId: app.findCollectionByNameOrId("users").id,
          maxSelect: 1,
        },
        { name: "registeredAt", type: "date" },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_checkin_stations_client ON checkin_stations (client)"],
    });
    app.save(stations);

    const checkins = app.findCollectionByNameOrId("checkins");
    // The station that checked the child in (hook, from the caller; empty for a signed-in operator).
    checkins.fields.add(new RelationField({ name: "station", collectionId: stations.id, maxSelect: 1 }));
    // A queued offline check-in: the code on the label it printed (hook input, always emptied) …
    checkins.fields.add(new TextField({ name: "proposedCode", max: 4 }));
    // … and when it was made (kept: the room's list shows it; the hook accepts the last 30 minutes).
    checkins.fields.add(new DateField({ name: "offlineAt" }));
    Object.assign(checkins, checkinRules(true));
    app.save(checkins);

    for (const name of ["checkin_rooms", "checkin_sessions"]) {
      const collection = app.findCollectionByNameOrId(name);
      collection.listRule = `${OPERATE} || ${ACTIVE} || ${COUNTS} || ${STATION}`;
      collection.viewRule = collection.listRule;
      app.save(collection);
    }
    const counts = app.findCollectionByNameOrId("checkin_counts");
    counts.listRule = `${OPERATE} || ${COUNTS} || ${STATION}`;
    counts.viewRule = counts.listRule;
    app.save(counts);

    // Pickup codes a station holds for the day, for check-ins it makes offline (the hook makes the code).
    const holds = new Collection({
      type: "base",
      name: "checkin_code_holds",
      listRule: `${STATION} && station.client = @request.auth.id`,
      viewRule: `${STATION} && station.client = @request.auth.id`,
      createRule: `${STATION} && ${notSet(["station", "day", "code", "household"])}`,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "station",
          type: "relation",
          required: true,
          collectionId: stations.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // The session it is held for (its day is the code's day).
        {
          name: "session",
          type: "relation",
          required: true,
          collectionId: sessions.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "day", type: "text", max: 10 },
        { name: "code", type: "text", max: 4 },
        // The household whose children it was given to, once used.
        {
          name: "household",
          type: "relation",
          collectionId: app.findCollectionByNameOrId("households").id,
          maxSelect: 1,
        },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_checkin_code_holds_code ON checkin_code_holds (day, code)",
        "CREATE INDEX idx_checkin_code_holds_station ON checkin_code_holds (station, day)",
      ],
    });
    app.save(holds);
  },
  (app) => {
    const checkins = app.findCollectionByNameOrId("checkins");
    Object.assign(checkins, checkinRules(false));
    for (const field of ["station", "proposedCode", "offlineAt"]) checkins.fields.removeByName(field);
    app.save(checkins);
    for (const name of ["checkin_rooms", "checkin_sessions"]) {
      const collection = app.findCollectionByNameOrId(name);
      collection.listRule = `${OPERATE} || ${ACTIVE} || ${COUNTS}`;
      collection.viewRule = collection.listRule;
      app.save(collection);
    }
    const counts = app.findCollectionByNameOrId("checkin_counts");
    counts.listRule = `${OPERATE} || ${COUNTS}`;
    counts.viewRule = counts.listRule;
    app.save(counts);
    app.delete(app.findCollectionByNameOrId("checkin_code_holds"));
    app.delete(app.findCollectionByNameOrId("checkin_stations"));
    const clients = app.findCollectionByNameOrId("api_clients");
    for (const client of app.findRecordsByFilter("api_clients", 'scopes ~ "checkin.station"', "", 0, 0))
      app.delete(client);
    const scopes = clients.fields.getByName("scopes");
    scopes.values = scopes.values.filter((value) => value !== "checkin.station");
    scopes.maxSelect = scopes.values.length;
    app.save(clients);
  },
);
