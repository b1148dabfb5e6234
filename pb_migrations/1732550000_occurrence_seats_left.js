/// <reference path="../pb_data/types.d.ts" />
// Seats left per occurrence are decided by the events hook (pb_hooks/lib/events.js#seatsLeft) and kept
// in occurrence_counts beside the seats taken, so the gateway reads them (Occurrence.seatsLeft, the live
// occurrenceSeats subscription) instead of working them out again. The hook recounts a date on every
// registration write and every date of an event whose capacity changes. Rows counted before this
// migration get the same value once, here: capacity minus the seats taken, never below 0; 0 when the
// event has no capacity.

migrate(
  (app) => {
    const counts = app.findCollectionByNameOrId("occurrence_counts");
    counts.fields.add(new NumberField({ name: "seatsLeft", onlyInt: true, min: 0 }));
    app.save(counts);
    app
      .db()
      .newQuery(
        "UPDATE occurrence_counts SET seatsLeft = COALESCE((SELECT CASE WHEN events.capacity > 0 THEN MAX(0, events.capacity - occurrence_counts.confirmed) ELSE 0 END FROM events WHERE events.id = occurrence_counts.event), 0)",
      )
      .execute();
  },
  (app) => {
    const counts = app.findCollectionByNameOrId("occurrence_counts");
    counts.fields.removeByName("seatsLeft");
    app.save(counts);
  },
);
