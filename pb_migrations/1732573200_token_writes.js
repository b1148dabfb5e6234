/// <reference path="../pb_data/types.d.ts" />
// API tokens write nothing without a write scope (docs/API.md; issue 23, item 3). A token acts as its
// api_clients identity, and the rules below let a caller write by being a visitor (visit requests, prayer
// requests, sign-up) or by matching `@request.auth.id` / `@request.auth.person` — which an api_clients
// record has or lacks in ways those rules never meant. Every create, update and delete rule that is open
// to someone without a staff permission is stated whole again here, behind
// `@request.auth.collectionName != "api_clients"`. Not here: posts and revisions (the content.write
// scope's draft posts, 1732540000_content_write_scope.js, which already name tokens), and rules that
// need a staff permission in every branch (a token has no roles). rsvps and registrations are left to
// the migration that restates their rules for the event rules (issue 23, item 6): until then a token's
// RSVP or registration is refused by their `user` relation (a client id is no user) and by the gateway.
// The text after the guard is each rule as the earlier migrations left it (dumped from a migrated
// database), so the down migration restores exactly that.

const GUARD = '@request.auth.collectionName != "api_clients"';

/** collection → rule → the rule before this migration. */
const BEFORE = {
  users: {
    createRule:
      "@collection.settings.allowSignup ?= true && @request.body.roles:isset = false && @request.body.person:isset = false && @request.body.status:isset = false",
    updateRule:
      '(id = @request.auth.id && @request.body.roles:isset = false && @request.body.person:isset = false && @request.body.status:isset = false) || @request.auth.roles.permissions:each ?= "roles.manage" || (@request.auth.roles.permissions:each ?= "people.manage" && @request.body.roles:isset = false && @request.body.status:isset = false && @request.body.email:isset = false && @request.body.verified:isset = false)',
  },
  people: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || (@request.auth.person.recordStatus = "active" && @request.auth.person.ageGroup = "adult" && (@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && householdRole = "child" && recordStatus = "active" && @request.body.membershipStatus:isset = false && @request.body.mergedInto:isset = false && @request.body.anonymizedAt:isset = false)',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((id = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && ageGroup != "adult")) && @request.body.recordStatus:isset = false && @request.body.membershipStatus:isset = false && @request.body.household:isset = false && @request.body.householdRole:isset = false && @request.body.ageGroup:isset = false && @request.body.inDirectory:isset = false && @request.body.mergedInto:isset = false && @request.body.anonymizedAt:isset = false)',
  },
  households: {
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && id = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && @request.body.inDirectory:isset = false)',
  },
  person_private: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")) && @request.body.person:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
  },
  person_emails: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")) && @request.body.person:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
  },
  person_phones: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")) && @request.body.person:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
  },
  person_birthdays: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")) && @request.body.person:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || person = @request.auth.person || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && person.household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && person.ageGroup != "adult")',
  },
  addresses: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && @request.body.household:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult")',
  },
  household_invitations: {
    createRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || (@request.auth.person.recordStatus = "active" && @request.auth.person.ageGroup = "adult" && (@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && invitedBy = @request.auth.person && status = "pending")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "people.manage" || ((@request.auth.person.recordStatus = "active" && @request.auth.person.household != "" && household = @request.auth.person.household) && @request.auth.person.ageGroup = "adult" && @request.body.status = "revoked" && @request.body.household:isset = false && @request.body.tokenHash:isset = false && @request.body.email:isset = false)',
  },
  visit_requests: {
    createRule:
      'status = "new" && @request.body.staffNote:isset = false && @request.body.person:isset = false',
  },
  prayer_requests: {
    createRule:
      '((status = "pending" || (status = "approved" && @collection.settings.prayerRequiresApproval ?= false)) && prayedCount = 0 && flagCount = 0 && answerNote = "" && rejectReason = "" && (anonymous = true && authorName = "" || anonymous = false && (@request.auth.id = "" || authorName = @request.auth.name)) && (visibility = "public" || visibility = "members" || visibility = "pastoral")) && (group = "" || (visibility = "members" && @request.auth.person.recordStatus = "active" && (group != "" && @request.auth.person != "" && @request.auth.person.group_access_via_person.memberGroups ~ group)))',
    updateRule:
      '(@request.auth.roles.permissions:each ?= "prayer.view_pastoral" || (@request.auth.roles.permissions:each ?= "prayer.moderate" && visibility != "pastoral" && @request.body.visibility != "pastoral") || (@request.auth.id != "" && prayer_request_private_via_request.user ?= @request.auth.id && status = "approved" && @request.body.status = "answered" && @request.body.body:isset = false && @request.body.visibility:isset = false && @request.body.anonymous:isset = false && @request.body.authorName:isset = false && @request.body.prayedCount:isset = false && @request.body.flagCount:isset = false && @request.body.expiresAt:isset = false)) && @request.body.group:isset = false',
  },
  prayer_marks: {
    createRule:
      '(((@request.auth.id != "" && user = @request.auth.id && deviceKey = "") || (@request.auth.id = "" && user = "" && deviceKey != "")) && (day = strftime(\'%Y-%m-%d\', @yesterday) || day = strftime(\'%Y-%m-%d\', @now) || day = strftime(\'%Y-%m-%d\', @tomorrow)) && (((request.status = "approved" || request.status = "answered") && ((request.visibility = "public" && (@collection.settings.prayerPublicWall ?= true || @request.auth.person.recordStatus = "active")) || (request.visibility = "members" && @request.auth.person.recordStatus = "active"))) || (request.visibility = "pastoral" && @request.auth.roles.permissions:each ?= "prayer.view_pastoral"))) && (request.group = "" || (@request.auth.id != "" && (request.group != "" && @request.auth.person != "" && @request.auth.person.group_access_via_person.memberGroups ~ request.group)))',
  },
  prayer_flags: {
    createRule:
      '(@request.auth.person.recordStatus = "active" && user = @request.auth.id && ((request.status = "approved" || request.status = "answered") && (request.visibility = "public" || (request.visibility = "members" && @request.auth.person.recordStatus = "active")))) && (request.group = "" || (request.group != "" && @request.auth.person != "" && @request.auth.person.group_access_via_person.memberGroups ~ request.group))',
  },
  notifications: {
    updateRule:
      '@request.auth.id != "" && user = @request.auth.id && @request.body.user:isset = false && @request.body.kind:isset = false && @request.body.title:isset = false && @request.body.body:isset = false && @request.body.link:isset = false && @request.body.groupKey:isset = false && @request.body.count:isset = false',
    deleteRule: '@request.auth.id != "" && user = @request.auth.id',
  },
  staff_alert_prefs: {
    createRule:
      '@request.auth.id != "" && user = @request.auth.id && @request.body.lastDigestAt:isset = false',
    updateRule:
      '@request.auth.id != "" && user = @request.auth.id && @request.body.user:isset = false && @request.body.lastDigestAt:isset = false',
  },
  groups: {
    updateRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || ((@request.auth.person != "" && group_members_via_group.person ?= @request.auth.person && group_members_via_group.status ?= "active" && group_members_via_group.role ?= "leader") && @request.body.slug:isset = false && @request.body.visibility:isset = false && @request.body.status:isset = false && @request.body.type:isset = false && @request.body.memberCount:isset = false && @request.body.joinPolicy:isset = false && @request.body.capacity:isset = false && @request.body.leaderNames:isset = false)',
  },
  group_members: {
    createRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || (@request.auth.person != "" && @collection.group_members:body.group ?= @request.body.group && @collection.group_members:body.person ?= @request.auth.person && @collection.group_members:body.status ?= "active" && @collection.group_members:body.role ?= "leader") || (@request.body.person = @request.auth.person && @request.auth.person.recordStatus = "active" && @request.body.role = "member" && @request.body.status = "active" && @request.body.group.joinPolicy = "open" && (@request.body.group.status = "active" && (@request.body.group.visibility = "public" || (@request.body.group.visibility = "members" && @request.auth.person.recordStatus = "active"))) && @request.body.lastReadAt:isset = false && @request.body.chatNotifiedAt:isset = false)',
    updateRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || ((@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader") && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.chatNotifiedAt:isset = false) || (person = @request.auth.person && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.role:isset = false && @request.body.status:isset = false && @request.body.chatNotifiedAt:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || person = @request.auth.person || (@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader")',
  },
  group_join_requests: {
    createRule:
      '@request.body.person = @request.auth.person && @request.auth.person.recordStatus = "active" && @request.body.status = "pending" && @request.body.group.joinPolicy = "request" && (@request.body.group.status = "active" && (@request.body.group.visibility = "public" || (@request.body.group.visibility = "members" && @request.auth.person.recordStatus = "active"))) && @request.body.decidedBy:isset = false && @request.body.decidedAt:isset = false',
    updateRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || ((@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader") && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.message:isset = false) || (person = @request.auth.person && @request.body.status = "cancelled" && @request.body.group:isset = false && @request.body.person:isset = false && @request.body.message:isset = false && @request.body.decidedBy:isset = false)',
  },
  group_messages: {
    createRule:
      '(@request.auth.person != "" && @collection.group_members:body.group ?= @request.body.group && @collection.group_members:body.person ?= @request.auth.person && @collection.group_members:body.status ?= "active") && @request.body.author = @request.auth.person && @request.body.group.chatEnabled = true && @request.body.group.status = "active" && @request.body.editedAt:isset = false',
    updateRule:
      'author = @request.auth.person && (@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active") && @request.body.group:isset = false && @request.body.author:isset = false && @request.body.clientKey:isset = false',
    deleteRule:
      '(author = @request.auth.person && (@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active")) || (@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader")',
  },
  group_addresses: {
    createRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || (@request.auth.person != "" && @collection.group_members:body.group ?= @request.body.group && @collection.group_members:body.person ?= @request.auth.person && @collection.group_members:body.status ?= "active" && @collection.group_members:body.role ?= "leader")',
    updateRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || ((@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader") && @request.body.group:isset = false)',
    deleteRule:
      '@request.auth.roles.permissions:each ?= "groups.manage" || (@request.auth.person != "" && group.group_members_via_group.person ?= @request.auth.person && group.group_members_via_group.status ?= "active" && group.group_members_via_group.role ?= "leader")',
  },
};

migrate(
  (app) => {
    for (const [name, rules] of Object.entries(BEFORE)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const [rule, text] of Object.entries(rules)) collection[rule] = `${GUARD} && (${text})`;
      app.save(collection);
    }
  },
  (app) => {
    for (const [name, rules] of Object.entries(BEFORE)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const [rule, text] of Object.entries(rules)) collection[rule] = text;
      app.save(collection);
    }
  },
);
