/// <reference path="../../pb_data/types.d.ts" />
// Derived fields of people and households, kept here so that every write path (GraphQL, PocketBase's
// REST API, the admin UI, the seed) agrees, and the API rules can trust them:
//   people.ageGroup     adult (18+), youth (13–17), child (under 13) from person_private.birthDate;
//                       without a birth date, a household "child" counts as a child, anyone else as adult
//   people.inDirectory  active, member or regular attender, not a child, has a household, and neither
//                       the person nor the household opted out
//   households.inDirectory  not opted out and at least one of its people is in the directory
// Handlers run in their own JS context, so each one `require`s this module.

const CHILD_UNTIL = 13;
const ADULT_FROM = 18;

/** Whole years between a YYYY-MM-DD birth date and today (UTC); null when unknown. */
function ageOn(birthDate, today) {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate || "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

function ageGroupOf(birthDate, householdRole, today) {
  const age = ageOn(birthDate, today || new Date());
  if (age === null) return householdRole === "child" ? "child" : "adult";
  if (age < CHILD_UNTIL) return "child";
  if (age < ADULT_FROM) return "youth";
  return "adult";
}

function findOne(app, collection, field, value) {
  if (!value) return null;
  try {
    return app.findFirstRecordByData(collection, field, value);
  } catch (_) {
    return null;
  }
}

function findById(app, collection, id) {
  if (!id) return null;
  try {
    return app.findRecordById(collection, id);
  } catch (_) {
    return null;
  }
}

/** Sets ageGroup and inDirectory on a person about to be saved. */
function derivePerson(app, person) {
  const priv = person.id ? findOne(app, "person_private", "person", person.id) : null;
  const ageGroup = ageGroupOf(priv ? priv.getString("birthDate") : "", person.getString("householdRole"));
  person.set("ageGroup", ageGroup);
  const household = findById(app, "households", person.getString("household"));
  const inDirectory =
    person.getString("recordStatus") === "active" &&
    ["member", "regular_attender"].indexOf(person.getString("membershipStatus")) >= 0 &&
    ageGroup !== "child" &&
    !person.getBool("directoryOptOut") &&
    household !== null &&
    !household.getBool("directoryOptOut");
  person.set("inDirectory", inDirectory);
}

function householdInDirectory(app, household) {
  if (household.getBool("directoryOptOut") || !household.id) return false;
  const listed = app.findRecordsByFilter("people", "household = {:h} && inDirectory = true", "", 1, 0, {
    h: household.id,
  });
  return listed.length > 0;
}

/** Recomputes a household's inDirectory after one of its people changed. */
function refreshHousehold(app, householdId) {
  const household = findById(app, "households", householdId);
  if (!household) return;
  const value = householdInDirectory(app, household);
  if (household.getBool("inDirectory") !== value) {
    household.set("inDirectory", value);
    app.save(household);
  }
}

/** Re-derives a person (after their birth date or their household's opt-out changed). */
function resavePerson(app, personId) {
  const person = findById(app, "people", personId);
  if (!person) return;
  const before = [person.getString("ageGroup"), person.getBool("inDirectory")];
  derivePerson(app, person);
  if (before[0] !== person.getString("ageGroup") || before[1] !== person.getBool("inDirectory"))
    app.save(person);
}

/** Keeps person_birthdays (month and day, with its own visibility) in step with the birth date. */
function syncBirthday(app, personId) {
  const priv = findOne(app, "person_private", "person", personId);
  const m = /^\d{4}-(\d{2})-(\d{2})/.exec(priv ? priv.getString("birthDate") : "");
  const row = findOne(app, "person_birthdays", "person", personId);
  if (!m) {
    if (row) app.delete(row);
    return;
  }
  const target = row || new Record(app.findCollectionByNameOrId("person_birthdays"));
  if (!row) {
    const settings = app.findFirstRecordByFilter("settings", "id != ''");
    target.set("person", personId);
    target.set("visibility", (settings && settings.getString("directoryDefaultVisibility")) || "private");
  }
  target.set("month", Number(m[1]));
  target.set("day", Number(m[2]));
  app.save(target);
}

/** Daily: people whose age group changed since their last save (a child turning 13, …). */
function refreshAgeGroups(app) {
  const rows = app.findRecordsByFilter("person_private", "birthDate != ''", "", 0, 0);
  for (const row of rows) resavePerson(app, row.getString("person"));
}

module.exports = {
  ageOn,
  ageGroupOf,
  derivePerson,
  refreshHousehold,
  resavePerson,
  syncBirthday,
  refreshAgeGroups,
  householdInDirectory,
};
