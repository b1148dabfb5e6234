/// <reference path="../pb_data/types.d.ts" />
// posts.editedAt follows every change to a post and to its working copy (pb_migrations/1732480000_edited_at.js):
// the staff list sorts "last edited first" by it. Set here so every write path agrees and nobody sets it by hand.
// (PocketBase runs each handler in its own context: no helpers shared across handlers.)

onRecordCreate((e) => {
  e.record.set("editedAt", new Date().toISOString().replace("T", " "));
  e.next();
}, "posts");

onRecordUpdate((e) => {
  e.record.set("editedAt", new Date().toISOString().replace("T", " "));
  e.next();
}, "posts");

// Saving a live post's working copy touches the post's editedAt (the post's hook above sets it).
onRecordCreate((e) => {
  e.next();
  const postId = e.record.getString("post");
  if (e.record.getBool("working") && postId) e.app.save(e.app.findRecordById("posts", postId));
}, "revisions");

onRecordUpdate((e) => {
  e.next();
  const postId = e.record.getString("post");
  if (e.record.getBool("working") && postId) e.app.save(e.app.findRecordById("posts", postId));
}, "revisions");
