/// <reference path="../pb_data/types.d.ts" />
// Keeps the derived people/household fields correct on every write path (see lib/people.js).
// Model hooks (not request hooks): they also run for saves made by the gateway's system jobs and
// the seed, and the work after e.next() joins the same transaction.

onRecordCreate((e) => {
  const lib = require(`${__hooks}/lib/people.js`);
  lib.derivePerson(e.app, e.record);
  e.next();
  lib.refreshHousehold(e.app, e.record.getString("household"));
}, "people");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/people.js`);
  const householdBefore = e.record.original().getString("household");
  lib.derivePerson(e.app, e.record);
  e.next();
  lib.refreshHousehold(e.app, householdBefore);
  if (e.record.getString("household") !== householdBefore)
    lib.refreshHousehold(e.app, e.record.getString("household"));
}, "people");

onRecordCreate((e) => {
  e.record.set("inDirectory", false); // no people yet
  e.next();
}, "households");

onRecordUpdate((e) => {
  const lib = require(`${__hooks}/lib/people.js`);
  const optOutBefore = e.record.original().getBool("directoryOptOut");
  e.record.set("inDirectory", lib.householdInDirectory(e.app, e.record));
  e.next();
  if (optOutBefore !== e.record.getBool("directoryOptOut")) {
    // Opting the household in or out changes whether each of its people is listed.
    const people = e.app.findRecordsByFilter("people", "household = {:h}", "", 0, 0, { h: e.record.id });
    for (const person of people) lib.resavePerson(e.app, person.id);
    lib.refreshHousehold(e.app, e.record.id);
  }
}, "households");

for (const hook of [onRecordCreate, onRecordUpdate, onRecordDelete]) {
  hook((e) => {
    const lib = require(`${__hooks}/lib/people.js`);
    e.next();
    const personId = e.record.getString("person");
    lib.syncBirthday(e.app, personId);
    lib.resavePerson(e.app, personId);
  }, "person_private");
}

// A child turning 13 leaves "child" on their birthday, without anyone editing the record.
cronAdd("flock_age_groups", "17 3 * * *", () => {
  require(`${__hooks}/lib/people.js`).refreshAgeGroups($app);
});
