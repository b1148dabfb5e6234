/// <reference path="../pb_data/types.d.ts" />
// Giving (issue 29), decided inside each write's transaction whatever path writes (lib/giving.js): a
// gift's splits, funds and batch; its giving unit, currency and who entered it; a batch's totals, its
// closing and reopening.

// (Handlers run in their own runtime: each requires what it uses; nothing outside them is in scope.)

// Who entered a gift or a batch, closed or reopened one, is the signed-in caller, never the request.
onRecordCreateRequest(
  (e) => {
    e.record.set("createdBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
    e.next();
  },
  "donations",
  "donation_batches",
);

// A closed batch's gifts are locked for everyone but the system (which re-points a donor when two
// people records are merged; the model hook below allows nothing else).
onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth())
    require(`${__hooks}/lib/giving.js`).requireOpenBatch(e.app, e.record.original().getString("batch"));
  e.next();
}, "donations");

onRecordCreate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const lib = require(`${__hooks}/lib/giving.js`);
    lib.admitGift(app, e.record);
    e.next();
    lib.writeSplits(app, e.record);
    lib.recount(app, e.record.getString("batch"));
  });
}, "donations");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const lib = require(`${__hooks}/lib/giving.js`);
    const before = e.record.original().getString("batch");
    lib.reviseGift(app, e.record);
    e.next();
    lib.writeSplits(app, e.record);
    lib.recount(app, e.record.getString("batch"));
    if (before !== e.record.getString("batch")) lib.recount(app, before);
  });
}, "donations");

onRecordDelete((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    const lib = require(`${__hooks}/lib/giving.js`);
    const batch = e.record.getString("batch");
    if (batch && app.findRecordById("donation_batches", batch).getString("status") === "closed")
      throw new BadRequestError("This batch is closed: its gifts can no longer change. Reopen it first.", {
        batch: new ValidationError("validation_batch_closed", "This batch is closed."),
      });
    e.next();
    lib.recount(app, batch);
  });
}, "donations");

onRecordCreate((e) => {
  require(`${__hooks}/lib/giving.js`).admitBatch(e.record);
  e.next();
}, "donation_batches");

// The caller is known only in the request hook; the decision is made in the transaction below.
onRecordUpdateRequest((e) => {
  e.record.set("closedBy", e.auth && e.auth.collection().name === "users" ? e.auth.id : "");
  e.next();
}, "donation_batches");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/giving.js`).reviseBatch(app, e.record, e.record.getString("closedBy"));
    e.next();
  });
}, "donation_batches");

onRecordDelete((e) => {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    require(`${__hooks}/lib/giving.js`).removableBatch(app, e.record);
    e.next();
  });
}, "donation_batches");
