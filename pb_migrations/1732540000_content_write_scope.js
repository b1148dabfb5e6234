/// <reference path="../pb_data/types.d.ts" />
// Integrators (issue 16): the write scope "content.write". A client with it may create draft posts
// (news) and edit the drafts it created — nothing else: never publish, schedule, unpublish, archive or
// delete, never touch pages, another client's or a person's post, or a post once it is not a draft.
// It reads its own drafts (to edit them) and never anyone else's.
//
// Attribution: posts and revisions name a user account today (posts.author / updatedBy,
// revisions.editedBy). A client's writes name the client instead, in new relations to api_clients:
//   - posts.authorClient: the client that wrote the post (set on create, never changed by anyone);
//   - posts.updatedByClient: the client that saved it last (staff saving it clear it);
//   - revisions.editedByClient: the client that saved that version (history: "<token name>").
// The byline (posts.authorName) and the history's editorName must be the client's own name.
//
// The existing branches are kept as they were (the people and content authorization tables still
// hold); the person branches of create and of every update only gain "authorClient untouched", so
// no person can hand a post to a client (which would let the client read and edit it).
const scope = (name) => `@request.auth.scopes:each ?= "${name}"`;
const WRITE = scope("content.write");
const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const editor = has("content.edit");
const publisher = has("content.publish");
const staff = `(${editor} || ${publisher})`;
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const MEMBERS = `(${ACTIVE} || ${scope("content.members")})`;
/** A body field left alone or emptied (a client never sets it). */
const unsetOrEmpty = (field) => `(@request.body.${field}:isset = false || @request.body.${field} = "")`;

// ─── posts ─────────────────────────────────────────────────────────────────────────────────────
const POSTS_READ = `(status = "published" && (audience = "public" || ${MEMBERS})) || ${staff}`;
const POSTS_CREATE = `@request.body.author = @request.auth.id && (${publisher} || (${editor} && @request.body.status = "draft"))`;
const POSTS_UPDATE =
  `@request.body.author:changed = false && ` +
  `(${publisher} || (${editor} && status = "draft" && (@request.body.status:isset = false || @request.body.status = "draft")))`;

const CLIENT_READS_POST = `(${WRITE} && authorClient = @request.auth.id && status = "draft")`;
const CLIENT_CREATES_POST =
  `(${WRITE} && @request.body.authorClient = @request.auth.id && @request.body.updatedByClient = @request.auth.id && ` +
  `@request.body.authorName = @request.auth.name && @request.body.status = "draft" && ` +
  `${unsetOrEmpty("author")} && ${unsetOrEmpty("updatedBy")} && ${unsetOrEmpty("publishAt")} && ${unsetOrEmpty("publishedAt")})`;
const CLIENT_UPDATES_POST =
  `(${WRITE} && authorClient = @request.auth.id && status = "draft" && ` +
  `(@request.body.status:isset = false || @request.body.status = "draft") && ` +
  `@request.body.publishAt:changed = false && @request.body.publishedAt:changed = false && @request.body.authorName:changed = false && ` +
  `${unsetOrEmpty("updatedBy")} && (@request.body.updatedByClient:isset = false || @request.body.updatedByClient = @request.auth.id))`;

// ─── revisions (history entries of the client's own drafts; never working copies, never pages) ──
const REVISIONS_WRITE = `${staff} && @request.body.editedBy = @request.auth.id`;
const OWN_DRAFT = `post.authorClient = @request.auth.id && post.status = "draft"`;
const CLIENT_READS_REVISIONS = `(${WRITE} && ${OWN_DRAFT})`;
const CLIENT_CREATES_REVISION =
  `(${WRITE} && @request.body.editedByClient = @request.auth.id && @request.body.editorName = @request.auth.name && ` +
  `@request.body.post.authorClient = @request.auth.id && @request.body.post.status = "draft" && ` +
  `${unsetOrEmpty("page")} && ${unsetOrEmpty("editedBy")} && @request.body.working = false && @request.body.published = false)`;
const CLIENT_OWN_ENTRY = `${WRITE} && editedByClient = @request.auth.id && ${OWN_DRAFT} && working = false && published = false`;
const CLIENT_UPDATES_REVISION =
  `(${CLIENT_OWN_ENTRY} && @request.body.post:changed = false && @request.body.page:changed = false && ` +
  `@request.body.working:changed = false && @request.body.published:changed = false && @request.body.editedByClient:changed = false && ` +
  `${unsetOrEmpty("editedBy")} && (@request.body.editorName:isset = false || @request.body.editorName = @request.auth.name))`;

/** collection → rule → [before this migration, after]. */
const RULES = {
  posts: {
    listRule: [POSTS_READ, `${POSTS_READ} || ${CLIENT_READS_POST}`],
    viewRule: [POSTS_READ, `${POSTS_READ} || ${CLIENT_READS_POST}`],
    createRule: [
      POSTS_CREATE,
      `(${POSTS_CREATE} && ${unsetOrEmpty("authorClient")}) || ${CLIENT_CREATES_POST}`,
    ],
    updateRule: [
      POSTS_UPDATE,
      `@request.body.authorClient:changed = false && @request.body.author:changed = false && ((${POSTS_UPDATE}) || ${CLIENT_UPDATES_POST})`,
    ],
  },
  revisions: {
    listRule: [staff, `${staff} || ${CLIENT_READS_REVISIONS}`],
    viewRule: [staff, `${staff} || ${CLIENT_READS_REVISIONS}`],
    createRule: [
      REVISIONS_WRITE,
      `(${REVISIONS_WRITE} && ${unsetOrEmpty("editedByClient")}) || ${CLIENT_CREATES_REVISION}`,
    ],
    updateRule: [
      REVISIONS_WRITE,
      `(${REVISIONS_WRITE} && ${unsetOrEmpty("editedByClient")}) || ${CLIENT_UPDATES_REVISION}`,
    ],
    // Trimming the history: a client removes only its own unpublished entries of its own drafts.
    deleteRule: [staff, `${staff} || (${CLIENT_OWN_ENTRY})`],
  },
};

const FIELDS = { posts: ["authorClient", "updatedByClient"], revisions: ["editedByClient"] };

const setScopeValue = (app, on) => {
  const clients = app.findCollectionByNameOrId("api_clients");
  const scopes = clients.fields.getByName("scopes");
  const others = scopes.values.filter((value) => value !== "content.write");
  scopes.values = on ? [...others, "content.write"] : others;
  scopes.maxSelect = scopes.values.length;
  app.save(clients);
};

/** `index` 0: the rules before this migration, 1: after. Refuses to overwrite rules that moved since. */
const applyRules = (app, index) => {
  for (const [name, rules] of Object.entries(RULES)) {
    const collection = app.findCollectionByNameOrId(name);
    for (const [rule, values] of Object.entries(rules)) {
      const current = collection[rule] == null ? null : String(collection[rule]);
      if (current !== values[1 - index])
        throw new Error(`${name}.${rule} is not what this migration expects: ${current}`);
      collection[rule] = values[index];
    }
    app.save(collection);
  }
};

migrate(
  (app) => {
    setScopeValue(app, true);
    const clients = app.findCollectionByNameOrId("api_clients");
    for (const [name, fields] of Object.entries(FIELDS)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const field of fields)
        collection.fields.add(new RelationField({ name: field, collectionId: clients.id, maxSelect: 1 }));
      app.save(collection);
    }
    applyRules(app, 1);
  },
  (app) => {
    applyRules(app, 0);
    for (const [name, fields] of Object.entries(FIELDS)) {
      const collection = app.findCollectionByNameOrId(name);
      for (const field of fields) collection.fields.removeByName(field);
      app.save(collection);
    }
    for (const client of app.findRecordsByFilter("api_clients", 'scopes ~ "content.write"', "", 0, 0)) {
      client.set(
        "scopes",
        client.get("scopes").filter((value) => value !== "content.write"),
      );
      app.save(client);
    }
    setScopeValue(app, false);
  },
);
