/// <reference path="../pb_data/types.d.ts" />
// Feed identifiers are set once (migration 1732580000): a podcast's guid and an event's iCalendar UID,
// once stored, stay what they are on every write path (the API, staff's edits, the system account), so
// podcast apps and calendars never see the same podcast or event as a new one. (Each handler names its
// field itself: PocketBase runs handlers apart from this file's other variables.)

onRecordUpdate((e) => {
  require(`${__hooks}/lib/set-once.js`).keep(e.record, "podcastGuid");
  e.next();
}, "settings");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/set-once.js`).keep(e.record, "podcastGuid");
  e.next();
}, "sermon_series");

onRecordUpdate((e) => {
  require(`${__hooks}/lib/set-once.js`).keep(e.record, "icalUid");
  e.next();
}, "events");
