/// <reference path="../pb_data/types.d.ts" />
// occurrence_counts.version: one more on every recount (pb_hooks/lib/events.js#recount). PocketBase
// sends each realtime change from a goroutine of its own (apis/realtime.go: routine.FireAndForget per
// message), so two recounts of one date in one write (a cancellation that frees seats, then the
// promotion it causes) can reach a subscriber in either order, and "Seats left: 2" arrived after
// "Seats left: 1" and stayed (an e2e run saw it). The live seats subscription drops a change older
// than one it has already passed on.

migrate(
  (app) => {
    const counts = app.findCollectionByNameOrId("occurrence_counts");
    counts.fields.add(new NumberField({ name: "version", onlyInt: true, min: 0 }));
    app.save(counts);
  },
  (app) => {
    const counts = app.findCollectionByNameOrId("occurrence_counts");
    counts.fields.removeByName("version");
    app.save(counts);
  },
);
