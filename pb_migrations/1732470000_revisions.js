/// <reference path="../pb_data/types.d.ts" />
// Revisions of posts and pages (issue 12):
// - the working copy (working = true, at most one per document) of a published or scheduled post or
//   page: autosave writes it instead of the live record, "Update" copies it to the live record;
// - the history (working = false): the last saved versions of every document, to view and restore.
// Editors only (content.edit): nothing here is public. Making a working copy live still needs
// content.publish, through the posts/pages rules.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const editor = has("content.edit");

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const posts = app.findCollectionByNameOrId("posts");
    const pages = app.findCollectionByNameOrId("pages");
    const revisions = new Collection({
      type: "base",
      name: "revisions",
      listRule: editor,
      viewRule: editor,
      createRule: `${editor} && @request.body.editedBy = @request.auth.id`,
      updateRule: `${editor} && @request.body.editedBy = @request.auth.id`,
      deleteRule: editor,
      fields: [
        // One of the two is set; a revision goes with its document.
        { name: "post", type: "relation", collectionId: posts.id, maxSelect: 1, cascadeDelete: true },
        { name: "page", type: "relation", collectionId: pages.id, maxSelect: 1, cascadeDelete: true },
        { name: "working", type: "bool" },
        // A history entry of a version that went live (publish or "Update"), never folded into later saves.
        { name: "published", type: "bool" },
        { name: "title", type: "text", max: 200 },
        { name: "body", type: "text", max: 200000 },
        // The other fields of the document's form (slug, summary, cover, audience, pinned, seoDescription, showInNav).
        { name: "fields", type: "json", maxSize: 20000 },
        // The working copy's revision number (optimistic concurrency, as on posts and pages).
        { name: "revision", type: "number", onlyInt: true, min: 0 },
        { name: "editedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "editorName", type: "text", max: 200 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: [
        "CREATE INDEX idx_revisions_post ON revisions (post, working, created)",
        "CREATE INDEX idx_revisions_page ON revisions (page, working, created)",
        "CREATE UNIQUE INDEX idx_revisions_working_post ON revisions (post) WHERE working = TRUE AND post != ''",
        "CREATE UNIQUE INDEX idx_revisions_working_page ON revisions (page) WHERE working = TRUE AND page != ''",
      ],
    });
    app.save(revisions);
  },
  (app) => {
    try {
      app.delete(app.findCollectionByNameOrId("revisions"));
    } catch (_) {
      /* already gone */
    }
  },
);
