/// <reference path="../pb_data/types.d.ts" />
// Webhooks (issue 16): staff with api.manage subscribe a URL to events; each event becomes one
// `webhook_deliveries` row per subscribed webhook, written by pb_hooks/webhooks.pb.js in the same
// save that caused it (so no event is lost), and delivered by the gateway's delivery job, which signs
// it (Standard Webhooks), retries with backoff and records every attempt. The queue is the table: a
// restart loses nothing.
// - `secret` (whsec_…) is hidden: no API returns it; the gateway (as the system) sets and reads it.
// - Deliveries are written by the hooks and the system; managers read them (the delivery log) and may
//   queue one again (redeliver).
const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGER = has("api.manage");
const EVENTS = [
  "post.published",
  "post.updated",
  "page.published",
  "sermon.published",
  "event.published",
  "prayer.approved",
  "prayer.answered",
  "person.created",
  "visit.created",
];

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const webhooks = new Collection({
      type: "base",
      name: "webhooks",
      listRule: MANAGER,
      viewRule: MANAGER,
      createRule: `${MANAGER} && @request.body.createdBy = @request.auth.id`,
      // Turning a webhook back on may reset its failure count; nothing else about it is the caller's to set.
      updateRule: `${MANAGER} && @request.body.createdBy:isset = false && (@request.body.consecutiveFailures:isset = false || @request.body.consecutiveFailures = 0)`,
      deleteRule: MANAGER,
      fields: [
        { name: "url", type: "url", required: true },
        { name: "description", type: "text", max: 200 }, // LIMITS.webhookDescriptionMax
        { name: "events", type: "select", required: true, maxSelect: EVENTS.length, values: EVENTS },
        { name: "secret", type: "text", max: 100, hidden: true },
        // An administrator's explicit choice to deliver to a private or loopback address (SSRF guard).
        { name: "allowPrivateHost", type: "bool" },
        { name: "enabled", type: "bool" },
        { name: "disabledReason", type: "text", max: 500 },
        // Deliveries in a row that used up their retries; at 3 the webhook is disabled.
        { name: "consecutiveFailures", type: "number", onlyInt: true, min: 0 },
        { name: "createdBy", type: "relation", collectionId: users.id, maxSelect: 1, required: true },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_webhooks_created ON webhooks (created DESC, id DESC)"],
    });
    app.save(webhooks);

    const deliveries = new Collection({
      type: "base",
      name: "webhook_deliveries",
      listRule: MANAGER,
      viewRule: MANAGER,
      createRule: null,
      // Managers may only queue a delivery again ("redeliver"): back to pending, nothing else changed.
      updateRule: `${MANAGER} && @request.body.status = "pending" && @request.body.webhook:isset = false && @request.body.type:isset = false && @request.body.payload:isset = false`,
      deleteRule: null,
      fields: [
        {
          name: "webhook",
          type: "relation",
          collectionId: webhooks.id,
          maxSelect: 1,
          required: true,
          cascadeDelete: true,
        },
        { name: "type", type: "select", required: true, maxSelect: 1, values: EVENTS },
        // The event's data (ids, titles and site paths; nothing private): what every attempt sends.
        { name: "payload", type: "json", maxSize: 20000 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "succeeded", "failed"],
        },
        { name: "attempts", type: "number", onlyInt: true, min: 0 },
        { name: "nextAttemptAt", type: "date" },
        { name: "lastAttemptAt", type: "date" },
        { name: "responseStatus", type: "number", onlyInt: true },
        { name: "error", type: "text", max: 500 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: [
        // The delivery job's scan: pending rows due first.
        "CREATE INDEX idx_webhook_deliveries_due ON webhook_deliveries (status, nextAttemptAt)",
        "CREATE INDEX idx_webhook_deliveries_log ON webhook_deliveries (webhook, created DESC, id DESC)",
      ],
    });
    app.save(deliveries);

    // Managers hear when a webhook is disabled after repeated failures.
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, "webhook_disabled"];
    app.save(notifications);
  },
  (app) => {
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter((value) => value !== "webhook_disabled");
    app.save(notifications);
    app.delete(app.findCollectionByNameOrId("webhook_deliveries"));
    app.delete(app.findCollectionByNameOrId("webhooks"));
  },
);
