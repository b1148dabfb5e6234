/// <reference path="../pb_data/types.d.ts" />
// Webhook events (see lib/webhooks.js): queued inside the save that causes them, for every write path.
// (PocketBase runs each handler in its own context: each one requires the library itself.)

onRecordCreate(
  (e) => {
    e.next();
    const lib = require(`${__hooks}/lib/webhooks.js`);
    lib.enqueue(e.app, lib.eventsOf(e.record.collection().name, null, e.record));
  },
  "posts",
  "pages",
  "sermons",
  "events",
  "prayer_requests",
  "people",
  "visit_requests",
  "serving_requests",
  "checkins",
  "donations",
  "recurring_gifts",
);

onRecordUpdate(
  (e) => {
    const before = e.record.original();
    e.next();
    const lib = require(`${__hooks}/lib/webhooks.js`);
    lib.enqueue(e.app, lib.eventsOf(e.record.collection().name, before, e.record));
  },
  "posts",
  "pages",
  "sermons",
  "events",
  "prayer_requests",
  "people",
  "visit_requests",
  "serving_requests",
  "checkins",
  "recurring_gifts",
);
