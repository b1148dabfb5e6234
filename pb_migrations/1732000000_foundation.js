/// <reference path="../pb_data/types.d.ts" />
// Foundation schema: roles, people (minimal), settings (singleton) and the users auth collection.
// Limits mirror shared/src/limits.ts (a test compares them with the live schema).
// Authorization lives here, in the API rules; the gateway adds only what rules cannot express.

const PERMISSIONS = [
  "settings.manage",
  "roles.manage",
  "people.view",
  "people.manage",
  "content.edit",
  "content.publish",
  "sermons.manage",
  "events.manage",
  "groups.manage",
  "prayer.moderate",
  "prayer.view_pastoral",
  "media.manage",
];
// `:each ?=` is needed: a plain `?=` over relation→multi-select never matches (checked on 0.40.4).
const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

migrate(
  (app) => {
    const roles = new Collection({
      type: "base",
      name: "roles",
      // Any signed-in user may read role names (shown next to people); only role managers change them.
      listRule: '@request.auth.id != ""',
      viewRule: '@request.auth.id != ""',
      createRule: has("roles.manage"),
      updateRule: has("roles.manage"),
      deleteRule: has("roles.manage"),
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "description", type: "text", max: 500 },
        { name: "permissions", type: "select", values: PERMISSIONS, maxSelect: PERMISSIONS.length },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_roles_name ON roles (name COLLATE NOCASE)"],
    });
    app.save(roles);

    const people = new Collection({
      type: "base",
      name: "people",
      // Completed by the people issue (households, contact rows, directory). Until then: a person is
      // visible to themselves and to staff with people rights; only people managers change the status.
      listRule: `@request.auth.person = id || ${has("people.view")} || ${has("people.manage")}`,
      viewRule: `@request.auth.person = id || ${has("people.view")} || ${has("people.manage")}`,
      createRule: has("people.manage"),
      updateRule: `(@request.auth.person = id && @request.body.recordStatus:isset = false) || ${has("people.manage")}`,
      deleteRule: null, // archive instead (recordStatus = archived)
      fields: [
        { name: "firstName", type: "text", required: true, min: 1, max: 50 },
        { name: "lastName", type: "text", required: true, min: 1, max: 50 },
        {
          name: "recordStatus",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "active", "archived"],
        },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_people_status ON people (recordStatus)"],
    });
    app.save(people);

    const settings = new Collection({
      type: "base",
      name: "settings",
      // A public singleton: everything in it is shown on the public site. Created here, never deleted.
      listRule: "",
      viewRule: "",
      createRule: null,
      updateRule: has("settings.manage"),
      deleteRule: null,
      fields: [
        { name: "churchName", type: "text", required: true, min: 1, max: 200 },
        { name: "tagline", type: "text", max: 200 },
        {
          name: "logo",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["0x96", "192x192"],
        },
        { name: "brandColor", type: "text", pattern: "^#[0-9a-fA-F]{6}$" },
        { name: "timezone", type: "text", required: true, max: 64 },
        { name: "locale", type: "select", maxSelect: 1, values: ["en", "es"] },
        { name: "address", type: "text", max: 500 },
        { name: "phone", type: "text", max: 40 },
        { name: "email", type: "email" },
        { name: "serviceTimes", type: "json", maxSize: 10000 },
        { name: "socialLinks", type: "json", maxSize: 10000 },
        { name: "allowSignup", type: "bool" },
        {
          name: "directoryDefaultVisibility",
          type: "select",
          maxSelect: 1,
          values: ["private", "leaders", "groups", "members"],
        },
        { name: "prayerRequiresApproval", type: "bool" },
        { name: "prayerExpiryDays", type: "number", onlyInt: true, min: 1, max: 3650 },
        ...timestamps(),
      ],
    });
    app.save(settings);

    const record = new Record(settings);
    record.load({
      churchName: "Our Church",
      timezone: "America/New_York",
      locale: "en",
      serviceTimes: [],
      socialLinks: {},
      allowSignup: true,
      directoryDefaultVisibility: "members",
      prayerRequiresApproval: true,
      prayerExpiryDays: 60,
    });
    app.save(record);

    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new RelationField({ name: "person", collectionId: people.id, maxSelect: 1 }));
    users.fields.add(new RelationField({ name: "roles", collectionId: roles.id, maxSelect: 20 }));
    users.fields.add(new SelectField({ name: "locale", maxSelect: 1, values: ["en", "es"] }));
    // Empty status means active; only "suspended" blocks sign-in.
    users.fields.add(new SelectField({ name: "status", maxSelect: 1, values: ["active", "suspended"] }));
    const password = users.fields.getByName("password");
    password.min = 10;
    password.max = 71; // bcrypt reads only the first 72 bytes
    const name = users.fields.getByName("name");
    name.max = 200;
    // PocketBase's default avatar also takes SVG (which can carry script) and has no explicit size:
    // images are JPEG, PNG, WebP or GIF up to 10 MB (PRODUCT §6).
    const avatar = users.fields.getByName("avatar");
    avatar.mimeTypes = IMAGE_TYPES;
    avatar.maxSize = 10 * 1024 * 1024;

    // Sign-up is open only while settings allow it, and a new account cannot grant itself anything.
    users.createRule =
      "@collection.settings.allowSignup ?= true && @request.body.roles:isset = false && " +
      "@request.body.person:isset = false && @request.body.status:isset = false";
    users.listRule = `id = @request.auth.id || ${has("roles.manage")}`;
    users.viewRule = `id = @request.auth.id || ${has("roles.manage")}`;
    users.updateRule =
      "(id = @request.auth.id && @request.body.roles:isset = false && @request.body.person:isset = false && " +
      `@request.body.status:isset = false) || ${has("roles.manage")}`;
    users.deleteRule = null;
    // Account managers see emails and can resend verification; PocketBase hides emails from anyone else.
    users.manageRule = has("roles.manage");
    users.authRule = 'status != "suspended"';
    users.authToken.duration = 7 * 24 * 60 * 60; // PRODUCT §9: 7-day sliding session
    users.passwordAuth.identityFields = ["email"];
    users.verificationTemplate.subject = "Confirm your email for {APP_NAME}";
    users.verificationTemplate.body =
      "<p>Welcome to {APP_NAME}!</p><p>Please confirm your email address:</p>" +
      '<p><a href="{APP_URL}/verify-email?token={TOKEN}">Confirm my email</a></p>' +
      "<p>If you did not create an account, you can ignore this message.</p><p>{APP_NAME}</p>";
    users.resetPasswordTemplate.subject = "Reset your {APP_NAME} password";
    users.resetPasswordTemplate.body =
      "<p>Hello,</p><p>Someone asked to reset the password of your {APP_NAME} account.</p>" +
      '<p><a href="{APP_URL}/reset-password?token={TOKEN}">Choose a new password</a></p>' +
      "<p>The link works for 30 minutes. If it was not you, you can ignore this message.</p><p>{APP_NAME}</p>";
    app.save(users);

    // Seeded roles (PRODUCT §1); churches may rename or reshape them.
    const seed = [
      ["Administrator", "Church office: settings, users and roles, everything.", PERMISSIONS],
      [
        "Pastor",
        "Pastoral staff: people, prayer and content.",
        [
          "people.view",
          "people.manage",
          "prayer.moderate",
          "prayer.view_pastoral",
          "content.edit",
          "content.publish",
          "sermons.manage",
          "events.manage",
          "groups.manage",
        ],
      ],
      [
        "Editor",
        "Writes and publishes content.",
        ["content.edit", "content.publish", "sermons.manage", "events.manage", "media.manage"],
      ],
      [
        "Care Team",
        "Prayer moderation and pastoral care.",
        ["people.view", "prayer.moderate", "prayer.view_pastoral"],
      ],
    ];
    for (const [roleName, description, permissions] of seed) {
      const role = new Record(roles);
      role.load({ name: roleName, description, permissions });
      app.save(role);
    }

    const appSettings = app.settings();
    appSettings.batch.enabled = false;
    appSettings.rateLimits.enabled = false; // the gateway rate-limits per client IP (PocketBase only sees the gateway)
    app.save(appSettings);
  },
  (app) => {
    for (const name of ["settings", "people", "roles"]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
  },
);
