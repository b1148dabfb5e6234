/// <reference path="../pb_data/types.d.ts" />
// Online giving through a payment provider (issue 29). The gateway's provider adapter (gateway/src/payments/)
// sends a donor to the provider's hosted checkout; the provider's signed webhooks tell the gateway what was
// paid, and the gateway records it as the system (there is no caller).
//
// - recurring_gifts: a member's gift repeated by the provider (a subscription), monthly or weekly. The member
//   reads their own; finance (giving.view, giving.manage) reads all. Nobody writes through the API: pausing,
//   resuming and cancelling must reach the provider first (or the card goes on being charged), so the
//   gateway's mutations ask the provider and then write the new status as the system; the provider's own
//   events (a payment failed, a subscription cancelled at the provider) are written the same way.
// - giving_provider_events: the provider's event ids already handled, unique: a redelivered event (the
//   provider retries until it hears 2xx, and may deliver twice at once) writes nothing new. The system's alone.
// - The webhook event gift.recurring_failed (pb_hooks/lib/webhooks.js): a recurring gift's payment failed
//   (its id only).
// Limits mirror shared/src/limits-features.ts (GIVING_LIMITS).

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const VIEW = `(${has("giving.view")} || ${has("giving.manage")})`;
const USER = '@request.auth.collectionName = "users"';
const OWN = `(${USER} && @request.auth.person != "" && person = @request.auth.person)`;
/** GIVING_LIMITS.onlineGiftCentsMax: the most one card payment may be (the provider's own limit). */
const ONLINE_CENTS_MAX = 99_999_999;
const EVENTS = ["gift.recurring_failed"];
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];

/** Add (or remove) this migration's events on the webhooks' select fields. */
function webhookEvents(app, add) {
  for (const [name, field] of [
    ["webhooks", "events"],
    ["webhook_deliveries", "type"],
  ]) {
    const collection = app.findCollectionByNameOrId(name);
    const select = collection.fields.getByName(field);
    select.values = add
      ? [...select.values, ...EVENTS]
      : select.values.filter((value) => !EVENTS.includes(value));
    if (field === "events") select.maxSelect = select.values.length;
    app.save(collection);
  }
}

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");
    const funds = app.findCollectionByNameOrId("funds");

    const recurring = new Collection({
      type: "base",
      name: "recurring_gifts",
      listRule: `${OWN} || ${VIEW}`,
      viewRule: `${OWN} || ${VIEW}`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        // Recurring gifts need a signed-in member: who else could pause or cancel one?
        { name: "person", type: "relation", required: true, collectionId: people.id, maxSelect: 1 },
        { name: "fund", type: "relation", required: true, collectionId: funds.id, maxSelect: 1 },
        // What is charged each time (the gift, with the fee when the donor covers it), in cents.
        { name: "amountCents", type: "number", required: true, onlyInt: true, min: 1, max: ONLINE_CENTS_MAX },
        // Of it, the provider's fee the donor chose to cover (0 when they did not).
        { name: "coveredFeeCents", type: "number", onlyInt: true, min: 0, max: ONLINE_CENTS_MAX },
        { name: "currency", type: "text", max: 3 },
        { name: "interval", type: "select", required: true, maxSelect: 1, values: ["monthly", "weekly"] },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["active", "paused", "cancelled"],
        },
        // The provider's id of the subscription.
        { name: "providerRef", type: "text", required: true, max: 120 },
        // The last payment that failed, and how many failed since the last that succeeded.
        { name: "lastFailedAt", type: "date" },
        { name: "failures", type: "number", onlyInt: true, min: 0 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_recurring_gifts_provider ON recurring_gifts (providerRef)",
        "CREATE INDEX idx_recurring_gifts_person ON recurring_gifts (person, created)",
      ],
    });
    app.save(recurring);

    const events = new Collection({
      type: "base",
      name: "giving_provider_events",
      // No rules: only the system reads and writes them.
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "eventId", type: "text", required: true, max: 255 },
        { name: "type", type: "text", max: 100 },
        // processing: taken by a delivery being handled now; done: handled (a redelivery writes nothing).
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["processing", "done"] },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_giving_provider_events_event ON giving_provider_events (eventId)"],
    });
    app.save(events);

    webhookEvents(app, true);
  },
  (app) => {
    webhookEvents(app, false);
    for (const name of ["giving_provider_events", "recurring_gifts"])
      app.delete(app.findCollectionByNameOrId(name));
  },
);
