/// <reference path="../../pb_data/types.d.ts" />
// Requests to serve (issue 27), decided inside each write's transaction (see ../serving.pb.js), so the
// rules hold on every write path (gateway, REST, seed) and under concurrent writes: two leaders filling
// the last place at once leave one request; a mail link answered twice leaves one answer.

/** Refuse the write with a field error the gateway passes on (errors.ts maps the code). */
const fail = (code, field, message) => {
  throw new BadRequestError(message, { [field]: new ValidationError("validation_" + code, message) });
};

/** Requests that hold a place: asked and not yet answered, or accepted. */
const HOLDS_PLACE = ["pending", "accepted"];

/** Places of `need` held by requests other than `exceptId`. */
function placesTaken(app, needId, exceptId) {
  return app.countRecords(
    "serving_requests",
    $dbx.hashExp({ need: needId }),
    $dbx.in("status", ...HOLDS_PLACE),
    $dbx.not($dbx.hashExp({ id: exceptId || "" })),
  );
}

/** "Ada Lovelace": the person's name as rosters and schedules show it (preferred name first). */
function nameOf(app, personId) {
  const person = app.findRecordById("people", personId);
  return `${person.getString("preferredName").trim() || person.getString("firstName")} ${person.getString("lastName")}`.trim();
}

/** A roster row names its person (copied here, on every write path). */
function nameMember(app, member) {
  member.set("name", nameOf(app, member.getString("person")));
}

/** The need's plan must still be open: nothing is asked or answered on a plan that is done. */
function requireOpenPlan(app, planId) {
  const plan = app.findRecordById("serving_plans", planId);
  if (plan.getString("status") === "done")
    fail("plan_done", "plan", "This plan is done: nothing more is asked or answered.");
}

/**
 * A new request: its plan and position from its need; the person an active member of the team who can
 * fill the position; a place left. The mail link's secret is made here, so every path gets one.
 */
function admitRequest(app, request) {
  const need = app.findRecordById("serving_needs", request.getString("need"));
  const position = app.findRecordById("serving_positions", need.getString("position"));
  request.set("plan", need.getString("plan"));
  request.set("position", position.id);
  request.set("name", nameOf(app, request.getString("person")));
  requireOpenPlan(app, need.getString("plan"));
  let member;
  try {
    member = app.findFirstRecordByFilter(
      "serving_members",
      "team = {:team} && person = {:person} && status = 'active'",
      { team: position.getString("team"), person: request.getString("person") },
    );
  } catch (_) {
    fail("not_on_team", "person", "This person is not on the team.");
  }
  if (!member.getStringSlice("positions").includes(position.id))
    fail("not_on_position", "person", "This person does not serve in this position.");
  if (!request.getString("status")) request.set("status", "pending");
  if (!request.getString("source")) request.set("source", "manual");
  const source = request.getString("source");
  if (source === "signup") admitSignup(app, request, position);
  if (source === "swap") takeSwap(app, request);
  else request.set("replaces", "");
  if (
    HOLDS_PLACE.includes(request.getString("status")) &&
    placesTaken(app, need.id, "") >= need.getInt("count")
  )
    fail("need_full", "need", "Every place is taken.");
  if (request.getString("status") === "accepted") {
    if (!request.getString("answeredAt")) request.set("answeredAt", new DateTime());
  }
  // Asked: the mail link's secret. Taken by themself (signup, swap): nothing to answer.
  else if (!request.getString("token")) request.set("token", $security.randomString(43));
  request.set("swapOpen", false);
}

/** A signup: the team lets members put themselves into places of a published plan. */
function admitSignup(app, request, position) {
  const team = app.findRecordById("serving_teams", position.getString("team"));
  if (!team.getBool("allowSignup") || team.getString("status") !== "active")
    fail("signup_closed", "need", "This team does not take signups.");
  const plan = app.findRecordById("serving_plans", request.getString("plan"));
  if (plan.getString("status") !== "published")
    fail("plan_not_published", "plan", "This plan is not published.");
  request.set("status", "accepted");
}

/**
 * A swap taken: the original request (`replaces`, re-read inside this transaction) must still be an
 * accepted, open swap on the same need; it becomes "replaced" before the place count below, so the
 * place passes from one to the other without ever being empty, and a second taker finds it gone.
 */
function takeSwap(app, request) {
  let original;
  try {
    original = app.findRecordById("serving_requests", request.getString("replaces"));
  } catch (_) {
    fail("swap_taken", "replaces", "This place was taken meanwhile.");
  }
  if (
    !original.getBool("swapOpen") ||
    original.getString("status") !== "accepted" ||
    original.getString("need") !== request.getString("need")
  )
    fail("swap_taken", "replaces", "This place was taken meanwhile.");
  if (original.getString("person") === request.getString("person"))
    fail("swap_self", "person", "This place is already yours.");
  original.set("status", "replaced");
  original.set("swapOpen", false);
  app.save(original);
  request.set("status", "accepted");
}

/**
 * A changed request: an answer is stamped and uses up the mail link; taking a place again (an accept
 * after a decline) needs a place left; nothing changes on a plan that is done.
 */
function reviseRequest(app, request) {
  const before = request.original();
  const status = request.getString("status");
  if (status === before.getString("status")) return reviseSwap(app, request);
  // Read again inside the transaction: an answer (or a leader's change) that landed since this write
  // read the request wins, and this one is refused (a mail link clicked twice at once answers once).
  const stored = app.findRecordById("serving_requests", request.id);
  if (stored.getString("status") !== before.getString("status"))
    fail("already_answered", "status", "This request was answered meanwhile.");
  // A place handed over in a swap is the taker's now.
  if (before.getString("status") === "replaced") fail("swap_taken", "status", "Someone took this place.");
  requireOpenPlan(app, request.getString("plan"));
  const need = app.findRecordById("serving_needs", request.getString("need"));
  if (
    HOLDS_PLACE.includes(status) &&
    !HOLDS_PLACE.includes(before.getString("status")) &&
    placesTaken(app, need.id, request.id) >= need.getInt("count")
  )
    fail("need_full", "need", "Every place is taken.");
  if (status === "accepted" || status === "declined") {
    request.set("answeredAt", new DateTime());
    request.set("token", "");
  }
  if (status !== "declined") request.set("declineReason", "");
  // A swap is asked for a place one holds; any other change of status closes it.
  request.set("swapOpen", false);
}

/** A swap is opened only on an accepted place of a plan that is not done (PocketBase's rule: by its holder). */
function reviseSwap(app, request) {
  const before = request.original();
  if (!request.getBool("swapOpen") || before.getBool("swapOpen")) return;
  if (request.getString("status") !== "accepted")
    fail("not_accepted", "swapOpen", "Only a place you accepted can be swapped.");
  requireOpenPlan(app, request.getString("plan"));
}

module.exports = { admitRequest, reviseRequest, nameMember };
