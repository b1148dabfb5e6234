/// <reference path="../pb_data/types.d.ts" />
// Prayer wall and notifications (PRODUCT.md §4, §5, §9).
//
// Anonymity is a row boundary, as with the people's contact rows: who asked for an anonymous
// request lives only in `prayer_request_private` (readable by pastoral staff and by the requester),
// never on the request itself, so no path (REST, GraphQL, realtime) can join it back. The request
// carries only the name shown on the wall (`authorName`, empty when anonymous).
// Counters (prayedCount, flagCount) and "3 flags → back to moderation" are kept by pb_hooks/prayer.pb.js.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const MODERATE = has("prayer.moderate");
const PASTORAL = has("prayer.view_pastoral");
// Visible on the wall to this caller: approved (or answered) and public, members-only for active
// members, pastoral for pastoral staff.
const onWall = (prefix) =>
  `((${prefix}status = "approved" || ${prefix}status = "answered") && (${prefix}visibility = "public" || ` +
  `(${prefix}visibility = "members" && ${ACTIVE})))`;
// The requester of a request (through the private row, which only they and pastoral staff can read).
const IS_REQUESTER = "prayer_request_private_via_request.user ?= @request.auth.id";

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const people = app.findCollectionByNameOrId("people");

    // Rules are set after prayer_request_private exists (they read it through a back-relation).
    const requestRules = {
      // Moderators see every non-pastoral request (the queue); pastoral staff see everything.
      listRule: `${onWall("")} || ${PASTORAL} || (${MODERATE} && visibility != "pastoral") || (@request.auth.id != "" && ${IS_REQUESTER})`,
      viewRule: `${onWall("")} || ${PASTORAL} || (${MODERATE} && visibility != "pastoral") || (@request.auth.id != "" && ${IS_REQUESTER})`,
      // Anyone may ask (the gateway throttles visitors per IP and records who asked in the private
      // row). A new request starts clean; a signed-in requester cannot claim someone else's name.
      createRule:
        '(status = "pending" || (status = "approved" && @collection.settings.prayerRequiresApproval ?= false)) && ' +
        'prayedCount = 0 && flagCount = 0 && answerNote = "" && rejectReason = "" && ' +
        '(anonymous = true && authorName = "" || anonymous = false && (@request.auth.id = "" || authorName = @request.auth.name)) && ' +
        `(visibility = "public" || (visibility = "members" && ${ACTIVE}) || visibility = "pastoral")`,
      // Moderators: anything on non-pastoral requests (approve, reject, edit typos); pastoral staff on all.
      // The requester: only mark their approved request answered, with a note.
      updateRule:
        `${PASTORAL} || (${MODERATE} && visibility != "pastoral" && @request.body.visibility != "pastoral") || ` +
        `(@request.auth.id != "" && ${IS_REQUESTER} && status = "approved" && @request.body.status = "answered" && ` +
        "@request.body.body:isset = false && @request.body.visibility:isset = false && @request.body.anonymous:isset = false && " +
        "@request.body.authorName:isset = false && @request.body.prayedCount:isset = false && @request.body.flagCount:isset = false && " +
        "@request.body.expiresAt:isset = false)",
      deleteRule: `${PASTORAL} || (${MODERATE} && visibility != "pastoral")`,
    };
    const requests = new Collection({
      type: "base",
      name: "prayer_requests",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "body", type: "text", required: true, min: 10, max: 2000 },
        {
          name: "visibility",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["public", "members", "pastoral"],
        },
        { name: "anonymous", type: "bool" },
        { name: "authorName", type: "text", max: 200 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "approved", "rejected", "answered", "archived"],
        },
        { name: "prayedCount", type: "number", onlyInt: true, min: 0 },
        { name: "flagCount", type: "number", onlyInt: true, min: 0 },
        { name: "answerNote", type: "text", max: 2000 },
        { name: "rejectReason", type: "text", max: 500 },
        { name: "approvedAt", type: "date" },
        { name: "answeredAt", type: "date" },
        { name: "expiresAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_prayer_requests_wall ON prayer_requests (status, visibility, created)",
        "CREATE INDEX idx_prayer_requests_expiry ON prayer_requests (status, expiresAt)",
      ],
    });
    app.save(requests);

    const privateRows = new Collection({
      type: "base",
      name: "prayer_request_private",
      // Who asked: pastoral staff and the requester only; written by the gateway's system job.
      listRule: `${PASTORAL} || (@request.auth.id != "" && user = @request.auth.id)`,
      viewRule: `${PASTORAL} || (@request.auth.id != "" && user = @request.auth.id)`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "request",
          type: "relation",
          required: true,
          collectionId: requests.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "user", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "person", type: "relation", collectionId: people.id, maxSelect: 1 },
        { name: "submitterName", type: "text", max: 200 },
        { name: "submitterEmail", type: "email" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_prayer_private_request ON prayer_request_private (request)",
        "CREATE INDEX idx_prayer_private_user ON prayer_request_private (user)",
      ],
    });
    app.save(privateRows);
    Object.assign(requests, requestRules);
    app.save(requests);

    const marks = new Collection({
      type: "base",
      name: "prayer_marks",
      // "I prayed": once per user (or, for visitors, per device) per day, on a request the caller can see.
      listRule: '@request.auth.id != "" && user = @request.auth.id',
      viewRule: '@request.auth.id != "" && user = @request.auth.id',
      // The day must be the church's today: any church-local date is UTC yesterday, today or tomorrow.
      // Without this bound, made-up days (2001-01-01, 2001-01-02, …) each passed the unique index and
      // raised prayedCount without limit.
      createRule:
        '((@request.auth.id != "" && user = @request.auth.id && deviceKey = "") || (@request.auth.id = "" && user = "" && deviceKey != "")) && ' +
        "(day = strftime('%Y-%m-%d', @yesterday) || day = strftime('%Y-%m-%d', @now) || day = strftime('%Y-%m-%d', @tomorrow)) && " +
        `(${onWall("request.")} || (request.visibility = "pastoral" && ${PASTORAL}))`,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "request",
          type: "relation",
          required: true,
          collectionId: requests.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "user", type: "relation", collectionId: users.id, maxSelect: 1, cascadeDelete: true },
        // SHA-256 of the visitor's device cookie (never the cookie itself).
        { name: "deviceKey", type: "text", max: 64 },
        // The church-local day, YYYY-MM-DD: the unique indexes make "once per day" hold under races.
        { name: "day", type: "text", required: true, pattern: "^\\d{4}-\\d{2}-\\d{2}$", max: 10 },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_prayer_marks_user_day ON prayer_marks (request, user, day) WHERE user != ''",
        "CREATE UNIQUE INDEX idx_prayer_marks_device_day ON prayer_marks (request, deviceKey, day) WHERE deviceKey != ''",
      ],
    });
    app.save(marks);

    const flags = new Collection({
      type: "base",
      name: "prayer_flags",
      listRule: `${MODERATE} || ${PASTORAL} || (@request.auth.id != "" && user = @request.auth.id)`,
      viewRule: `${MODERATE} || ${PASTORAL} || (@request.auth.id != "" && user = @request.auth.id)`,
      // Active members flag what they can see on the wall, once per request.
      createRule: `${ACTIVE} && user = @request.auth.id && ${onWall("request.")}`,
      updateRule: null,
      deleteRule: `${MODERATE} || ${PASTORAL}`,
      fields: [
        {
          name: "request",
          type: "relation",
          required: true,
          collectionId: requests.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "user",
          type: "relation",
          required: true,
          collectionId: users.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "reason", type: "text", max: 500 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_prayer_flags_user ON prayer_flags (request, user)"],
    });
    app.save(flags);

    const notifications = new Collection({
      type: "base",
      name: "notifications",
      // Each user reads and marks read their own; system jobs create them.
      listRule: '@request.auth.id != "" && user = @request.auth.id',
      viewRule: '@request.auth.id != "" && user = @request.auth.id',
      createRule: null,
      updateRule:
        '@request.auth.id != "" && user = @request.auth.id && @request.body.user:isset = false && @request.body.kind:isset = false && ' +
        "@request.body.title:isset = false && @request.body.body:isset = false && @request.body.link:isset = false && " +
        "@request.body.groupKey:isset = false && @request.body.count:isset = false",
      deleteRule: '@request.auth.id != "" && user = @request.auth.id',
      fields: [
        {
          name: "user",
          type: "relation",
          required: true,
          collectionId: users.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        {
          name: "kind",
          type: "select",
          required: true,
          maxSelect: 1,
          values: [
            "signup_approved",
            "prayer_approved",
            "prayer_rejected",
            "prayer_answered",
            "prayer_prayed",
          ],
        },
        { name: "title", type: "text", required: true, min: 1, max: 200 },
        { name: "body", type: "text", max: 1000 },
        { name: "link", type: "text", max: 500 },
        // Batching: one notification per key per window (e.g. "prayed:<request id>" per hour).
        { name: "groupKey", type: "text", max: 100 },
        { name: "count", type: "number", onlyInt: true, min: 0 },
        { name: "readAt", type: "date" },
        ...timestamps(),
      ],
      indexes: [
        "CREATE INDEX idx_notifications_user ON notifications (user, created)",
        "CREATE INDEX idx_notifications_unread ON notifications (user, readAt)",
        "CREATE INDEX idx_notifications_group ON notifications (user, groupKey, created)",
      ],
    });
    app.save(notifications);
  },
  (app) => {
    for (const name of [
      "notifications",
      "prayer_flags",
      "prayer_marks",
      "prayer_request_private",
      "prayer_requests",
    ]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
  },
);
