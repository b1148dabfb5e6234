/// <reference path="../pb_data/types.d.ts" />
// Publishing: the media library, pages and posts (news). Limits mirror shared/src/limits.ts.
//
// Who sees what (PRODUCT §4–§5):
// - drafts, scheduled and archived content: only people with content.edit;
// - published posts for "members": only signed-in users whose person is active;
// - publishing (or changing anything that is live) needs content.publish.
// A rule that hides a record answers 404, which the gateway keeps as NOT_FOUND.
//
// PocketBase joins every `@request.auth.roles.permissions:each ?= …` of one rule on the same row, so
// `has(A) && has(B)` can never be true (checked on 0.40.4). The rules are written so that no
// branch needs two permissions at once: "publisher || (editor && only-drafts)".

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const SLUG = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const activeMember = '@request.auth.person.recordStatus = "active"';
const editor = has("content.edit");
const publisher = has("content.publish");

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    const media = new Collection({
      type: "base",
      name: "media",
      // The library is for staff; one item is viewable by anyone who has its id, because published
      // pages show its image (and its width, height and alt text come from here).
      listRule: `${editor} || ${has("media.manage")}`,
      viewRule: "",
      createRule: `(${editor} || ${has("media.manage")}) && @request.body.uploadedBy = @request.auth.id`,
      updateRule: `(${editor} || ${has("media.manage")}) && @request.body.uploadedBy:changed = false`,
      // The gateway refuses deleting media that content still uses (CONFLICT) before it gets here.
      deleteRule: `${has("media.manage")} || (${editor} && uploadedBy = @request.auth.id)`,
      fields: [
        {
          name: "file",
          type: "file",
          required: true,
          maxSelect: 1,
          maxSize: 25 * 1024 * 1024,
          mimeTypes: ["image/jpeg", "image/png", "image/webp", "image/gif", "application/pdf"],
          thumbs: ["320x0", "800x0", "1600x0", "400x300"],
        },
        {
          name: "kind",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["image", "audio", "video", "document"],
        },
        { name: "filename", type: "text", max: 255 },
        { name: "mimeType", type: "text", max: 100 },
        { name: "alt", type: "text", max: 500 },
        { name: "caption", type: "text", max: 1000 },
        { name: "width", type: "number", onlyInt: true, min: 0 },
        { name: "height", type: "number", onlyInt: true, min: 0 },
        { name: "durationSeconds", type: "number", min: 0 },
        { name: "size", type: "number", onlyInt: true, min: 0 },
        { name: "uploadedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_media_created ON media (created)",
        "CREATE INDEX idx_media_kind ON media (kind)",
      ],
    });
    app.save(media);

    const pages = new Collection({
      type: "base",
      name: "pages",
      listRule: `status = "published" || ${editor}`,
      viewRule: `status = "published" || ${editor}`,
      // Editors write drafts; only publishers create published pages or touch live ones.
      createRule: `${publisher} || (${editor} && @request.body.status = "draft")`,
      updateRule: `${publisher} || (${editor} && status = "draft" && (@request.body.status:isset = false || @request.body.status = "draft"))`,
      deleteRule: publisher,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "body", type: "text", max: 200000 },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["draft", "published"] },
        { name: "showInNav", type: "bool" },
        { name: "navOrder", type: "number", onlyInt: true },
        { name: "seoDescription", type: "text", max: 300 },
        { name: "publishedAt", type: "date" },
        // Optimistic concurrency: every save sends the revision it started from (gateway checks it).
        { name: "revision", type: "number", onlyInt: true, min: 0 },
        { name: "updatedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_pages_slug ON pages (slug)",
        "CREATE INDEX idx_pages_nav ON pages (status, showInNav, navOrder)",
      ],
    });
    app.save(pages);

    const posts = new Collection({
      type: "base",
      name: "posts",
      listRule: `(status = "published" && (audience = "public" || ${activeMember})) || ${editor}`,
      viewRule: `(status = "published" && (audience = "public" || ${activeMember})) || ${editor}`,
      createRule: `@request.body.author = @request.auth.id && (${publisher} || (${editor} && @request.body.status = "draft"))`,
      updateRule:
        `@request.body.author:changed = false && ` +
        `(${publisher} || (${editor} && status = "draft" && (@request.body.status:isset = false || @request.body.status = "draft")))`,
      deleteRule: publisher,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "summary", type: "text", max: 500 },
        { name: "body", type: "text", max: 200000 },
        { name: "cover", type: "relation", collectionId: media.id, maxSelect: 1 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["draft", "scheduled", "published", "archived"],
        },
        { name: "publishAt", type: "date" },
        { name: "publishedAt", type: "date" },
        { name: "pinned", type: "bool" },
        { name: "audience", type: "select", required: true, maxSelect: 1, values: ["public", "members"] },
        { name: "author", type: "relation", collectionId: users.id, maxSelect: 1 },
        // The byline: accounts are private, so the name shown to readers is kept on the post.
        { name: "authorName", type: "text", max: 200 },
        { name: "revision", type: "number", onlyInt: true, min: 0 },
        { name: "updatedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_posts_slug ON posts (slug)",
        "CREATE INDEX idx_posts_feed ON posts (status, audience, publishedAt)",
        "CREATE INDEX idx_posts_schedule ON posts (status, publishAt)",
      ],
    });
    app.save(posts);
  },
  (app) => {
    for (const name of ["posts", "pages", "media"]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
  },
);
