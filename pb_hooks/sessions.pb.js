/// <reference path="../pb_data/types.d.ts" />
// users.sessionKeyHash (pb_migrations/1732573100_session_key_hash.js): the SHA-256 of the user's
// tokenKey, kept on every write of a user whatever the path (a password change, the gateway's "revoke
// sessions", a superuser's edit). PocketBase signs the user's tokens with the tokenKey and never shows
// it, even to superusers; the gateway compares this hash to end the event streams of sessions that
// ended (gateway/src/realtime/credentials.ts). Each handler runs in a runtime of its own (no shared
// top-level functions), hence the same lines in both.

onRecordCreate((e) => {
  // A new record gets its key first: the hash must be of the key its tokens will be signed with.
  if (!e.record.tokenKey()) e.record.refreshTokenKey();
  e.record.set("sessionKeyHash", $security.sha256(e.record.tokenKey()));
  e.next();
}, "users");

onRecordUpdate((e) => {
  e.record.set("sessionKeyHash", $security.sha256(e.record.tokenKey()));
  e.next();
  // A new password gets its new key during the save itself (PocketBase's password field), after the
  // line above: the stored hash follows it in the same write's database (transaction included).
  const hash = $security.sha256(e.record.tokenKey());
  if (hash !== e.record.getString("sessionKeyHash")) {
    e.app
      .db()
      .newQuery("UPDATE users SET sessionKeyHash = {:hash} WHERE id = {:id}")
      .bind({ hash, id: e.record.id })
      .execute();
    e.record.set("sessionKeyHash", hash);
  }
}, "users");
