/// <reference path="../pb_data/types.d.ts" />
// Identifiers that feed readers key on, stored so a change of domain does not change them (issue 23,
// item 10): the podcast's `podcast:guid` (settings.podcastGuid for /feeds/sermons.xml,
// sermon_series.podcastGuid for each series' feed) and each event's iCalendar UID (events.icalUid).
// They were computed from the public URL on every request, so moving the church to a new domain made
// every podcast app and calendar see new podcasts and new events. The gateway fills an empty one the
// first time it writes the feed, from the address it has published until now (the same value as
// before), and pb_hooks/feed-identifiers.pb.js keeps a stored one from changing.

const FIELDS = [
  ["settings", "podcastGuid", 36],
  ["sermon_series", "podcastGuid", 36],
  ["events", "icalUid", 255],
];

migrate(
  (app) => {
    for (const [name, field, max] of FIELDS) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.add(new TextField({ name: field, max }));
      app.save(collection);
    }
  },
  (app) => {
    for (const [name, field] of FIELDS) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.removeByName(field);
      app.save(collection);
    }
  },
);
