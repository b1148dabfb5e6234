/// <reference path="../pb_data/types.d.ts" />
// Group prayer requests (issue 15: "the prayer wall filtered to the group"). A prayer request may belong
// to a group (`group`); such a request is never on the church's wall: it is read by the group's active
// members (while the group is active), by moderators and pastoral staff as any request, and by its
// requester. Only an active member asks for one, with "members" visibility; nobody moves a request to
// another group afterwards. "I prayed" and flags follow who may read it.
//
// The member test reads the caller's own group_access row (`memberGroups`, the ids of their active
// groups, kept by pb_hooks/groups.pb.js): one row per person (a unique index, so PocketBase joins it as
// a single value), never the membership back-relations (see 1732500000_groups.js).
//
// The existing rules (the wall's privacy setting, API-token scopes) are kept as they are and narrowed
// by a condition appended to them, which the down migration takes off again.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const MODERATE = has("prayer.moderate");
const PASTORAL = has("prayer.view_pastoral");
const IS_REQUESTER = "prayer_request_private_via_request.user ?= @request.auth.id";
/** The caller is an active member of the (active) group at `field`. */
const inMyGroups = (field) =>
  `(${field} != "" && @request.auth.person != "" && @request.auth.person.group_access_via_person.memberGroups ~ ${field})`;

const NARROWING = {
  prayer_requests: {
    listRule: `(group = "" || ${inMyGroups("group")} || ${PASTORAL} || (${MODERATE} && visibility != "pastoral") || (@request.auth.id != "" && ${IS_REQUESTER}))`,
    viewRule: `(group = "" || ${inMyGroups("group")} || ${PASTORAL} || (${MODERATE} && visibility != "pastoral") || (@request.auth.id != "" && ${IS_REQUESTER}))`,
    createRule: `(group = "" || (visibility = "members" && ${ACTIVE} && ${inMyGroups("group")}))`,
    updateRule: "@request.body.group:isset = false",
  },
  prayer_marks: {
    createRule: `(request.group = "" || (@request.auth.id != "" && ${inMyGroups("request.group")}))`,
  },
  prayer_flags: {
    createRule: `(request.group = "" || ${inMyGroups("request.group")})`,
  },
};

migrate(
  (app) => {
    const requests = app.findCollectionByNameOrId("prayer_requests");
    const groups = app.findCollectionByNameOrId("groups");
    // Deleting a group deletes its requests (nobody else could read them).
    requests.fields.add(
      new RelationField({ name: "group", collectionId: groups.id, maxSelect: 1, cascadeDelete: true }),
    );
    requests.indexes = [
      ...requests.indexes,
      "CREATE INDEX idx_prayer_requests_group ON prayer_requests (`group`, created)",
    ];
    app.save(requests);
    for (const [name, rules] of Object.entries(NARROWING)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const [rule, narrowing] of Object.entries(rules)) {
        // Rules are Go *string values here: String() gives the text (null: locked, and stays locked).
        if (collection[rule] == null) continue;
        collection[rule] = `(${String(collection[rule])}) && ${narrowing}`;
      }
      app.save(collection);
    }
  },
  (app) => {
    for (const [name, rules] of Object.entries(NARROWING)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const [rule, narrowing] of Object.entries(rules)) {
        if (collection[rule] == null) continue;
        const current = String(collection[rule]);
        const suffix = `) && ${narrowing}`;
        if (current.startsWith("(") && current.endsWith(suffix))
          collection[rule] = current.slice(1, -suffix.length);
      }
      app.save(collection);
    }
    const requests = app.findCollectionByNameOrId("prayer_requests");
    requests.indexes = requests.indexes.filter((sql) => !sql.includes("idx_prayer_requests_group "));
    requests.fields.removeByName("group");
    app.save(requests);
  },
);
