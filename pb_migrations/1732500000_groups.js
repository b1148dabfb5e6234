/// <reference path="../pb_data/types.d.ts" />
// Groups (PRODUCT.md §4, issue 15): groups, their members, join requests, chat messages and the
// exact meeting address (a row of its own, because rules filter rows, not columns).
//
// Who sees what:
// - a group: `groups.manage`, its active members, and otherwise (while active) everyone when it is
//   "public", active members of the church when it is "members"; a "hidden" group never appears to
//   anyone else (not in lists, not by id, not in realtime).
// - a roster row (group_members): `groups.manage`, the person themself, the group's leaders, and the
//   group's members when the roster is "members" — never a child's row (children only to leaders).
// - join requests: the requester, the group's leaders and `groups.manage`.
// - chat (group_messages): the group's active members only (staff do not read chats); the author edits
//   and deletes their own message, leaders delete any message of their group.
// - the exact address (group_addresses): the group's members and `groups.manage`.
// Leaders manage their own group's members and requests and edit its description, schedule and
// location; a leader of group A has no rights in group B. Creating, archiving and hiding groups is
// `groups.manage` work. memberCount is kept by pb_hooks/groups.pb.js (capacity is decided there, in the
// insert's transaction).
//
// The people rules widen here: a contact row marked "groups" is readable by the person's fellow
// active members of an active group (not of a child), one marked "leaders" by the leaders of such a
// group; people are readable by those who may see them on a roster.
//
// Those people rules read `group_access`: one row per person listing, as text, the people who may see
// them through groups (fellow members of rosters open to members, fellow members, leaders, leaders of a
// group they ask to join), kept by pb_hooks/groups.pb.js in each write's transaction. A rule then joins
// one row per person and tests `~ @request.auth.person` (ids are 15 letters and digits, so a substring
// match is an exact match). Written through the membership back-relations, or as sets of groups on both
// sides, every multi-valued path became a join, and PocketBase multiplies them before DISTINCT: people ×
// memberships × each group's members × … took 30 s for a staff search in CI, and a leader of 300 groups
// multiplied every person by 300 × 300. Nobody reads group_access through the API (its rules are null).
// The row also lists the person's own active groups (`memberGroups`), for rules about a group's content
// read by its members from a people-sized collection (group prayer requests, 1732520000_group_prayer.js):
// `@request.auth.person.group_access_via_person.memberGroups ~ group` joins the caller's one row.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const SLUG = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const MANAGE = has("groups.manage");
const ME = "@request.auth.person";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

// Membership tests on the group collections go through the back-relation `group_members_via_group`:
// PocketBase joins it on the relation (indexed), and the conditions on one path hold for one joined
// row. `@collection.group_members` joins are unconstrained: two of them in one rule made SQLite scan
// rows × members × members (a 30-second roster read at 1,300 memberships), so they appear only in
// create rules, which test one new row.
const via = (prefix) => `${prefix}group_members_via_group`;
/** The caller is an active member (any role) of the group at `prefix` ("" for a group, "group." for its rows). */
const memberOf = (prefix) =>
  `(${ME} != "" && ${via(prefix)}.person ?= ${ME} && ${via(prefix)}.status ?= "active")`;
/** The caller leads the group at `prefix`. */
const leaderOf = (prefix) =>
  `(${ME} != "" && ${via(prefix)}.person ?= ${ME} && ${via(prefix)}.status ?= "active" && ${via(prefix)}.role ?= "leader")`;
/** For create rules: the caller leads (or belongs to) the group named in the request body. */
const bodyGroup = (leader) =>
  `(${ME} != "" && @collection.group_members:body.group ?= @request.body.group && @collection.group_members:body.person ?= ${ME} && ` +
  `@collection.group_members:body.status ?= "active"${leader ? ' && @collection.group_members:body.role ?= "leader"' : ""})`;
/** The person at `personPath` (a people relation path, "" for a person itself) lists the caller in `list`. */
const listsMe = (personPath, list) => `(${ME} != "" && ${personPath}group_access_via_person.${list} ~ ${ME})`;
/**
 * The caller and the person at `personPath` are active members of one active group; `leaderOnly`: the
 * caller leads it; `roster`: that group shows its roster to its members.
 */
const sharesGroupWith = (personPath, { leaderOnly = false, roster = false } = {}) =>
  listsMe(personPath, leaderOnly ? "leaderViewers" : roster ? "rosterViewers" : "groupViewers");

/** A group the caller may find (it reaches the join form): active, not hidden, members-only for active members. */
const findable = (path) =>
  `(${path}status = "active" && (${path}visibility = "public" || (${path}visibility = "members" && ${ACTIVE})))`;

// The people migration's row rule, before groups (1732200000_people.js), and its widening.
const STAFF = `(${has("people.view")} || ${has("people.manage")})`;
const MY_HOUSEHOLD = "@request.auth.person.household";
const IN_MY_HOUSEHOLD = (field) => `(${ACTIVE} && ${MY_HOUSEHOLD} != "" && ${field} = ${MY_HOUSEHOLD})`;
const personRowRead =
  `${STAFF} || person = ${ME} || ${IN_MY_HOUSEHOLD("person.household")} || ` +
  `(visibility = "members" && person.inDirectory = true && ${ACTIVE})`;
const personRowReadWithGroups =
  `${personRowRead} || ((visibility = "groups" || visibility = "members") && person.ageGroup != "child" && ${sharesGroupWith("person.")}) || ` +
  `(visibility != "private" && ${sharesGroupWith("person.", { leaderOnly: true })})`;
const addressRead = `${STAFF} || ${IN_MY_HOUSEHOLD("household")} || (visibility = "members" && household.inDirectory = true && ${ACTIVE})`;
const addressReadWithGroups =
  `${addressRead} || ((visibility = "groups" || visibility = "members") && ${sharesGroupWith("household.people_via_household.")}) || ` +
  `(visibility != "private" && ${sharesGroupWith("household.people_via_household.", { leaderOnly: true })})`;
const peopleRead = `${STAFF} || id = ${ME} || ${IN_MY_HOUSEHOLD("household")} || (inDirectory = true && ${ACTIVE})`;
// On a roster: fellow members when the roster is open to members (never a child), the group's leaders.
// Leaders also see who asks to join their group (a pending request).
const askingToJoinMyGroup = listsMe("", "requestViewers");
const peopleReadWithGroups =
  `${peopleRead} || (ageGroup != "child" && ${sharesGroupWith("", { roster: true })}) || ` +
  `${sharesGroupWith("", { leaderOnly: true })} || ${askingToJoinMyGroup}`;

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");

    const groups = new Collection({
      type: "base",
      name: "groups",
      listRule: null,
      viewRule: null,
      createRule: MANAGE,
      updateRule: null,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        {
          name: "type",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["small_group", "class", "ministry", "team"],
        },
        { name: "description", type: "text", max: 200000 },
        {
          name: "photo",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["640x360", "1200x630"],
        },
        // The schedule in words ("Tuesdays 7 pm, every other week") and the day the finder filters by.
        { name: "schedule", type: "text", max: 200 },
        {
          name: "meetingDay",
          type: "select",
          maxSelect: 1,
          values: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
        },
        // The approximate area ("North side") shown when the location is "approximate"; the exact address
        // lives in group_addresses.
        { name: "area", type: "text", max: 100 },
        {
          name: "locationDisplay",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["hidden", "approximate", "exact"],
        },
        {
          name: "visibility",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["public", "members", "hidden"],
        },
        {
          name: "joinPolicy",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["open", "request", "closed"],
        },
        // 0: no limit.
        { name: "capacity", type: "number", onlyInt: true, min: 0, max: 10000 },
        {
          name: "rosterVisibility",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["leaders", "members"],
        },
        { name: "chatEnabled", type: "bool" },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["active", "archived"] },
        // Derived (pb_hooks/groups.pb.js): active members.
        { name: "memberCount", type: "number", onlyInt: true, min: 0 },
        // Derived (pb_hooks/groups.pb.js): the active leaders' display names, shown on the group's page to
        // whoever may find it (their people records stay as private as they are).
        { name: "leaderNames", type: "json", maxSize: 5000 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_groups_slug ON groups (slug)",
        "CREATE INDEX idx_groups_finder ON groups (status, visibility, name COLLATE NOCASE)",
      ],
    });
    app.save(groups);

    const members = new Collection({
      type: "base",
      name: "group_members",
      listRule: "",
      viewRule: "",
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "group",
          type: "relation",
          required: true,
          collectionId: groups.id,
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
        { name: "role", type: "select", required: true, maxSelect: 1, values: ["leader", "member"] },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["active", "inactive"] },
        // The member's own chat read marker (unread count) and the last chat notification (system).
        { name: "lastReadAt", type: "date" },
        { name: "chatNotifiedAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_group_members_unique ON group_members (`group`, person)",
        "CREATE INDEX idx_group_members_person ON group_members (person, status)",
      ],
    });
    app.save(members);
    // The rules name group_members itself (@collection.group_members), so they are set once it exists.
    const rosterRead =
      `${MANAGE} || person = ${ME} || ${leaderOf("group.")} || ` +
      `(group.rosterVisibility = "members" && person.ageGroup != "child" && status = "active" && ${memberOf("group.")})`;
    members.listRule = rosterRead;
    members.viewRule = rosterRead;
    members.createRule =
      `${MANAGE} || ${bodyGroup(true)} || ` +
      // Joining an open group: oneself, as a member, while it is findable.
      `(@request.body.person = ${ME} && ${ACTIVE} && @request.body.role = "member" && @request.body.status = "active" && ` +
      `@request.body.group.joinPolicy = "open" && ${findable("@request.body.group.")} && @request.body.lastReadAt:isset = false && ` +
      "@request.body.chatNotifiedAt:isset = false)";
    members.updateRule =
      `${MANAGE} || (${leaderOf("group.")} && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.chatNotifiedAt:isset = false) || ` +
      // A member marks the chat read, nothing else.
      `(person = ${ME} && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.role:isset = false && ` +
      "@request.body.status:isset = false && @request.body.chatNotifiedAt:isset = false)";
    members.deleteRule = `${MANAGE} || person = ${ME} || ${leaderOf("group.")}`;
    app.save(members);
    groups.listRule = `${MANAGE} || ${findable("")} || ${memberOf("")}`;
    groups.viewRule = `${MANAGE} || ${findable("")} || ${memberOf("")}`;
    // Leaders edit what their group says about itself; who may find and join it is staff work.
    groups.updateRule =
      `${MANAGE} || (${leaderOf("")} && @request.body.slug:isset = false && @request.body.visibility:isset = false && ` +
      "@request.body.status:isset = false && @request.body.type:isset = false && @request.body.memberCount:isset = false && " +
      "@request.body.joinPolicy:isset = false && @request.body.capacity:isset = false && @request.body.leaderNames:isset = false)";
    app.save(groups);

    const requests = new Collection({
      type: "base",
      name: "group_join_requests",
      listRule: `${MANAGE} || person = ${ME} || ${leaderOf("group.")}`,
      viewRule: `${MANAGE} || person = ${ME} || ${leaderOf("group.")}`,
      createRule:
        `@request.body.person = ${ME} && ${ACTIVE} && @request.body.status = "pending" && @request.body.group.joinPolicy = "request" && ` +
        `${findable("@request.body.group.")} && @request.body.decidedBy:isset = false && @request.body.decidedAt:isset = false`,
      // Leaders decide; the requester may only withdraw.
      updateRule:
        `${MANAGE} || (${leaderOf("group.")} && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.message:isset = false) || ` +
        `(person = ${ME} && @request.body.status = "cancelled" && @request.body.group:isset = false && @request.body.person:isset = false && ` +
        "@request.body.message:isset = false && @request.body.decidedBy:isset = false)",
      deleteRule: MANAGE,
      fields: [
        {
          name: "group",
          type: "relation",
          required: true,
          collectionId: groups.id,
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
        { name: "message", type: "text", max: 1000 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "approved", "declined", "cancelled"],
        },
        { name: "decidedBy", type: "relation", collectionId: people.id, maxSelect: 1 },
        { name: "decidedAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        // One pending request per person and group.
        "CREATE UNIQUE INDEX idx_group_join_requests_pending ON group_join_requests (`group`, person) WHERE status = 'pending'",
        "CREATE INDEX idx_group_join_requests_group ON group_join_requests (`group`, status, created)",
        "CREATE INDEX idx_group_join_requests_person ON group_join_requests (person, status)",
      ],
    });
    app.save(requests);

    const messages = new Collection({
      type: "base",
      name: "group_messages",
      listRule: memberOf("group."),
      viewRule: memberOf("group."),
      createRule:
        `${bodyGroup(false)} && @request.body.author = ${ME} && @request.body.group.chatEnabled = true && ` +
        '@request.body.group.status = "active" && @request.body.editedAt:isset = false',
      // The author edits the text of their own message while still a member.
      updateRule: `author = ${ME} && ${memberOf("group.")} && @request.body.group:isset = false && @request.body.author:isset = false && @request.body.clientKey:isset = false`,
      deleteRule: `(author = ${ME} && ${memberOf("group.")}) || ${leaderOf("group.")}`,
      fields: [
        {
          name: "group",
          type: "relation",
          required: true,
          collectionId: groups.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "author", type: "relation", required: true, collectionId: people.id, maxSelect: 1 },
        { name: "authorName", type: "text", max: 101 },
        { name: "body", type: "text", required: true, min: 1, max: 4000 },
        // The sender's idempotency key: a message sent twice (double click, resend after a dropped
        // connection) is stored once.
        { name: "clientKey", type: "text", required: true, min: 8, max: 64 },
        { name: "editedAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_group_messages_client_key ON group_messages (author, clientKey)",
        "CREATE INDEX idx_group_messages_history ON group_messages (`group`, created, id)",
      ],
    });
    app.save(messages);

    const addresses = new Collection({
      type: "base",
      name: "group_addresses",
      listRule: `${MANAGE} || ${memberOf("group.")}`,
      viewRule: `${MANAGE} || ${memberOf("group.")}`,
      createRule: `${MANAGE} || ${bodyGroup(true)}`,
      updateRule: `${MANAGE} || (${leaderOf("group.")} && @request.body.group:isset = false)`,
      deleteRule: `${MANAGE} || ${leaderOf("group.")}`,
      fields: [
        {
          name: "group",
          type: "relation",
          required: true,
          collectionId: groups.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "address", type: "text", required: true, min: 1, max: 500 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_group_addresses_group ON group_addresses (`group`)"],
    });
    app.save(addresses);

    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, "group_join_request", "group_request_decided", "group_chat"];
    app.save(notifications);

    const access = new Collection({
      type: "base",
      name: "group_access",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        // Space-separated person ids: fellow active members of the person's active groups whose roster is
        // open to members; of all their active groups; those groups' leaders; leaders of groups they ask to join.
        { name: "rosterViewers", type: "text", max: 0 },
        { name: "groupViewers", type: "text", max: 0 },
        { name: "leaderViewers", type: "text", max: 0 },
        { name: "requestViewers", type: "text", max: 0 },
        // Viewer side: the active groups the person is an active member of (their group prayer requests,
        // 1732520000_group_prayer.js).
        { name: "memberGroups", type: "text", max: 0 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_group_access_person ON group_access (person)"],
    });
    app.save(access);

    // "leaders" and "groups" now mean what they say.
    for (const name of ["person_emails", "person_phones", "person_birthdays"]) {
      const rows = app.findCollectionByNameOrId(name);
      rows.listRule = personRowReadWithGroups;
      rows.viewRule = personRowReadWithGroups;
      app.save(rows);
    }
    const homeAddresses = app.findCollectionByNameOrId("addresses");
    homeAddresses.listRule = addressReadWithGroups;
    homeAddresses.viewRule = addressReadWithGroups;
    app.save(homeAddresses);
    people.listRule = peopleReadWithGroups;
    people.viewRule = peopleReadWithGroups;
    app.save(people);
  },
  (app) => {
    for (const name of ["person_emails", "person_phones", "person_birthdays"]) {
      const rows = app.findCollectionByNameOrId(name);
      rows.listRule = personRowRead;
      rows.viewRule = personRowRead;
      app.save(rows);
    }
    const homeAddresses = app.findCollectionByNameOrId("addresses");
    homeAddresses.listRule = addressRead;
    homeAddresses.viewRule = addressRead;
    app.save(homeAddresses);
    const people = app.findCollectionByNameOrId("people");
    people.listRule = peopleRead;
    people.viewRule = peopleRead;
    app.save(people);
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter(
      (v) => !["group_join_request", "group_request_decided", "group_chat"].includes(v),
    );
    app.save(notifications);
    for (const name of [
      "group_access",
      "group_addresses",
      "group_messages",
      "group_join_requests",
      "group_members",
      "groups",
    ]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
  },
);
