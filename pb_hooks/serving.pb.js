/// <reference path="../pb_data/types.d.ts" />
// Requests to serve (issue 27): who may be asked, places left and answers are decided inside each
// write's transaction (lib/serving.js), whatever path writes.

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/serving.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    lib.admitRequest(app, e.record);
    e.next();
  });
}, "serving_requests");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/serving.js`);
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    lib.reviseRequest(app, e.record);
    e.next();
  });
}, "serving_requests");

// A roster row's name follows its person on every write path.
onRecordCreate((e) => {
  require(`${__hooks}/lib/serving.js`).nameMember(e.app, e.record);
  e.next();
}, "serving_members");
