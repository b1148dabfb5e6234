/// <reference path="../../pb_data/types.d.ts" />
// Group capacity and member counts (issue 15). Called from model hooks inside the write's own
// transaction, so two people joining for the last place are decided one after the other.

function activeMembers(app, groupId) {
  const row = new DynamicModel({ n: 0 });
  app.db()
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
    throw new BadRequestError("group_full", { group: new ValidationError("validation_group_full", "group_full") });
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

/** The active leaders' display names (preferred or first name, and last name), by name. */
function leaderNames(app, groupId) {
  const rows = arrayOf(new DynamicModel({ name: "" }));
  app.db()
    .newQuery(
      "SELECT TRIM(COALESCE(NULLIF(p.preferredName, ''), p.firstName) || ' ' || p.lastName) AS name FROM group_members m " +
        "JOIN people p ON p.id = m.person WHERE m.`group` = {:g} AND m.status = 'active' AND m.role = 'leader' ORDER BY p.lastName, p.firstName",
    )
    .bind({ g: groupId })
    .all(rows);
  return rows.map((r) => r.name);
}

module.exports = { admit, recount, activeMembers, leaderNames };
