/// <reference path="../pb_data/types.d.ts" />
// Lists that members read cost what guests pay (QUALITY F4), at any number of records.
//
// For a signed-in caller, a rule that reads `@request.auth.<relation>` (roles.permissions:each,
// person.recordStatus) makes PocketBase join the auth record and select DISTINCT. The old indexes
// could narrow the scan (status, audience, …) but not give the list's sort order, so SQLite sorted
// every matching row in a temporary B-tree and de-duplicated whole rows: at 500 posts a member's news
// page took 6–9 ms against 1.5–2 ms for a guest (measured on 0.40.4). Indexes in the lists' own sort
// order let SQLite walk the newest rows first, evaluate the rule row by row and stop at the page size,
// for guests and members alike (members 1.1–1.35× guests at 500 posts, 300 prayer requests, 700
// households; `npm run bench -- --scenario=scale`).

const INDEXES = {
  posts: [
    // The news list: status = "published", sort -publishedAt,-id (and its keyset cursor).
    "CREATE INDEX idx_posts_published ON posts (status, publishedAt, id)",
    // The home page: status = "published", sort -pinned,-publishedAt,-id.
    "CREATE INDEX idx_posts_home ON posts (status, pinned, publishedAt, id)",
  ],
  // The wall: approved or answered, sort -created,-id; most requests are on the wall, so walking
  // by date stops after about one page.
  prayer_requests: ["CREATE INDEX idx_prayer_requests_created ON prayer_requests (created, id)"],
  // A member's own marks and flags, read without a filter in their list order (gateway prayer/loaders.ts).
  prayer_marks: ["CREATE INDEX idx_prayer_marks_user ON prayer_marks (user, day, id)"],
  prayer_flags: ["CREATE INDEX idx_prayer_flags_user_created ON prayer_flags (user, created, id)"],
  // The directory: inDirectory = true, sort name,id (idx_households_name is NOCASE and cannot give it).
  households: ["CREATE INDEX idx_households_directory ON households (inDirectory, name, id)"],
};

const nameOf = (sql) => sql.split(" ON ")[0].split(" ").pop();

migrate(
  (app) => {
    for (const [collectionName, indexes] of Object.entries(INDEXES)) {
      const collection = app.findCollectionByNameOrId(collectionName);
      const names = indexes.map(nameOf);
      collection.indexes = [...collection.indexes.filter((sql) => !names.includes(nameOf(sql))), ...indexes];
      app.save(collection);
    }
  },
  (app) => {
    for (const [collectionName, indexes] of Object.entries(INDEXES)) {
      const collection = app.findCollectionByNameOrId(collectionName);
      const names = indexes.map(nameOf);
      collection.indexes = collection.indexes.filter((sql) => !names.includes(nameOf(sql)));
      app.save(collection);
    }
  },
);
