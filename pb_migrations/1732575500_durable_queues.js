/// <reference path="../pb_data/types.d.ts" />
// Durable queues claimed atomically (issue 23 items 5 and 7). Several gateway processes may serve one
// church (docs SCALE.md), so a row is taken by one of them through POST /api/flock/queues/claim
// (pb_hooks/queues.pb.js): one serialized write stamps `claim` (the taker's id) and `claimedUntil` (a
// lease: a taker that dies mid-send loses the row to the next one after it).
// - webhook_deliveries: the claim fields; a webhook's deliveries go one at a time (order per receiver).
// - mail_outbox: every mail the app sends from an event, written before it is sent (or, for a waitlist
//   promotion, inside the registration's own save by pb_hooks/lib/events.js), sent once by the
//   gateway's outbox job, retried with backoff. The system's alone: no rule opens it (names and
//   addresses of visitors, cancel links).
migrate(
  (app) => {
    const deliveries = app.findCollectionByNameOrId("webhook_deliveries");
    deliveries.fields.add(new TextField({ name: "claim", max: 40 }));
    deliveries.fields.add(new DateField({ name: "claimedUntil" }));
    deliveries.addIndex("idx_webhook_deliveries_claimed", false, "status, claimedUntil", "");
    app.save(deliveries);

    const registrations = app.findCollectionByNameOrId("registrations");
    const outbox = new Collection({
      type: "base",
      name: "mail_outbox",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "kind",
          type: "select",
          required: true,
          maxSelect: 1,
          values: [
            "event.registered",
            "event.rsvp",
            "event.moved",
            "event.cancelled",
            "event.cancelled_by_staff",
            "event.promoted",
          ],
        },
        // The composed message ({message: MailMessage, churchName}); empty for a promotion, which the
        // outbox job writes from its registration when it sends.
        { name: "message", type: "json", maxSize: 200000 },
        // The registration a promotion mail is about (cleared if the registration is deleted).
        { name: "registration", type: "relation", collectionId: registrations.id, maxSelect: 1 },
        // The same mail is queued once (a promotion: "event.promoted:<registration>:<promotedAt>").
        { name: "dedupeKey", type: "text", max: 200 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "sent", "failed"],
        },
        { name: "attempts", type: "number", onlyInt: true, min: 0 },
        { name: "nextAttemptAt", type: "date" },
        { name: "claim", type: "text", max: 40 },
        { name: "claimedUntil", type: "date" },
        { name: "sentAt", type: "date" },
        { name: "error", type: "text", max: 500 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: [
        "CREATE INDEX idx_mail_outbox_due ON mail_outbox (status, nextAttemptAt)",
        "CREATE UNIQUE INDEX idx_mail_outbox_dedupe ON mail_outbox (dedupeKey) WHERE dedupeKey != ''",
      ],
    });
    app.save(outbox);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("mail_outbox"));
    const deliveries = app.findCollectionByNameOrId("webhook_deliveries");
    deliveries.removeIndex("idx_webhook_deliveries_claimed");
    deliveries.fields.removeByName("claim");
    deliveries.fields.removeByName("claimedUntil");
    app.save(deliveries);
  },
);
