/// <reference path="../pb_data/types.d.ts" />
// Who may read an event and its single-date changes, stated whole. The rule was built in two steps:
// 1732490000_events.js wrote it for active members, and 1732496000_api_clients.js widened each
// members-only branch with replaceAll so that API tokens with the content.members scope read what
// active members read. The live rule existed only after replaying both; here it is, word for word as
// those two leave it (the same text, so nothing changes on a church's database):
//   - anyone: a published or cancelled (never a draft) public event;
//   - active members (a signed-in person with recordStatus "active") and API tokens with the
//     content.members scope: members-only events too;
//   - events.manage: everything, drafts included.
// event_exceptions follow their event. Change this rule by writing the new whole text in a new migration.

const READ_RULES = {
  events:
    '(status != "draft" && (visibility = "public" || (@request.auth.person.recordStatus = "active" || @request.auth.scopes:each ?= "content.members"))) || @request.auth.roles.permissions:each ?= "events.manage"',
  event_exceptions:
    '(event.status != "draft" && (event.visibility = "public" || (@request.auth.person.recordStatus = "active" || @request.auth.scopes:each ?= "content.members"))) || @request.auth.roles.permissions:each ?= "events.manage"',
};

migrate(
  (app) => {
    for (const [name, rule] of Object.entries(READ_RULES)) {
      const collection = app.findCollectionByNameOrId(name);
      collection.listRule = rule;
      collection.viewRule = rule;
      app.save(collection);
    }
  },
  () => {
    // The rules were already these (the migrations before leave the same text): nothing to undo.
  },
);
