/// <reference path="../../pb_data/types.d.ts" />
// Who may see serving's rows, kept as lists the rules test with one `~` (pb_migrations/
// 1732615000_serving_access.js): a team's active leaders (serving_teams.leaderIds), who can fill a
// position (serving_positions.fillerIds), who is asked on a plan (serving_plans.askedIds). Written
// here, inside the write that changes them (roster rows, requests), straight to the table: no hooks
// run and `updated` does not move (nobody edited the team, position or plan).

/** The people of `rows` (each a record with a person field), once each, comma-separated. */
function peopleOf(rows) {
  const seen = [];
  for (const row of rows) {
    const person = row.getString("person");
    if (person && !seen.includes(person)) seen.push(person);
  }
  return seen.sort().join(",");
}

function write(app, table, id, field, value) {
  app
    .db()
    .update(table, { [field]: value }, $dbx.hashExp({ id }))
    .execute();
}

/** A team's leaders and the fillers of each of its positions, after a roster row changed. */
function syncTeam(app, teamId) {
  if (!teamId) return;
  const active = app.findRecordsByFilter("serving_members", "team = {:team} && status = 'active'", "", 0, 0, {
    team: teamId,
  });
  const leaders = [];
  for (const member of active) if (member.getString("role") === "leader") leaders.push(member);
  write(app, "serving_teams", teamId, "leaderIds", peopleOf(leaders));
  const positions = app.findRecordsByFilter("serving_positions", "team = {:team}", "", 0, 0, {
    team: teamId,
  });
  for (const position of positions) {
    const fillers = [];
    for (const member of active)
      if (member.getStringSlice("positions").includes(position.id)) fillers.push(member);
    write(app, "serving_positions", position.id, "fillerIds", peopleOf(fillers));
  }
}

/** Everyone asked on a plan (whatever they answered), after a request changed. */
function syncPlan(app, planId) {
  if (!planId) return;
  const requests = app.findRecordsByFilter("serving_requests", "plan = {:plan}", "", 0, 0, { plan: planId });
  write(app, "serving_plans", planId, "askedIds", peopleOf(requests));
}

module.exports = { syncTeam, syncPlan };
