/// <reference path="../pb_data/types.d.ts" />
// Publishers read what they may change. A role with content.publish alone could update, publish and
// delete drafts (posts/pages update and delete rules: `publisher || …`) but not see them, nor the
// working copies and history of what they publish: the lists and views asked for content.edit only.
// Found by the record-level agreement test (gateway/test/access-agreement.int.test.ts): GraphQL said
// "may not edit" (the draft was invisible) while REST allowed it. Now every content rule that
// grants writers (content.edit) also grants publishers, as the gateway's `editContent` ability says.
const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const editor = has("content.edit");
const publisher = has("content.publish");
const activeMember = '@request.auth.person.recordStatus = "active"';
// `has(A) || has(B)` is fine; `has(A) && has(B)` never holds in PocketBase (see 1732100000_publishing.js).
const staff = `(${editor} || ${publisher})`;

const RULES = {
  pages: {
    listRule: [`status = "published" || ${editor}`, `status = "published" || ${staff}`],
    viewRule: [`status = "published" || ${editor}`, `status = "published" || ${staff}`],
  },
  posts: {
    listRule: [
      `(status = "published" && (audience = "public" || ${activeMember})) || ${editor}`,
      `(status = "published" && (audience = "public" || ${activeMember})) || ${staff}`,
    ],
    viewRule: [
      `(status = "published" && (audience = "public" || ${activeMember})) || ${editor}`,
      `(status = "published" && (audience = "public" || ${activeMember})) || ${staff}`,
    ],
  },
  revisions: {
    listRule: [editor, staff],
    viewRule: [editor, staff],
    createRule: [
      `${editor} && @request.body.editedBy = @request.auth.id`,
      `${staff} && @request.body.editedBy = @request.auth.id`,
    ],
    updateRule: [
      `${editor} && @request.body.editedBy = @request.auth.id`,
      `${staff} && @request.body.editedBy = @request.auth.id`,
    ],
    deleteRule: [editor, staff],
  },
};

/** `index` 0: the rules before this migration, 1: after. */
const apply = (app, index) => {
  for (const [name, rules] of Object.entries(RULES)) {
    const collection = app.findCollectionByNameOrId(name);
    for (const [rule, values] of Object.entries(rules)) collection[rule] = values[index];
    app.save(collection);
  }
};

migrate(
  (app) => apply(app, 1),
  (app) => apply(app, 0),
);
