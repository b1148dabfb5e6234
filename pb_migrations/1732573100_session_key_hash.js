/// <reference path="../pb_data/types.d.ts" />
// users.sessionKeyHash: the SHA-256 of the user's tokenKey (hidden), kept by pb_hooks/sessions.pb.js on
// every write. PocketBase never returns tokenKey, not even to superusers, so the gateway could not tell
// which open event streams belong to sessions that ended (a sign-out, a password change, revoked
// sessions): it records this hash when a stream opens and ends the stream when it changes (issue 23).
// Users written before get theirs here once.

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new TextField({ name: "sessionKeyHash", max: 64, hidden: true }));
    app.save(users);
    for (const user of app.findAllRecords("users")) {
      app
        .db()
        .newQuery("UPDATE users SET sessionKeyHash = {:hash} WHERE id = {:id}")
        .bind({ hash: $security.sha256(user.tokenKey()), id: user.id })
        .execute();
    }
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("sessionKeyHash");
    app.save(users);
  },
);
