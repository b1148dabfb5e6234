/// <reference path="../pb_data/types.d.ts" />
// Group memberships (issue 15): capacity is decided, and groups.memberCount and each person's
// group_access row kept, inside each write's transaction (see lib/groups.js), whatever path writes
// (gateway, REST, seed).

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    lib.admit(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("group"));
    lib.refreshGroupAccess(app, e.record.getString("group"));
  });
}, "group_members");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const before = e.record.original();
    if (before.getString("status") !== "active") lib.admit(app, e.record);
    e.next();
    lib.recount(app, e.record.getString("group"));
    if (before.getString("group") !== e.record.getString("group"))
      lib.recount(app, before.getString("group"));
    // Who sees whom changes with status, role, group or person (not with a read marker).
    if (
      ["status", "role", "group", "person"].some(
        (field) => before.getString(field) !== e.record.getString(field),
      )
    ) {
      lib.refreshGroupAccess(app, e.record.getString("group"));
      if (before.getString("group") !== e.record.getString("group"))
        lib.refreshGroupAccess(app, before.getString("group"));
      if (before.getString("person") !== e.record.getString("person"))
        lib.refreshAccess(app, before.getString("person"));
    }
  });
}, "group_members");

onRecordDelete((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    lib.recount(app, e.record.getString("group"));
    lib.refreshGroupAccess(app, e.record.getString("group"));
    lib.refreshAccess(app, e.record.getString("person"));
  });
}, "group_members");

// A join request changes who sees its person: the group's leaders (group_access.requestViewers).
onRecordCreate((e) => require(`${__hooks}/lib/groups.js`).afterJoinRequestWrite(e), "group_join_requests");
onRecordUpdate((e) => require(`${__hooks}/lib/groups.js`).afterJoinRequestWrite(e), "group_join_requests");
onRecordDelete((e) => require(`${__hooks}/lib/groups.js`).afterJoinRequestWrite(e), "group_join_requests");

// memberCount is derived: whatever a caller writes into it, the count of active members stands.
onRecordCreate((e) => {
  e.record.set("memberCount", 0);
  e.record.set("leaderNames", []);
  e.next();
}, "groups");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/groups.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const before = e.record.original();
    e.record.set("memberCount", lib.activeMembers(app, e.record.id));
    e.record.set("leaderNames", lib.leaderNames(app, e.record.id));
    e.next();
    // Archiving a group, or opening or closing its roster, changes who sees its members.
    if (
      before.getString("status") !== e.record.getString("status") ||
      before.getString("rosterVisibility") !== e.record.getString("rosterVisibility")
    ) {
      lib.refreshGroupAccess(app, e.record.id);
    }
  });
}, "groups");

// groups.leaderNames copies the leaders' names: a leader renamed is renamed on every group they lead.
onRecordUpdate((e) => {
  const before = e.record.original();
  if (
    !["firstName", "preferredName", "lastName"].some(
      (field) => before.getString(field) !== e.record.getString(field),
    )
  ) {
    e.next();
    return;
  }
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    require(`${__hooks}/lib/groups.js`).recountLedBy(app, e.record.id);
  });
}, "people");
