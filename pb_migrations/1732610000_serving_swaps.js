/// <reference path="../pb_data/types.d.ts" />
// Serving, second step (issue 27): swaps and signup sheets.
//
// - A swap: a volunteer who accepted asks for someone to take their place (serving_requests.swapOpen).
//   They stay responsible until a teammate who can fill the position takes it: the taker's request
//   (source "swap", replaces → the original) is created accepted, and the hook marks the original
//   "replaced" in the same transaction, so the place is never empty and two takers leave one.
// - A signup: on a team that allows it, a member puts themself into an open place of a published plan
//   (source "signup", accepted at once); the hook checks the team, the position and the places left.
//
// - A plan's places: whoever is asked anywhere on a published plan sees all its needs (which positions,
//   how many), so "who else serves" covers the whole plan, not only their own position (the requests'
//   rule already shows fellow volunteers' accepted places plan-wide where the team shows names).
//
// The rules below are the whole live rules of serving_requests and of reading serving_needs (written
// out in full, not patched), so this file alone says who may read and write them. Field lists and
// helpers as in 1732600000_serving.js.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGE = has("serving.manage");
const ME = "@request.auth.person";
const USER = '@request.auth.collectionName = "users"';
const SERVING_READ = '@request.auth.scopes:each ?= "serving.read"';
const WITH_TOKEN = '(@request.query.token != "" && token != "" && token = @request.query.token)';
const via = (prefix) => `${prefix}serving_members_via_team`;
const leaderOf = (prefix) =>
  `(${ME} != "" && ${via(prefix)}.person ?= ${ME} && ${via(prefix)}.status ?= "active" && ${via(prefix)}.role ?= "leader")`;
const leadsBodyTeam = (teamPath) =>
  `(${ME} != "" && @collection.serving_members:lead.team ?= ${teamPath} && @collection.serving_members:lead.person ?= ${ME} && ` +
  '@collection.serving_members:lead.status ?= "active" && @collection.serving_members:lead.role ?= "leader")';

/** Fields only the hook (or staff and leaders) set. */
const SYSTEM_FIELDS = ["need", "plan", "position", "person", "name", "token", "askedBy", "source"];
const unset = (fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(" && ");

/** A volunteer's answer: the status to accepted or declined (and a reason), nothing else. */
const ANSWER_ONLY =
  '(@request.body.status = "accepted" || @request.body.status = "declined") && ' +
  unset([...SYSTEM_FIELDS, "answeredAt", "remindedAt", "swapOpen", "replaces"]);
/** A volunteer who accepted opens or closes a swap: swapOpen alone. */
const SWAP_ONLY =
  `status = "accepted" && @request.body.swapOpen:isset = true && ` +
  unset([...SYSTEM_FIELDS, "status", "declineReason", "answeredAt", "remindedAt", "replaces"]);

/** A member who can fill the position (any of its team's active members naming it) — for reading offers. */
const FILLS_POSITION =
  `(${ME} != "" && position.serving_members_via_positions.person ?= ${ME} && ` +
  'position.serving_members_via_positions.status ?= "active")';

const requestRead =
  `${MANAGE} || person = ${ME} || ${leaderOf("position.team.")} || ` +
  // Fellow volunteers of a published plan see who accepted, when the team shows names.
  `(status = "accepted" && position.team.showNames = true && plan.status = "published" && ${ME} != "" && ` +
  `plan.serving_requests_via_plan.person ?= ${ME}) || (plan.status != "draft" && ${SERVING_READ}) || ` +
  // An open swap is offered to those who can take it.
  `(swapOpen = true && status = "accepted" && plan.status = "published" && ${FILLS_POSITION})`;

/** Themself, accepted, into a place: a signup (the team allows it) or a swap (its original is open). */
const selfCreate =
  `(${USER} && ${ME} != "" && @request.body.person = ${ME} && @request.body.status = "accepted" && ` +
  `${unset(["token", "askedBy", "answeredAt", "remindedAt", "swapOpen", "declineReason"])} && (` +
  `(@request.body.source = "signup" && @request.body.replaces:isset = false && ` +
  `@request.body.need.position.team.allowSignup = true && @request.body.need.plan.status = "published") || ` +
  `(@request.body.source = "swap" && @request.body.replaces.swapOpen = true && ` +
  `@request.body.replaces.need = @request.body.need)))`;

/** In-app notices: a teammate asks for someone to take their place; a place changed hands. */
const NOTICE_KINDS = ["serving_swap", "serving_swapped"];

/** Reading a plan's places: staff, the position's team leaders, anyone asked on the (published) plan. */
const needRead =
  `${MANAGE} || ${leaderOf("position.team.")} || ` +
  `(plan.status != "draft" && ((${ME} != "" && plan.serving_requests_via_plan.person ?= ${ME}) || ${SERVING_READ}))`;

const RULES = {
  listRule: requestRead,
  viewRule: requestRead,
  createRule: `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.need.position.team")}) || ${selfCreate}`,
  updateRule:
    `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && ${unset(["need", "person", "plan", "position"])}) || ` +
    `(${USER} && ${ME} != "" && person = ${ME} && (${ANSWER_ONLY} || ${SWAP_ONLY})) || ` +
    `(${WITH_TOKEN} && ${ANSWER_ONLY})`,
  deleteRule: `${MANAGE} || (${USER} && ${leaderOf("position.team.")})`,
};

migrate(
  (app) => {
    const requests = app.findCollectionByNameOrId("serving_requests");
    const status = requests.fields.getByName("status");
    // "replaced": someone took their place through a swap (the place stayed filled).
    status.values = [...status.values, "replaced"];
    requests.fields.add(new BoolField({ name: "swapOpen" }));
    requests.fields.add(
      new RelationField({ name: "replaces", collectionId: requests.id, maxSelect: 1, cascadeDelete: false }),
    );
    requests.indexes = [
      ...requests.indexes,
      "CREATE INDEX idx_serving_requests_swaps ON serving_requests (swapOpen, position)",
    ];
    Object.assign(requests, RULES);
    app.save(requests);
    const needs = app.findCollectionByNameOrId("serving_needs");
    needs.listRule = needRead;
    needs.viewRule = needRead;
    app.save(needs);
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, ...NOTICE_KINDS];
    app.save(notifications);
  },
  (app) => {
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter((value) => !NOTICE_KINDS.includes(value));
    app.save(notifications);
    const needs = app.findCollectionByNameOrId("serving_needs");
    const firstNeedRead =
      `${MANAGE} || ${leaderOf("position.team.")} || ` +
      `(plan.status != "draft" && ((${ME} != "" && serving_requests_via_need.person ?= ${ME}) || ${SERVING_READ}))`;
    needs.listRule = firstNeedRead;
    needs.viewRule = firstNeedRead;
    app.save(needs);
    const requests = app.findCollectionByNameOrId("serving_requests");
    for (const row of app.findAllRecords("serving_requests", $dbx.hashExp({ status: "replaced" })))
      app.delete(row);
    requests.indexes = requests.indexes.filter((index) => !index.includes("idx_serving_requests_swaps"));
    requests.fields.removeByName("replaces");
    requests.fields.removeByName("swapOpen");
    const status = requests.fields.getByName("status");
    status.values = status.values.filter((value) => value !== "replaced");
    // The rules as 1732600000_serving.js left them, without the swap and signup clauses.
    const answerOnly =
      '(@request.body.status = "accepted" || @request.body.status = "declined") && ' +
      unset([...SYSTEM_FIELDS, "answeredAt", "remindedAt"]);
    const firstRead = requestRead.slice(0, requestRead.lastIndexOf(" || "));
    Object.assign(requests, {
      listRule: firstRead,
      viewRule: firstRead,
      createRule: `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.need.position.team")})`,
      updateRule:
        `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && ${unset(["need", "person", "plan", "position"])}) || ` +
        `(${USER} && ${ME} != "" && person = ${ME} && ${answerOnly}) || (${WITH_TOKEN} && ${answerOnly})`,
    });
    app.save(requests);
  },
);
