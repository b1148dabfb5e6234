/// <reference path="../pb_data/types.d.ts" />
// Group memberships (issue 15): capacity is decided, and groups.memberCount kept, inside each write's
// transaction (see lib/groups.js), whatever path writes (gateway, REST, seed).

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/events.js`).inTransaction(e, (app) => {
    lib.admit(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("group"));
  });
}, "group_members");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/events.js`).inTransaction(e, (app) => {
    const before = e.record.original();
    if (before.getString("status") !== "active") lib.admit(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("group"));
    if (before.getString("group") !== e.record.getString("group")) lib.recount(app, before.getString("group"));
  });
}, "group_members");

onRecordDelete((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/events.js`).inTransaction(e, (app) => {
    e.next();
    lib.recount(app, e.record.getString("group"));
  });
}, "group_members");

// memberCount is derived: whatever a caller writes into it, the count of active members stands.
onRecordCreate((e) => {
  e.record.set("memberCount", 0);
  e.record.set("leaderNames", []);
  e.next();
}, "groups");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  e.record.set("memberCount", lib.activeMembers(e.app, e.record.id));
  e.record.set("leaderNames", lib.leaderNames(e.app, e.record.id));
  e.next();
}, "groups");
