/// <reference path="../pb_data/types.d.ts" />
// Giving (issue 29), the records a treasurer trusts: funds; batches of counted cash and cheques (a control
// total and count entered first, closed only when the gifts match them, locked once closed, reopened only
// with a reason); gifts in integer cents with the church's currency, split across funds, from a person
// whose household is the giving unit unless they give individually (or from nobody: an anonymous gift).
// Limits mirror shared/src/limits.ts.
//
// Finance is always separate. Three permissions, in no role but the new Treasurer's: giving.view_summary
// (totals per fund and day, never a donor: donation_splits), giving.view (every gift and batch) and
// giving.manage (keeps them). Pastors and administrators see no gift unless given one of them. A member
// reads their own gifts and, as an active adult, their household's.
//
// Decided inside the write (pb_hooks/giving.pb.js): a gift's splits sum to it and name open funds, its
// batch is open (before and after the change), its giving unit, currency and who entered it; a batch's
// totals follow its gifts; it closes only when they match its control figures and reopens only with a
// reason, each once however many treasurers press at the same moment; a batch with gifts is not removed.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGE = has("giving.manage");
const VIEW = `(${has("giving.view")} || ${MANAGE})`;
const SUMMARY = `(${has("giving.view_summary")} || ${VIEW})`;
const USER = '@request.auth.collectionName = "users"';
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const ADULT = '@request.auth.person.ageGroup = "adult"';
const notSet = (fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(" && ");
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const PERMISSIONS = ["giving.view_summary", "giving.view", "giving.manage"];
/** Batch fields only the hook writes. */
const BATCH_HOOK = ["totalCents", "count", "closedAt", "closedBy", "reopenedAt", "reopenedBy", "createdBy"];
/** Gift fields only the hook writes. */
const GIFT_HOOK = ["givingUnit", "currency", "createdBy"];
const CENTS_MAX = 100_000_000_00;
/** Webhook events (pb_hooks/lib/webhooks.js): the gift's id only, never a donor or an amount. */
const GIVING_EVENTS = ["gift.received"];
/** Add (or remove) the giving events on the webhooks' select fields. */
function webhookEvents(app, add) {
  for (const [name, field] of [
    ["webhooks", "events"],
    ["webhook_deliveries", "type"],
  ]) {
    const collection = app.findCollectionByNameOrId(name);
    const select = collection.fields.getByName(field);
    select.values = add
      ? [...select.values, ...GIVING_EVENTS]
      : select.values.filter((value) => !GIVING_EVENTS.includes(value));
    if (field === "events") select.maxSelect = select.values.length;
    app.save(collection);
  }
} // LIMITS.donationCentsMax: 100 million in the currency's unit

migrate(
  (app) => {
    const roles = app.findCollectionByNameOrId("roles");
    const permissions = roles.fields.getByName("permissions");
    permissions.values = [...permissions.values, ...PERMISSIONS];
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
    const treasurer = new Record(roles);
    treasurer.load({
      name: "Treasurer",
      description: "Keeps the giving records: funds, batches, gifts and statements.",
      permissions: PERMISSIONS,
    });
    app.save(treasurer);

    const settings = app.findCollectionByNameOrId("settings");
    // ISO 4217: the currency every gift is kept in (integer cents of it).
    settings.fields.add(new TextField({ name: "currency", max: 3, pattern: "^([A-Z]{3})?$" }));
    app.save(settings);
    for (const row of app.findAllRecords("settings")) {
      if (!row.getString("currency")) {
        row.set("currency", "USD");
        app.save(row);
      }
    }

    const people = app.findCollectionByNameOrId("people");
    const households = app.findCollectionByNameOrId("households");
    const users = app.findCollectionByNameOrId("users");

    const funds = new Collection({
      type: "base",
      name: "funds",
      // Public funds are offered on /give to anyone; finance sees them all.
      listRule: `visibility = "public" || ${SUMMARY}`,
      viewRule: `visibility = "public" || ${SUMMARY}`,
      createRule: MANAGE,
      updateRule: MANAGE,
      // Never removed: a fund with gifts is closed instead (the records keep their fund).
      deleteRule: null,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 80 },
        { name: "description", type: "text", max: 500 },
        { name: "deductible", type: "bool" },
        // public: offered for online gifts; hidden: gifts entered by staff only; closed: no new gifts.
        {
          name: "visibility",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["public", "hidden", "closed"],
        },
        { name: "sort", type: "number", onlyInt: true, min: 0, max: 10000 },
        ...timestamps(),
      ],
    });
    app.save(funds);

    const batches = new Collection({
      type: "base",
      name: "donation_batches",
      listRule: VIEW,
      viewRule: VIEW,
      createRule: `${MANAGE} && ${notSet([...BATCH_HOOK, "status", "reopenReason"])}`,
      updateRule: `${MANAGE} && ${notSet(BATCH_HOOK)}`,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 80 },
        { name: "depositDate", type: "date", required: true },
        // Counted before the gifts are keyed in: the batch closes only when the gifts match them.
        { name: "controlTotalCents", type: "number", onlyInt: true, min: 0, max: CENTS_MAX },
        { name: "controlCount", type: "number", onlyInt: true, min: 0, max: 10000 },
        { name: "status", type: "select", maxSelect: 1, values: ["open", "closed"] },
        // Kept by the hook with every gift.
        { name: "totalCents", type: "number", onlyInt: true, min: 0 },
        { name: "count", type: "number", onlyInt: true, min: 0 },
        { name: "closedAt", type: "date" },
        { name: "closedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        // Why a closed batch was opened again (kept, with who and when).
        { name: "reopenReason", type: "text", max: 200 },
        { name: "reopenedAt", type: "date" },
        { name: "reopenedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "createdBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_donation_batches_deposit ON donation_batches (depositDate DESC)"],
    });
    app.save(batches);

    const donations = new Collection({
      type: "base",
      name: "donations",
      fields: [
        { name: "batch", type: "relation", collectionId: batches.id, maxSelect: 1 },
        // The donor; none for an anonymous gift (loose cash in the offering).
        { name: "person", type: "relation", collectionId: people.id, maxSelect: 1 },
        // Their household at the time of the gift, unless they give individually (hook).
        { name: "givingUnit", type: "relation", collectionId: households.id, maxSelect: 1 },
        { name: "individual", type: "bool" },
        { name: "date", type: "date", required: true },
        { name: "amountCents", type: "number", required: true, onlyInt: true, min: 1, max: CENTS_MAX },
        { name: "currency", type: "text", max: 3 },
        {
          name: "method",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["cash", "cheque", "card", "bank_transfer", "online"],
        },
        { name: "chequeNumber", type: "text", max: 30 },
        { name: "note", type: "text", max: 500 },
        // [{ fund, amountCents }], 1–10 of them, summing to the gift (hook).
        { name: "splits", type: "json", required: true, maxSize: 4000 },
        { name: "source", type: "select", maxSelect: 1, values: ["manual", "online", "import"] },
        // The provider's id of the payment (online gifts): one gift per payment, however often it is told.
        { name: "providerRef", type: "text", max: 120 },
        { name: "createdBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_donations_batch ON donations (batch)",
        "CREATE INDEX idx_donations_person ON donations (person, date)",
        "CREATE INDEX idx_donations_unit ON donations (givingUnit, date)",
        "CREATE INDEX idx_donations_date ON donations (date)",
        "CREATE UNIQUE INDEX idx_donations_provider ON donations (providerRef) WHERE providerRef != ''",
      ],
    });
    app.save(donations);
    const read =
      `${VIEW} || (${USER} && ${ME} != "" && (person = ${ME} || ` +
      `(${ACTIVE} && ${ADULT} && givingUnit != "" && givingUnit = @request.auth.person.household)))`;
    donations.listRule = read;
    donations.viewRule = read;
    donations.createRule = `${MANAGE} && ${notSet(GIFT_HOOK)}`;
    donations.updateRule = `${MANAGE} && ${notSet([...GIFT_HOOK, "providerRef", "source"])}`;
    donations.deleteRule = MANAGE;
    app.save(donations);

    // Each gift's amount per fund and day, without its donor: what giving.view_summary reads (kept by the hook).
    const splits = new Collection({
      type: "base",
      name: "donation_splits",
      listRule: SUMMARY,
      viewRule: SUMMARY,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "donation",
          type: "relation",
          required: true,
          collectionId: donations.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "fund", type: "relation", required: true, collectionId: funds.id, maxSelect: 1 },
        { name: "amountCents", type: "number", onlyInt: true, min: 1 },
        { name: "date", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_donation_splits_fund ON donation_splits (fund, date)",
        "CREATE INDEX idx_donation_splits_donation ON donation_splits (donation)",
      ],
    });
    app.save(splits);

    webhookEvents(app, true);
  },
  (app) => {
    webhookEvents(app, false);
    for (const name of ["donation_splits", "donations", "donation_batches", "funds"])
      app.delete(app.findCollectionByNameOrId(name));
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.removeByName("currency");
    app.save(settings);
    try {
      app.delete(app.findFirstRecordByFilter("roles", "name = 'Treasurer'"));
    } catch (_) {
      /* renamed or removed */
    }
    const roles = app.findCollectionByNameOrId("roles");
    for (const role of app.findAllRecords("roles")) {
      role.set(
        "permissions",
        role.get("permissions").filter((permission) => !PERMISSIONS.includes(permission)),
      );
      app.save(role);
    }
    const permissions = roles.fields.getByName("permissions");
    permissions.values = permissions.values.filter((value) => !PERMISSIONS.includes(value));
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
  },
);
