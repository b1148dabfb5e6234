/// <reference path="../pb_data/types.d.ts" />
// The sermon editor autosaves like the post editor (issue 26): sermons.revision counts saves, and a save
// sent over an older revision is refused by the gateway (stale_revision), so two editors of one sermon
// never overwrite each other without a word. Existing sermons start at 0.

migrate(
  (app) => {
    const sermons = app.findCollectionByNameOrId("sermons");
    sermons.fields.add(new NumberField({ name: "revision", onlyInt: true, min: 0 }));
    app.save(sermons);
  },
  (app) => {
    const sermons = app.findCollectionByNameOrId("sermons");
    sermons.fields.removeByName("revision");
    app.save(sermons);
  },
);
