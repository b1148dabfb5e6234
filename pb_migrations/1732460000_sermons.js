/// <reference path="../pb_data/types.d.ts" />
// Sermons (PRODUCT.md §4): series, speakers and sermons. Limits mirror shared/src/limits.ts.
//
// Who sees what:
// - series and speakers are public (they only carry what the church shows on its site);
// - a sermon is public once published; drafts only for `sermons.manage`;
// - writing any of the three needs `sermons.manage`.
// Audio and attachments are protected files: PocketBase applies the sermon's view rule to them, so
// a draft's audio cannot be fetched by a guest who guessed its name (the gateway's /files proxy
// adds the caller's file token).
//
// Audio is a file on the sermon itself (not a media item): the media library caps files at 25 MB
// and holds images and documents, while sermon audio is up to 300 MB and belongs to one sermon.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const SLUG = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const MANAGE = has("sermons.manage");
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const AUDIO_TYPES = [
  "audio/mpeg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/aac",
  "audio/ogg",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
];

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");
    const users = app.findCollectionByNameOrId("users");

    const series = new Collection({
      type: "base",
      name: "sermon_series",
      listRule: "",
      viewRule: "",
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "description", type: "text", max: 5000 },
        {
          name: "artwork",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["400x400", "1400x1400"],
        },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_sermon_series_slug ON sermon_series (slug)",
        "CREATE INDEX idx_sermon_series_created ON sermon_series (created)",
      ],
    });
    app.save(series);

    const speakers = new Collection({
      type: "base",
      name: "speakers",
      listRule: "",
      viewRule: "",
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "bio", type: "text", max: 5000 },
        {
          name: "photo",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["160x160", "400x400"],
        },
        // Optional link to the person in the directory; the speaker's page never reads it for guests.
        { name: "person", type: "relation", collectionId: people.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_speakers_slug ON speakers (slug)",
        "CREATE INDEX idx_speakers_name ON speakers (name)",
      ],
    });
    app.save(speakers);

    const sermons = new Collection({
      type: "base",
      name: "sermons",
      listRule: `status = "published" || ${MANAGE}`,
      viewRule: `status = "published" || ${MANAGE}`,
      createRule: MANAGE,
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "slug", type: "text", required: true, min: 1, max: 120, pattern: SLUG },
        { name: "series", type: "relation", collectionId: series.id, maxSelect: 1 },
        { name: "speakers", type: "relation", collectionId: speakers.id, maxSelect: 10 },
        { name: "preachedOn", type: "date" },
        // What the editor typed ("John 3:16-21; Rom 8"), the parser's OSIS ("John.3.16-John.3.21,Rom.8")
        // and the books it names ("|John|Rom|", for the book filter).
        { name: "scripture", type: "text", max: 500 },
        { name: "scriptureOsis", type: "text", max: 2000 },
        { name: "scriptureBooks", type: "text", max: 1000 },
        { name: "summary", type: "text", max: 500 },
        { name: "notes", type: "text", max: 200000 },
        {
          name: "audio",
          type: "file",
          maxSelect: 1,
          maxSize: 300 * 1024 * 1024,
          mimeTypes: AUDIO_TYPES,
          protected: true,
        },
        { name: "audioSize", type: "number", onlyInt: true, min: 0 },
        { name: "audioType", type: "text", max: 100 },
        { name: "durationSeconds", type: "number", min: 0 },
        { name: "videoUrl", type: "text", max: 500 },
        {
          name: "attachments",
          type: "file",
          maxSelect: 10,
          maxSize: 25 * 1024 * 1024,
          mimeTypes: ["application/pdf"],
          protected: true,
        },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["draft", "published"] },
        { name: "publishedAt", type: "date" },
        { name: "updatedBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_sermons_slug ON sermons (slug)",
        "CREATE INDEX idx_sermons_list ON sermons (status, preachedOn)",
        "CREATE INDEX idx_sermons_series ON sermons (series, preachedOn)",
        "CREATE INDEX idx_sermons_updated ON sermons (updated)",
      ],
    });
    app.save(sermons);
  },
  (app) => {
    for (const name of ["sermons", "speakers", "sermon_series"]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
  },
);
