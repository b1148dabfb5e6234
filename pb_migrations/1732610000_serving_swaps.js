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
// - Who may see what, as lists (leaderIds, fillerIds, askedIds; see ACCESS_FIELDS below) instead of
//   back-relation joins that made a quarter's requests take over 30 s to read at 300 volunteers.
//
// The rules below are the whole live rules of serving_requests, serving_needs and of reading
// serving_plans (written out in full, not patched), so this file alone says who may read and write
// them. Field lists and helpers as in 1732600000_serving.js.

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

/**
 * Who may see serving's rows, as lists the rules test with one `~` (kept by pb_hooks/lib/serving-access.js
 * inside every write of the rows they follow): a team's active leaders (serving_teams.leaderIds), the
 * active members who can fill a position (serving_positions.fillerIds), everyone asked on a plan
 * (serving_plans.askedIds). The back-relation rules they replace (plan → its requests → their people,
 * position → roster rows → their positions) made PocketBase join every request with every roster row:
 * reading a quarter's requests for 300 volunteers took over 30 s (scripts/bench-serving-matrix.ts,
 * docs/PERFORMANCE.md). Ids are 15 characters with no commas, so `~` matches a whole id or nothing.
 */
const ACCESS_FIELDS = [
  ["serving_teams", "leaderIds"],
  ["serving_positions", "fillerIds"],
  ["serving_plans", "askedIds"],
];
const listed = (path) => `(${ME} != "" && ${path} ~ ${ME})`;
const LEADS = listed("position.team.leaderIds");
const LEADS_ANY = `(${ME} != "" && @collection.serving_teams:anyLead.leaderIds ?~ ${ME})`;

const requestRead =
  `${MANAGE} || person = ${ME} || ${LEADS} || ` +
  // Fellow volunteers of a published plan see who accepted, when the team shows names.
  `(status = "accepted" && position.team.showNames = true && plan.status = "published" && ${listed("plan.askedIds")}) || ` +
  `(plan.status != "draft" && ${SERVING_READ}) || ` +
  // An open swap is offered to those who can take it.
  `(swapOpen = true && status = "accepted" && plan.status = "published" && ${listed("position.fillerIds")})`;

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

/** Plans: staff, any team's leader (a plan is shared by every team), anyone asked on one not a draft. */
const planRead = `${MANAGE} || ${LEADS_ANY} || (status != "draft" && (${listed("askedIds")} || ${SERVING_READ}))`;

/** A plan's places: staff, the position's team leaders, anyone asked on the (published) plan. */
const needRead = `${MANAGE} || ${LEADS} || (plan.status != "draft" && (${listed("plan.askedIds")} || ${SERVING_READ}))`;

const NEED_RULES = {
  listRule: needRead,
  viewRule: needRead,
  createRule: `${MANAGE} || (${USER} && ${listed("@request.body.position.team.leaderIds")})`,
  updateRule: `${MANAGE} || (${USER} && ${LEADS} && ${unset(["plan", "position"])})`,
  deleteRule: `${MANAGE} || (${USER} && ${LEADS})`,
};

const REQUEST_RULES = {
  listRule: requestRead,
  viewRule: requestRead,
  createRule: `${MANAGE} || (${USER} && ${listed("@request.body.need.position.team.leaderIds")}) || ${selfCreate}`,
  updateRule:
    `${MANAGE} || (${USER} && ${LEADS} && ${unset(["need", "person", "plan", "position"])}) || ` +
    `(${USER} && ${ME} != "" && person = ${ME} && (${ANSWER_ONLY} || ${SWAP_ONLY})) || ` +
    `(${WITH_TOKEN} && ${ANSWER_ONLY})`,
  deleteRule: `${MANAGE} || (${USER} && ${LEADS})`,
};

/** The lists for the rows already there (the hooks keep them from now on). */
function backfill(app) {
  const peopleOf = (rows) =>
    [...new Set(rows.map((row) => row.getString("person")).filter(Boolean))].sort().join(",");
  const set = (table, id, field, value) =>
    app
      .db()
      .update(table, { [field]: value }, $dbx.hashExp({ id }))
      .execute();
  const members = app.findAllRecords("serving_members", $dbx.hashExp({ status: "active" }));
  for (const team of app.findAllRecords("serving_teams"))
    set(
      "serving_teams",
      team.id,
      "leaderIds",
      peopleOf(members.filter((m) => m.getString("team") === team.id && m.getString("role") === "leader")),
    );
  for (const position of app.findAllRecords("serving_positions"))
    set(
      "serving_positions",
      position.id,
      "fillerIds",
      peopleOf(members.filter((m) => m.getStringSlice("positions").includes(position.id))),
    );
  const requests = app.findAllRecords("serving_requests");
  for (const plan of app.findAllRecords("serving_plans"))
    set(
      "serving_plans",
      plan.id,
      "askedIds",
      peopleOf(requests.filter((r) => r.getString("plan") === plan.id)),
    );
}

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
    app.save(requests);
    for (const [name, field] of ACCESS_FIELDS) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.add(new TextField({ name: field, max: 20000, hidden: true }));
      app.save(collection);
    }
    backfill(app);
    Object.assign(requests, REQUEST_RULES);
    app.save(requests);
    const needs = app.findCollectionByNameOrId("serving_needs");
    Object.assign(needs, NEED_RULES);
    app.save(needs);
    const plans = app.findCollectionByNameOrId("serving_plans");
    plans.listRule = planRead;
    plans.viewRule = planRead;
    app.save(plans);
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
    // The rules as 1732600000_serving.js left them (back-relations, no swaps, signups or lists).
    const firstNeedRead =
      `${MANAGE} || ${leaderOf("position.team.")} || ` +
      `(plan.status != "draft" && ((${ME} != "" && serving_requests_via_need.person ?= ${ME}) || ${SERVING_READ}))`;
    const needs = app.findCollectionByNameOrId("serving_needs");
    Object.assign(needs, {
      listRule: firstNeedRead,
      viewRule: firstNeedRead,
      createRule: `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.position.team")})`,
      updateRule: `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && @request.body.plan:isset = false && @request.body.position:isset = false)`,
      deleteRule: `${MANAGE} || (${USER} && ${leaderOf("position.team.")})`,
    });
    app.save(needs);
    const firstPlanRead =
      `${MANAGE} || (${ME} != "" && @collection.serving_members:anyLead.person ?= ${ME} && ` +
      '@collection.serving_members:anyLead.status ?= "active" && @collection.serving_members:anyLead.role ?= "leader") || ' +
      `(status != "draft" && ((${ME} != "" && serving_requests_via_plan.person ?= ${ME}) || ${SERVING_READ}))`;
    const plans = app.findCollectionByNameOrId("serving_plans");
    plans.listRule = firstPlanRead;
    plans.viewRule = firstPlanRead;
    app.save(plans);
    for (const [name, field] of ACCESS_FIELDS) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.removeByName(field);
      app.save(collection);
    }
    const requests = app.findCollectionByNameOrId("serving_requests");
    for (const row of app.findAllRecords("serving_requests", $dbx.hashExp({ status: "replaced" })))
      app.delete(row);
    requests.indexes = requests.indexes.filter((index) => !index.includes("idx_serving_requests_swaps"));
    requests.fields.removeByName("replaces");
    requests.fields.removeByName("swapOpen");
    const status = requests.fields.getByName("status");
    status.values = status.values.filter((value) => value !== "replaced");
    const answerOnly =
      '(@request.body.status = "accepted" || @request.body.status = "declined") && ' +
      unset([...SYSTEM_FIELDS, "answeredAt", "remindedAt"]);
    const firstRead =
      `${MANAGE} || person = ${ME} || ${leaderOf("position.team.")} || ` +
      `(status = "accepted" && position.team.showNames = true && plan.status = "published" && ${ME} != "" && ` +
      `plan.serving_requests_via_plan.person ?= ${ME}) || (plan.status != "draft" && ${SERVING_READ})`;
    Object.assign(requests, {
      listRule: firstRead,
      viewRule: firstRead,
      createRule: `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.need.position.team")})`,
      updateRule:
        `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && ${unset(["need", "person", "plan", "position"])}) || ` +
        `(${USER} && ${ME} != "" && person = ${ME} && ${answerOnly}) || (${WITH_TOKEN} && ${answerOnly})`,
      deleteRule: `${MANAGE} || (${USER} && ${leaderOf("position.team.")})`,
    });
    app.save(requests);
  },
);
