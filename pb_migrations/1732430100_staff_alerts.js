/// <reference path="../pb_data/types.d.ts" />
// Staff alerts (issue 10): the staff who handle new activity hear about it — a visit request, a
// sign-up waiting for approval, a prayer request waiting for moderation — by notification and mail,
// as each person chooses per topic: at once, in a daily digest, or not at all.
//
// staff_alert_prefs: one row per user, read and written by its owner only (no row = "immediate").
// `lastDigestAt` is the daily digest's state (gateway/src/system/staff-digest.ts): written by the
// system job only, so a restart neither repeats nor skips a digest.

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const OWN = '@request.auth.id != "" && user = @request.auth.id';
    const DELIVERY = ["immediate", "digest", "off"];
    const prefs = new Collection({
      type: "base",
      name: "staff_alert_prefs",
      listRule: OWN,
      viewRule: OWN,
      createRule: `${OWN} && @request.body.lastDigestAt:isset = false`,
      updateRule: `${OWN} && @request.body.user:isset = false && @request.body.lastDigestAt:isset = false`,
      deleteRule: null,
      fields: [
        {
          name: "user",
          type: "relation",
          required: true,
          collectionId: users.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "visits", type: "select", maxSelect: 1, values: DELIVERY },
        { name: "signups", type: "select", maxSelect: 1, values: DELIVERY },
        { name: "prayer", type: "select", maxSelect: 1, values: DELIVERY },
        { name: "lastDigestAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_staff_alert_prefs_user ON staff_alert_prefs (user)"],
    });
    app.save(prefs);

    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = [...kind.values, "visit_request", "signup_pending", "prayer_pending", "staff_digest"];
    app.save(notifications);
  },
  (app) => {
    try {
      app.delete(app.findCollectionByNameOrId("staff_alert_prefs"));
    } catch (_) {
      /* already gone */
    }
    const notifications = app.findCollectionByNameOrId("notifications");
    const kind = notifications.fields.getByName("kind");
    kind.values = kind.values.filter(
      (v) => !["visit_request", "signup_pending", "prayer_pending", "staff_digest"].includes(v),
    );
    app.save(notifications);
  },
);
