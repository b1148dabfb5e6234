/// <reference path="../pb_data/types.d.ts" />
// Serving (issue 27), decided inside each write's transaction whatever path writes: who may be asked,
// places left and answers (lib/serving.js), and the lists the read rules test — a team's leaders, a
// position's fillers, a plan's people asked (lib/serving-access.js) — kept with the rows they follow.

// (Handlers run in their own runtime: each requires what it uses; nothing outside them is in scope.)

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/serving.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    lib.admitRequest(app, e.record);
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncPlan(app, e.record.getString("plan"));
  });
}, "serving_requests");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/serving.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    lib.reviseRequest(app, e.record);
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncPlan(app, e.record.getString("plan"));
  });
}, "serving_requests");

onRecordDelete((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncPlan(app, e.record.getString("plan"));
  });
}, "serving_requests");

// A roster row's name follows its person on every write path; its team's lists follow the roster.
onRecordCreate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/serving.js`).nameMember(app, e.record);
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncTeam(app, e.record.getString("team"));
  });
}, "serving_members");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const before = e.record.original().getString("team");
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncTeam(app, e.record.getString("team"));
    if (before !== e.record.getString("team"))
      require(`${__hooks}/lib/serving-access.js`).syncTeam(app, before);
  });
}, "serving_members");

onRecordDelete((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    require(`${__hooks}/lib/serving-access.js`).syncTeam(app, e.record.getString("team"));
  });
}, "serving_members");

// The lists are the hooks' alone: whatever a write of a team, position or plan says, they are
// computed again from the rows they follow.
onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncTeam(e.app, e.record.getString("team"));
}, "serving_positions");

onRecordUpdate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncTeam(e.app, e.record.getString("team"));
}, "serving_positions");

onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncTeam(e.app, e.record.id);
}, "serving_teams");

onRecordUpdate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncTeam(e.app, e.record.id);
}, "serving_teams");

onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncPlan(e.app, e.record.id);
}, "serving_plans");

onRecordUpdate((e) => {
  e.next();
  require(`${__hooks}/lib/serving-access.js`).syncPlan(e.app, e.record.id);
}, "serving_plans");
