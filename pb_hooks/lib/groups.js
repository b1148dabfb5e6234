/// <reference path="../../pb_data/types.d.ts" />
// Group capacity and member counts (issue 15). Called from model hooks inside the write's own
// transaction, so two people joining for the last place are decided one after the other.

function activeMembers(app, groupId) {
  const row = new DynamicModel({ n: 0 });
  app
    .db()
    .newQuery("SELECT COUNT(*) AS n FROM group_members WHERE `group` = {:g} AND status = 'active'")
    .bind({ g: groupId })
    .one(row);
  return row.n;
}

/** Refuse an active membership past the group's capacity (0: no limit). */
function admit(app, record) {
  if (record.getString("status") !== "active") return;
  const group = app.findRecordById("groups", record.getString("group"));
  const capacity = group.getInt("capacity");
  if (capacity > 0 && activeMembers(app, group.id) >= capacity) {
    throw new BadRequestError("group_full", {
      group: new ValidationError("validation_group_full", "group_full"),
    });
  }
}

function recount(app, groupId) {
  let group;
  try {
    group = app.findRecordById("groups", groupId);
  } catch (_) {
    return; // the group itself is being deleted
  }
  const n = activeMembers(app, groupId);
  const names = JSON.stringify(leaderNames(app, groupId));
  if (group.getInt("memberCount") === n && JSON.stringify(group.get("leaderNames") ?? []) === names) return;
  group.set("memberCount", n);
  group.set("leaderNames", JSON.parse(names));
  app.saveNoValidate(group);
}

/** Recount every group the person leads (their name is in its leaderNames). */
function recountLedBy(app, personId) {
  const rows = arrayOf(new DynamicModel({ group: "" }));
  app
    .db()
    .newQuery(
      "SELECT `group` FROM group_members WHERE person = {:p} AND status = 'active' AND role = 'leader'",
    )
    .bind({ p: personId })
    .all(rows);
  for (const r of rows) recount(app, r.group);
}

/** The active leaders' display names (preferred or first name, and last name), by name. */
function leaderNames(app, groupId) {
  const rows = arrayOf(new DynamicModel({ name: "" }));
  app
    .db()
    .newQuery(
      "SELECT TRIM(COALESCE(NULLIF(p.preferredName, ''), p.firstName) || ' ' || p.lastName) AS name FROM group_members m " +
        "JOIN people p ON p.id = m.person WHERE m.`group` = {:g} AND m.status = 'active' AND m.role = 'leader' ORDER BY p.lastName, p.firstName",
    )
    .bind({ g: groupId })
    .all(rows);
  return rows.map((r) => r.name);
}

// Who may see a person through groups ({:p}): see the groups migration. Fellow members are active
// members of an active group the person is an active member of.
//
// The plans are spelled out: CROSS JOIN fixes the join order (the person's memberships first) and
// INDEXED BY the indexes. SQLite plans from the statistics in sqlite_stat1, which can date from when these
// tables were nearly empty (seen in CI); with them it scanned every group, or every membership, for each
// row (a leader of 370 groups: 20–200 ms per query, up to seconds per membership write). Spelled out, a
// refresh reads only the person's memberships and those groups' members (0.3–3 ms).
const MEMBERSHIPS = "group_members m1 INDEXED BY idx_group_members_person";
const GROUP = "groups g INDEXED BY sqlite_autoindex_groups_1"; // the primary key's index (id TEXT PRIMARY KEY)
const FELLOWS =
  `SELECT DISTINCT m2.person AS id FROM ${MEMBERSHIPS} CROSS JOIN ${GROUP} CROSS JOIN group_members m2 INDEXED BY idx_group_members_unique ` +
  "WHERE g.id = m1.`group` AND m2.`group` = g.id AND m1.person = {:p} AND m1.status = 'active' AND g.status = 'active' " +
  "AND m2.status = 'active' AND m2.person != {:p}";
const VIEWERS = {
  rosterViewers: `${FELLOWS} AND g.rosterVisibility = 'members' ORDER BY 1`,
  groupViewers: `${FELLOWS} ORDER BY 1`,
  leaderViewers: `${FELLOWS} AND m2.role = 'leader' ORDER BY 1`,
  requestViewers:
    "SELECT DISTINCT m.person AS id FROM group_join_requests r INDEXED BY idx_group_join_requests_person " +
    "CROSS JOIN group_members m INDEXED BY idx_group_members_unique WHERE m.`group` = r.`group` " +
    "AND r.person = {:p} AND r.status = 'pending' AND m.status = 'active' AND m.role = 'leader' AND m.person != {:p} ORDER BY 1",
  // Not viewers but the person's own active groups (active memberships): group prayer requests are
  // read by `@request.auth.person.group_access_via_person.memberGroups ~ group`.
  memberGroups:
    `SELECT m1.\`group\` AS id FROM ${MEMBERSHIPS} CROSS JOIN ${GROUP} ` +
    "WHERE g.id = m1.`group` AND m1.person = {:p} AND m1.status = 'active' AND g.status = 'active' ORDER BY 1",
};

/**
 * Rewrite a person's group_access row (who may see them through groups) from the memberships and join
 * requests as they are now. A person nobody sees through groups and in no active group has no row.
 */
function refreshAccess(app, personId) {
  if (!personId) return;
  const lists = {};
  for (const name of Object.keys(VIEWERS)) {
    const rows = arrayOf(new DynamicModel({ id: "" }));
    app.db().newQuery(VIEWERS[name]).bind({ p: personId }).all(rows);
    lists[name] = rows.map((r) => r.id).join(" ");
  }
  let row = null;
  try {
    row = app.findFirstRecordByData("group_access", "person", personId);
  } catch (_) {
    /* none yet */
  }
  if (Object.keys(lists).every((name) => lists[name] === "")) {
    if (row) app.delete(row);
    return;
  }
  if (row && Object.keys(lists).every((name) => row.getString(name) === lists[name])) return;
  if (!row) {
    row = new Record(app.findCollectionByNameOrId("group_access"));
    row.set("person", personId);
  }
  for (const name of Object.keys(lists)) row.set(name, lists[name]);
  app.saveNoValidate(row);
}

/**
 * Refresh everyone a change to one group can concern: its members (any status: their fellows and
 * leaders change) and those asking to join it (its leaders see them).
 */
function refreshGroupAccess(app, groupId) {
  const rows = arrayOf(new DynamicModel({ person: "" }));
  app
    .db()
    .newQuery(
      "SELECT person FROM group_members INDEXED BY idx_group_members_unique WHERE `group` = {:g} " +
        "UNION SELECT person FROM group_join_requests INDEXED BY idx_group_join_requests_pending WHERE `group` = {:g} AND status = 'pending'",
    )
    .bind({ g: groupId })
    .all(rows);
  for (const r of rows) refreshAccess(app, r.person);
}

/** A join request's write, then its person's group_access (and a former person's, should it move). */
function afterJoinRequestWrite(e) {
  require(`${__hooks}/lib/transaction.js`).inTransaction(e, (app) => {
    e.next();
    const person = e.record.getString("person");
    refreshAccess(app, person);
    const before = e.record.original().getString("person");
    if (before && before !== person) refreshAccess(app, before);
  });
}

module.exports = {
  admit,
  recount,
  recountLedBy,
  activeMembers,
  leaderNames,
  refreshAccess,
  refreshGroupAccess,
  afterJoinRequestWrite,
};
