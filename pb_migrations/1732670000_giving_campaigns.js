/// <reference path="../pb_data/types.d.ts" />
// Pledges and campaigns (issue 29): a campaign raises money for one fund over a period, toward a goal; a
// pledge is what one donor promises toward it in all. A campaign's progress is what was given to its fund
// in its period (donation_splits, which visitors may not read: the gateway sums them as the system and
// gives the figure alone, never a donor).
//
// - pledge_campaigns: finance (giving.view, giving.manage) reads them all and giving.manage keeps them;
//   anyone reads an active campaign that shows its progress (its fields are the public ones: name,
//   description, fund, goal, dates). Never removed: a campaign is closed instead, keeping its pledges.
// - pledges: finance reads all and giving.manage writes any. A member reads their own and, as an active
//   adult, their household's (as donations). A member pledges for themself only (their own person, an
//   active campaign), and changes or withdraws their own pledge while the campaign is active; they never
//   move it to another campaign or person. The giving unit (the person's household) is set by the hook
//   (pb_hooks/campaigns.pb.js), never by the request. One pledge per person and campaign.
// Limits mirror shared/src/limits-features.ts (GIVING_LIMITS).

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGE = has("giving.manage");
const VIEW = `(${has("giving.view")} || ${MANAGE})`;
const USER = '@request.auth.collectionName = "users"';
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const ADULT = '@request.auth.person.ageGroup = "adult"';
const OWN = `(${USER} && ${ME} != "" && person = ${ME})`;
const HOUSEHOLD = `(${USER} && ${ME} != "" && ${ACTIVE} && ${ADULT} && givingUnit != "" && givingUnit = @request.auth.person.household)`;
/** A member's own pledge, in an active campaign, staying theirs and in its campaign. */
const OWN_WRITE =
  `(${OWN} && campaign.status = "active" && @request.body.campaign:isset = false && ` +
  `(@request.body.person:isset = false || @request.body.person = ${ME}))`;
/** GIVING_LIMITS.donationCentsMax */
const CENTS_MAX = 100_000_000_00;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];

migrate(
  (app) => {
    const funds = app.findCollectionByNameOrId("funds");
    const people = app.findCollectionByNameOrId("people");
    const households = app.findCollectionByNameOrId("households");

    const campaigns = new Collection({
      type: "base",
      name: "pledge_campaigns",
      listRule: `${VIEW} || (status = "active" && showProgress = true)`,
      viewRule: `${VIEW} || (status = "active" && showProgress = true)`,
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: null,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 80 },
        { name: "description", type: "text", max: 500 },
        // The fund whose gifts count toward the campaign.
        { name: "fund", type: "relation", required: true, collectionId: funds.id, maxSelect: 1 },
        { name: "goalCents", type: "number", required: true, onlyInt: true, min: 1, max: CENTS_MAX },
        { name: "startsOn", type: "date", required: true },
        { name: "endsOn", type: "date", required: true },
        // Progress shown publicly on /give (while active).
        { name: "showProgress", type: "bool" },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["active", "closed"] },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_pledge_campaigns_status ON pledge_campaigns (status, startsOn)"],
    });
    app.save(campaigns);

    const pledges = new Collection({
      type: "base",
      name: "pledges",
      listRule: `${VIEW} || ${OWN} || ${HOUSEHOLD}`,
      viewRule: `${VIEW} || ${OWN} || ${HOUSEHOLD}`,
      createRule:
        `@request.body.givingUnit:isset = false && (${MANAGE} || ` +
        `(${USER} && ${ME} != "" && @request.body.person = ${ME} && campaign.status = "active"))`,
      updateRule: `@request.body.givingUnit:isset = false && (${MANAGE} || ${OWN_WRITE})`,
      deleteRule: `${MANAGE} || (${OWN} && campaign.status = "active")`,
      fields: [
        { name: "campaign", type: "relation", required: true, collectionId: campaigns.id, maxSelect: 1 },
        { name: "person", type: "relation", required: true, collectionId: people.id, maxSelect: 1 },
        // The person's household when they pledged (hook), so the household's adults see it.
        { name: "givingUnit", type: "relation", collectionId: households.id, maxSelect: 1 },
        // All that is promised toward the campaign, in cents.
        { name: "amountCents", type: "number", required: true, onlyInt: true, min: 1, max: CENTS_MAX },
        { name: "note", type: "text", max: 500 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_pledges_campaign_person ON pledges (campaign, person)",
        "CREATE INDEX idx_pledges_person ON pledges (person)",
        "CREATE INDEX idx_pledges_unit ON pledges (givingUnit)",
      ],
    });
    app.save(pledges);
  },
  (app) => {
    for (const name of ["pledges", "pledge_campaigns"]) app.delete(app.findCollectionByNameOrId(name));
  },
);
