/// <reference path="../pb_data/types.d.ts" />
// posts.editedAt: when the post was last changed by anyone, including its working copy (revisions).
// Autosave of a live post writes the working copy, not the post, so `updated` no longer says when an
// editor last touched it; the staff list "last edited first" sorts by this instead. Kept by
// pb_hooks/revisions.pb.js on every write path; nobody sets it through the API.

migrate(
  (app) => {
    const posts = app.findCollectionByNameOrId("posts");
    posts.fields.add(new DateField({ name: "editedAt" }));
    posts.addIndex("idx_posts_edited", false, "editedAt", "");
    app.save(posts);
    app.db().newQuery("UPDATE posts SET editedAt = updated").execute();
  },
  (app) => {
    const posts = app.findCollectionByNameOrId("posts");
    posts.removeIndex("idx_posts_edited");
    posts.fields.removeByName("editedAt");
    app.save(posts);
  },
);
