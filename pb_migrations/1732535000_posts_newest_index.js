/// <reference path="../pb_data/types.d.ts" />
// The news list's real order is (publishedAt, created, id), newest first (gateway POSTS_NEWEST:
// `created` orders the drafts, whose publishedAt is empty). idx_posts_published (status, publishedAt,
// id) gives only the first key, so SQLite sorted each run of equal dates in a temporary B-tree: a
// member's news page cost PocketBase 2.9 ms against 1.1 ms for the same page in (publishedAt, id)
// order (p50 of PocketBase's execTime, 66 posts). With this index it walks the newest rows and stops
// at the page size. idx_posts_published stays: the feeds read in (publishedAt, id) order.

const INDEX = "CREATE INDEX idx_posts_newest ON posts (status, publishedAt, created, id)";

migrate(
  (app) => {
    const posts = app.findCollectionByNameOrId("posts");
    posts.indexes = [...posts.indexes.filter((sql) => !sql.includes("idx_posts_newest ")), INDEX];
    app.save(posts);
  },
  (app) => {
    const posts = app.findCollectionByNameOrId("posts");
    posts.indexes = posts.indexes.filter((sql) => !sql.includes("idx_posts_newest "));
    app.save(posts);
  },
);
