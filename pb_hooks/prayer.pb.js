/// <reference path="../pb_data/types.d.ts" />
// Prayer counters, on every write path: prayedCount follows prayer_marks and flagCount follows
// prayer_flags; the third flag sends an approved request back to moderation (PRODUCT.md §9).
// Saved through the app (not raw SQL) so PocketBase's realtime tells every wall the new count.

onRecordCreate((e) => {
  e.next();
  const requestId = e.record.getString("request");
  const request = e.app.findRecordById("prayer_requests", requestId);
  request.set("prayedCount", e.app.countRecords("prayer_marks", $dbx.hashExp({ request: requestId })));
  e.app.save(request);
}, "prayer_marks");

onRecordCreate((e) => {
  e.next();
  const FLAGS_TO_MODERATION = 3;
  const requestId = e.record.getString("request");
  const request = e.app.findRecordById("prayer_requests", requestId);
  const flags = e.app.countRecords("prayer_flags", $dbx.hashExp({ request: requestId }));
  request.set("flagCount", flags);
  if (flags >= FLAGS_TO_MODERATION && request.getString("status") === "approved")
    request.set("status", "pending");
  e.app.save(request);
}, "prayer_flags");

// A moderator clearing the flags (approving again) starts the count over.
onRecordDelete((e) => {
  e.next();
  const requestId = e.record.getString("request");
  let request;
  try {
    request = e.app.findRecordById("prayer_requests", requestId);
  } catch (_) {
    return; // the request itself is being deleted
  }
  request.set("flagCount", e.app.countRecords("prayer_flags", $dbx.hashExp({ request: requestId })));
  e.app.save(request);
}, "prayer_flags");
