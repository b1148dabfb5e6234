/// <reference path="../pb_data/types.d.ts" />
// Child check-in (issue 28), decided inside each write's transaction whatever path writes (lib/checkin.js):
// the window, the room's capacity and ratio, the pickup code, checkout only with the code or a reason.

// (Handlers run in their own runtime: each requires what it uses; nothing outside them is in scope.)

// Who checked in and out is the signed-in caller, never what a request says.
onRecordCreateRequest((e) => {
  e.record.set("checkedInBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
  e.next();
}, "checkins");

onRecordUpdateRequest((e) => {
  const before = e.record.original();
  if (!before.getString("checkedOutAt") && e.record.getString("checkedOutAt"))
    e.record.set("checkedOutBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
  e.next();
}, "checkins");

onRecordCreate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/checkin.js`).admitCheckin(app, e.record);
    e.next();
  });
}, "checkins");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/checkin.js`).reviseCheckin(app, e.record);
    e.next();
  });
}, "checkins");

// A session's window follows its start on every write path.
onRecordCreate((e) => {
  require(`${__hooks}/lib/checkin.js`).deriveSession(e.record);
  e.next();
}, "checkin_sessions");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/checkin.js`).deriveSession(e.record);
  e.next();
}, "checkin_sessions");
