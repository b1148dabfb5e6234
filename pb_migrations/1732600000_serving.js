/// <reference path="../pb_data/types.d.ts" />
// Serving (issue 27): volunteer teams, their positions and members, plans (a service date) with the
// places they need, requests to serve (pending → accepted / declined), and each volunteer's
// availability (blockouts, preferences) and clearances (background check, training).
// Limits mirror shared/src/limits.ts.
//
// Who sees what:
// - teams and positions: `serving.manage`, the team's active members, and active members of the
//   church while the team is active (so they can find it and, later, sign up);
// - a team's roster (serving_members): `serving.manage`, the person themself, the team's leaders;
// - plans: `serving.manage`, any active team leader (they schedule on them), and a volunteer asked to
//   serve on a plan that is no longer a draft; needs likewise (leaders: their own team's);
// - a request to serve: `serving.manage`, the volunteer, the leaders of the position's team, and — when
//   the team shows names — those who serve on the same published plan see who else accepted;
// - blockouts, preferences, clearances: `serving.manage`, the person themself, and the leaders of a team
//   the person serves on (they see conflicts before asking).
// API tokens: the scope "serving.read" reads teams, positions, plans that are not drafts, their places
// and requests (who serves when); never rosters or anyone's availability. No token writes.
// Writes: staff everything; a team's leaders its positions, roster, needs and requests, and what it
// says about itself (not its status); a volunteer answers their own request (accepted / declined and a
// reason, nothing else), signed in or with the request's mail-link token; a person keeps their own
// blockouts and preferences; clearances are staff work.
//
// Decided inside the write (pb_hooks/serving.pb.js): a request's plan and position come from its need;
// the person must be an active member of the team able to fill the position; a need never has more
// pending and accepted requests than places (two leaders filling the last place at once leave one); an
// answer consumes the mail-link token (a link answered twice leaves one answer).

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const MANAGE = has("serving.manage");
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
/** Writes open to someone without a staff permission: never an API token (1732573200_token_writes.js). */
const USER = '@request.auth.collectionName = "users"';

// Membership tests go through the back-relation serving_members_via_team: the conditions on one path
// hold for one joined row (as in 1732500000_groups.js).
const via = (prefix) => `${prefix}serving_members_via_team`;
/** The caller is an active member (any role) of the team at `prefix` ("" for a team, "team." for its rows). */
const memberOf = (prefix) =>
  `(${ME} != "" && ${via(prefix)}.person ?= ${ME} && ${via(prefix)}.status ?= "active")`;
/** The caller leads the team at `prefix`. */
const leaderOf = (prefix) =>
  `(${ME} != "" && ${via(prefix)}.person ?= ${ME} && ${via(prefix)}.status ?= "active" && ${via(prefix)}.role ?= "leader")`;
/** For create rules: the caller leads the team `teamPath` names in the request body. */
const leadsBodyTeam = (teamPath) =>
  `(${ME} != "" && @collection.serving_members:lead.team ?= ${teamPath} && @collection.serving_members:lead.person ?= ${ME} && ` +
  '@collection.serving_members:lead.status ?= "active" && @collection.serving_members:lead.role ?= "leader")';
/** The caller leads some team (a plan is shared by every team serving on it). */
const LEADS_ANY =
  `(${ME} != "" && @collection.serving_members:anyLead.person ?= ${ME} && @collection.serving_members:anyLead.status ?= "active" && ` +
  '@collection.serving_members:anyLead.role ?= "leader")';
/** The caller leads a team the person at `personPath` serves on ("" for a person relation field named person). */
const leadsTeamOf = (personPath) =>
  `(${ME} != "" && ${personPath}serving_members_via_person.team.serving_members_via_team.person ?= ${ME} && ` +
  `${personPath}serving_members_via_person.team.serving_members_via_team.role ?= "leader" && ` +
  `${personPath}serving_members_via_person.team.serving_members_via_team.status ?= "active")`;
/** A person's own rows (blockouts, preferences): staff, themself, their teams' leaders read; they write. */
const ownRead = `${MANAGE} || person = ${ME} || ${leadsTeamOf("person.")}`;
const ownWrite = `${MANAGE} || (${USER} && ${ME} != "" && person = ${ME})`;
const ownCreate = `${MANAGE} || (${USER} && ${ME} != "" && @request.body.person = ${ME})`;

/** A volunteer's answer: the status to accepted or declined (and a reason), nothing else. */
const ANSWER_ONLY =
  '(@request.body.status = "accepted" || @request.body.status = "declined") && ' +
  ["need", "plan", "position", "person", "name", "token", "askedBy", "source", "answeredAt", "remindedAt"]
    .map((field) => `@request.body.${field}:isset = false`)
    .join(" && ");
/**
 * The API scope "serving.read" (a lobby screen, a rota sync): teams and positions, plans once they are
 * not drafts with their places, and who is asked and how they answered. Never rosters, blockouts,
 * preferences or clearances.
 */
const SERVING_READ = '@request.auth.scopes:each ?= "serving.read"';

/** Webhook events (pb_hooks/lib/webhooks.js). */
const SERVING_EVENTS = ["serving.accepted", "serving.declined"];
const WITH_TOKEN = '(@request.query.token != "" && token != "" && token = @request.query.token)';

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");
    const events = app.findCollectionByNameOrId("events");

    const roles = app.findCollectionByNameOrId("roles");
    const permissions = roles.fields.getByName("permissions");
    permissions.values = [...permissions.values, "serving.manage"];
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
    // The church office and pastors run serving; other roles get it from an administrator.
    for (const name of ["Administrator", "Pastor"]) {
      try {
        const role = app.findFirstRecordByFilter("roles", "name = {:name}", { name });
        role.set("permissions", [...role.get("permissions"), "serving.manage"]);
        app.save(role);
      } catch (_) {
        /* renamed or removed by the church */
      }
    }

    const clients = app.findCollectionByNameOrId("api_clients");
    const scopes = clients.fields.getByName("scopes");
    scopes.values = [...scopes.values, "serving.read"];
    scopes.maxSelect = scopes.values.length;
    app.save(clients);

    const teams = new Collection({
      type: "base",
      name: "serving_teams",
      createRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        { name: "description", type: "text", max: 2000 },
        // Days before a plan its volunteers are reminded (0: no reminder).
        { name: "reminderDays", type: "number", onlyInt: true, min: 0, max: 14 },
        // Members may put themselves into open places (signup sheets).
        { name: "allowSignup", type: "bool" },
        // Those serving on a plan see who else does.
        { name: "showNames", type: "bool" },
        // A decline offers the place to the next suitable person.
        { name: "autoOffer", type: "bool" },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["active", "archived"] },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_serving_teams_name ON serving_teams (name)"],
    });
    app.save(teams);

    const positions = new Collection({
      type: "base",
      name: "serving_positions",
      fields: [
        {
          name: "team",
          type: "relation",
          required: true,
          collectionId: teams.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "name", type: "text", required: true, min: 1, max: 50 },
        { name: "description", type: "text", max: 500 },
        { name: "requiresBackgroundCheck", type: "bool" },
        { name: "requiresTraining", type: "bool" },
        { name: "sort", type: "number", onlyInt: true, min: 0, max: 1000 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_serving_positions_name ON serving_positions (team, name)",
        "CREATE INDEX idx_serving_positions_sort ON serving_positions (team, sort, name)",
      ],
    });
    app.save(positions);

    const members = new Collection({
      type: "base",
      name: "serving_members",
      fields: [
        {
          name: "team",
          type: "relation",
          required: true,
          collectionId: teams.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // The person's name, copied by the hook: a roster shows it without opening the people rules.
        { name: "name", type: "text", max: 101 },
        { name: "role", type: "select", required: true, maxSelect: 1, values: ["leader", "member"] },
        // The positions this person can fill on this team.
        { name: "positions", type: "relation", collectionId: positions.id, maxSelect: 50 },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["active", "inactive"] },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_serving_members_unique ON serving_members (team, person)",
        "CREATE INDEX idx_serving_members_person ON serving_members (person, status)",
      ],
    });
    app.save(members);

    // The rules name serving_members, so they are set once it exists.
    const teamRead = `${MANAGE} || ${memberOf("")} || (status = "active" && (${ACTIVE} || ${SERVING_READ}))`;
    teams.listRule = teamRead;
    teams.viewRule = teamRead;
    // Leaders keep what their team says about itself; archiving a team is staff work.
    teams.updateRule = `${MANAGE} || (${USER} && ${leaderOf("")} && @request.body.status:isset = false)`;
    app.save(teams);

    const positionRead = `${MANAGE} || ${memberOf("team.")} || (team.status = "active" && (${ACTIVE} || ${SERVING_READ}))`;
    positions.listRule = positionRead;
    positions.viewRule = positionRead;
    positions.createRule = `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.team")})`;
    positions.updateRule = `${MANAGE} || (${USER} && ${leaderOf("team.")} && @request.body.team:isset = false)`;
    positions.deleteRule = `${MANAGE} || (${USER} && ${leaderOf("team.")})`;
    app.save(positions);

    const rosterRead = `${MANAGE} || person = ${ME} || ${leaderOf("team.")}`;
    members.listRule = rosterRead;
    members.viewRule = rosterRead;
    members.createRule = `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.team")})`;
    members.updateRule =
      `${MANAGE} || (${USER} && ${leaderOf("team.")} && @request.body.team:isset = false && @request.body.person:isset = false && ` +
      "@request.body.name:isset = false)";
    // Leaders remove members; a member may leave.
    members.deleteRule = `${MANAGE} || (${USER} && (${leaderOf("team.")} || person = ${ME}))`;
    app.save(members);

    const plans = new Collection({
      type: "base",
      name: "serving_plans",
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 100 },
        // The service's day, midnight UTC (a wall-clock date in the church's zone).
        { name: "date", type: "date", required: true },
        // [{ kind: "rehearsal" | "service" | "other", label, startsAt, endsAt }] (ISO instants).
        { name: "times", type: "json", maxSize: 5000 },
        // The event occurrence it serves, where there is one.
        { name: "event", type: "relation", collectionId: events.id, maxSelect: 1 },
        { name: "occurrenceStart", type: "date" },
        // Notes for the teams (order of service), Markdown.
        { name: "notes", type: "text", max: 20000 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["draft", "published", "done"],
        },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_serving_plans_date ON serving_plans (date, id)"],
    });
    app.save(plans);

    const needs = new Collection({
      type: "base",
      name: "serving_needs",
      fields: [
        {
          name: "plan",
          type: "relation",
          required: true,
          collectionId: plans.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "position",
          type: "relation",
          required: true,
          collectionId: positions.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "count", type: "number", required: true, onlyInt: true, min: 1, max: 50 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_serving_needs_unique ON serving_needs (plan, position)"],
    });
    app.save(needs);

    const requests = new Collection({
      type: "base",
      name: "serving_requests",
      fields: [
        {
          name: "need",
          type: "relation",
          required: true,
          collectionId: needs.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // Set by the hook from the need (rules and lists read them without a join through the need).
        { name: "plan", type: "relation", collectionId: plans.id, maxSelect: 1, cascadeDelete: true },
        { name: "position", type: "relation", collectionId: positions.id, maxSelect: 1, cascadeDelete: true },
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // The person's name, copied by the hook (the schedule shows it without opening the people rules).
        { name: "name", type: "text", max: 101 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "accepted", "declined", "cancelled"],
        },
        { name: "declineReason", type: "text", max: 250 },
        // The mail link's secret: answers once without signing in (the hook clears it on answer).
        { name: "token", type: "text", max: 64, hidden: true },
        { name: "askedBy", type: "relation", collectionId: people.id, maxSelect: 1 },
        { name: "source", type: "select", maxSelect: 1, values: ["manual", "autofill", "signup", "swap"] },
        { name: "answeredAt", type: "date" },
        { name: "remindedAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_serving_requests_unique ON serving_requests (need, person)",
        "CREATE INDEX idx_serving_requests_person ON serving_requests (person, status)",
        "CREATE INDEX idx_serving_requests_plan ON serving_requests (plan, position)",
      ],
    });
    app.save(requests);

    plans.listRule =
      `${MANAGE} || ${LEADS_ANY} || ` +
      `(status != "draft" && ((${ME} != "" && serving_requests_via_plan.person ?= ${ME}) || ${SERVING_READ}))`;
    plans.viewRule = plans.listRule;
    app.save(plans);

    needs.listRule =
      `${MANAGE} || ${leaderOf("position.team.")} || ` +
      `(plan.status != "draft" && ((${ME} != "" && serving_requests_via_need.person ?= ${ME}) || ${SERVING_READ}))`;
    needs.viewRule = needs.listRule;
    needs.createRule = `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.position.team")})`;
    needs.updateRule = `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && @request.body.plan:isset = false && @request.body.position:isset = false)`;
    needs.deleteRule = `${MANAGE} || (${USER} && ${leaderOf("position.team.")})`;
    app.save(needs);

    const requestRead =
      `${MANAGE} || person = ${ME} || ${leaderOf("position.team.")} || ` +
      // Fellow volunteers of a published plan see who accepted, when the team shows names.
      `(status = "accepted" && position.team.showNames = true && plan.status = "published" && ${ME} != "" && ` +
      `plan.serving_requests_via_plan.person ?= ${ME}) || (plan.status != "draft" && ${SERVING_READ})`;
    requests.listRule = requestRead;
    requests.viewRule = requestRead;
    requests.createRule = `${MANAGE} || (${USER} && ${leadsBodyTeam("@request.body.need.position.team")})`;
    requests.updateRule =
      `${MANAGE} || (${USER} && ${leaderOf("position.team.")} && @request.body.need:isset = false && @request.body.person:isset = false && ` +
      `@request.body.plan:isset = false && @request.body.position:isset = false) || ` +
      `(${USER} && ${ME} != "" && person = ${ME} && ${ANSWER_ONLY}) || (${WITH_TOKEN} && ${ANSWER_ONLY})`;
    requests.deleteRule = `${MANAGE} || (${USER} && ${leaderOf("position.team.")})`;
    app.save(requests);

    const personField = {
      name: "person",
      type: "relation",
      required: true,
      collectionId: people.id,
      maxSelect: 1,
      cascadeDelete: true,
    };
    const blockouts = new Collection({
      type: "base",
      name: "serving_blockouts",
      listRule: ownRead,
      viewRule: ownRead,
      createRule: ownCreate,
      updateRule: `${ownWrite} && @request.body.person:isset = false`,
      deleteRule: ownWrite,
      fields: [
        personField,
        { name: "startsOn", type: "date", required: true },
        { name: "endsOn", type: "date", required: true },
        // "monthly": the same nth weekday as startsOn (every 1st Sunday).
        { name: "repeat", type: "select", maxSelect: 1, values: ["none", "weekly", "monthly"] },
        { name: "until", type: "date" },
        { name: "reason", type: "text", max: 100 },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_serving_blockouts_person ON serving_blockouts (person, startsOn)"],
    });
    app.save(blockouts);

    const preferences = new Collection({
      type: "base",
      name: "serving_preferences",
      listRule: ownRead,
      viewRule: ownRead,
      createRule: ownCreate,
      updateRule: `${ownWrite} && @request.body.person:isset = false`,
      deleteRule: ownWrite,
      fields: [
        personField,
        { name: "maxPerMonth", type: "number", onlyInt: true, min: 0, max: 31 },
        // Wall-clock service starts the person prefers, e.g. ["09:00"].
        { name: "preferredTimes", type: "json", maxSize: 500 },
        { name: "household", type: "select", maxSelect: 1, values: ["none", "together", "apart"] },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_serving_preferences_person ON serving_preferences (person)"],
    });
    app.save(preferences);

    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, "serving_request", "serving_declined"];
    app.save(notifications);

    // Integrators hear when someone accepts or declines a request to serve (ids only).
    for (const [name, field] of [
      ["webhooks", "events"],
      ["webhook_deliveries", "type"],
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      const select = collection.fields.getByName(field);
      select.values = [...select.values, ...SERVING_EVENTS];
      if (field === "events") select.maxSelect = select.values.length;
      app.save(collection);
    }

    const clearances = new Collection({
      type: "base",
      name: "serving_clearances",
      listRule: ownRead,
      viewRule: ownRead,
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        personField,
        {
          name: "kind",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["background_check", "training"],
        },
        { name: "passedOn", type: "date", required: true },
        // Empty: it does not expire.
        { name: "expiresOn", type: "date" },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_serving_clearances_person ON serving_clearances (person, kind)"],
    });
    app.save(clearances);
  },
  (app) => {
    for (const name of [
      "serving_clearances",
      "serving_preferences",
      "serving_blockouts",
      "serving_requests",
      "serving_needs",
      "serving_plans",
      "serving_members",
      "serving_positions",
      "serving_teams",
    ]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
    const clients = app.findCollectionByNameOrId("api_clients");
    const scopes = clients.fields.getByName("scopes");
    scopes.values = scopes.values.filter((value) => value !== "serving.read");
    app.save(clients);
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter((value) => !value.startsWith("serving_"));
    app.save(notifications);
    for (const [name, field] of [
      ["webhooks", "events"],
      ["webhook_deliveries", "type"],
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      const select = collection.fields.getByName(field);
      select.values = select.values.filter((value) => !SERVING_EVENTS.includes(value));
      app.save(collection);
    }
    const roles = app.findCollectionByNameOrId("roles");
    for (const role of app.findAllRecords("roles")) {
      const kept = role.get("permissions").filter((permission) => permission !== "serving.manage");
      role.set("permissions", kept);
      app.save(role);
    }
    const permissions = roles.fields.getByName("permissions");
    permissions.values = permissions.values.filter((value) => value !== "serving.manage");
    app.save(roles);
  },
);
