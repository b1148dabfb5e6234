/// <reference path="../pb_data/types.d.ts" />
// Child check-in (issue 28), decided inside each write's transaction whatever path writes (lib/checkin.js):
// the window, the room's capacity and ratio, the pickup code, checkout only with the code or a reason;
// each room's numbers (checkin_counts) follow every check-in, checkout and removal.

// (Handlers run in their own runtime: each requires what it uses; nothing outside them is in scope.)

// Who checked in and out is the signed-in caller, never what a request says: a person, or a
// registered station (an api_clients identity; its checkin_stations record is what check-ins name).
onRecordCreateRequest((e) => {
  const lib = require(`${__hooks}/lib/checkin.js`);
  e.record.set("checkedInBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
  e.record.set("station", lib.stationOf(e.app, e.auth));
  e.next();
}, "checkins");

onRecordCreateRequest((e) => {
  const station = require(`${__hooks}/lib/checkin.js`).stationOf(e.app, e.auth);
  if (!station) throw new ForbiddenError("Only a registered check-in station holds codes.");
  e.record.set("station", station);
  e.next();
}, "checkin_code_holds");

onRecordCreate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/checkin.js`).holdCode(app, e.record);
    e.next();
  });
}, "checkin_code_holds");

onRecordUpdateRequest((e) => {
  const before = e.record.original();
  if (!before.getString("checkedOutAt") && e.record.getString("checkedOutAt"))
    e.record.set("checkedOutBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
  e.next();
}, "checkins");

onRecordCreate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const lib = require(`${__hooks}/lib/checkin.js`);
    lib.admitCheckin(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("session"), e.record.getString("room"));
  });
}, "checkins");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const lib = require(`${__hooks}/lib/checkin.js`);
    lib.reviseCheckin(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("session"), e.record.getString("room"));
  });
}, "checkins");

onRecordDelete((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    require(`${__hooks}/lib/checkin.js`).recount(
      app,
      e.record.getString("session"),
      e.record.getString("room"),
    );
  });
}, "checkins");

// A session's window follows its start; each of its rooms has its numbers from the start (zeros), so
// a reader allowed the counts always finds one row per open room.
onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/checkin.js`);
  lib.deriveSession(e.record);
  e.next();
  for (const room of e.record.getStringSlice("rooms")) lib.recount(e.app, e.record.id, room);
}, "checkin_sessions");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/checkin.js`);
  lib.deriveSession(e.record);
  e.next();
  for (const room of e.record.getStringSlice("rooms")) lib.recount(e.app, e.record.id, room);
}, "checkin_sessions");
