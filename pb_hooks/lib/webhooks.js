/// <reference path="../../pb_data/types.d.ts" />
// Webhook events (issue 16, pb_migrations/1732497000_webhooks.js): which change of a record is which
// event, and queueing it for every enabled webhook subscribed to it. Called from the save that made
// the change (pb_hooks/webhooks.pb.js), so the queue row is written with it, whatever wrote it
// (gateway, REST, scheduled publishing, seed). Payloads carry ids, public titles and site paths only:
// a receiver reads anything more with its own API token, under its scopes.

const PATHS = { posts: "/news/", pages: "/p/", sermons: "/sermons/", events: "/events/" };

/** The events a change of a record is: [] for most saves. `before` is null for a create. */
function eventsOf(collection, before, after) {
  const status = after.getString("status");
  const was = before ? before.getString("status") : "";
  const becamePublished = status === "published" && was !== "published";
  const path = PATHS[collection] ? PATHS[collection] + after.getString("slug") : null;
  switch (collection) {
    case "posts": {
      const members = after.getString("audience") === "members";
      // Members-only posts: no title in the payload (the receiver reads it with a scoped token).
      const data = { id: after.id, path, audience: members ? "members" : "public" };
      if (!members) data.title = after.getString("title");
      if (becamePublished) return [{ type: "post.published", data }];
      const changed =
        before &&
        ["title", "summary", "body", "slug", "cover", "audience"].some(
          (f) => String(before.get(f)) !== String(after.get(f)),
        );
      if (status === "published" && was === "published" && changed) return [{ type: "post.updated", data }];
      return [];
    }
    case "pages":
      return becamePublished
        ? [{ type: "page.published", data: { id: after.id, title: after.getString("title"), path } }]
        : [];
    case "sermons":
      return becamePublished
        ? [{ type: "sermon.published", data: { id: after.id, title: after.getString("title"), path } }]
        : [];
    case "events": {
      if (!becamePublished) return [];
      const members = after.getString("visibility") === "members";
      const data = { id: after.id, path, visibility: members ? "members" : "public" };
      if (!members) data.title = after.getString("title");
      return [{ type: "event.published", data }];
    }
    case "prayer_requests": {
      // A group's request is for its members only: no integration hears of it.
      if (after.getString("group")) return [];
      // No text and no name: prayer requests are personal; the receiver reads what its scopes allow.
      const data = { id: after.id, visibility: after.getString("visibility"), path: "/prayer/" + after.id };
      if (status === "approved" && was !== "approved" && was !== "answered")
        return [{ type: "prayer.approved", data }];
      if (status === "answered" && was !== "answered") return [{ type: "prayer.answered", data }];
      return [];
    }
    case "people":
      return before ? [] : [{ type: "person.created", data: { id: after.id } }];
    case "visit_requests":
      return before ? [] : [{ type: "visit.created", data: { id: after.id } }];
    case "serving_requests": {
      // An answer, or a place taken by a signup or a swap (created accepted): ids only (who serves is
      // the church's to tell; a scoped token reads the rest).
      if (status !== "accepted" && status !== "declined") return [];
      if (before ? status === was : status !== "accepted") return [];
      const data = {
        id: after.id,
        plan: after.getString("plan"),
        position: after.getString("position"),
        person: after.getString("person"),
      };
      return [{ type: status === "accepted" ? "serving.accepted" : "serving.declined", data }];
    }
    case "checkins": {
      // Children only, and never a name or a code: the check-in, session, room and kind.
      if (after.getString("kind") !== "child") return [];
      const data = {
        id: after.id,
        session: after.getString("session"),
        room: after.getString("room"),
        firstTime: after.getBool("firstTime"),
      };
      if (!before) return [{ type: "checkin.checked_in", data }];
      if (!before.getString("checkedOutAt") && after.getString("checkedOutAt"))
        return [{ type: "checkin.checked_out", data }];
      return [];
    }
    case "donations":
      // The gift's id only: who gave and how much is finance's, read with a finance scope.
      return before ? [] : [{ type: "gift.received", data: { id: after.id } }];
    case "recurring_gifts": {
      // A payment of a recurring gift failed (the provider told the gateway): its id only, as gift.received.
      const failed = after.getString("lastFailedAt");
      if (!failed || (before && before.getString("lastFailedAt") === failed)) return [];
      return [{ type: "gift.recurring_failed", data: { id: after.id } }];
    }
  }
  return [];
}

/** Queue each event for every enabled webhook subscribed to it. */
function enqueue(app, events) {
  if (!events.length) return;
  const deliveries = app.findCollectionByNameOrId("webhook_deliveries");
  const now = new DateTime();
  for (const event of events) {
    const hooks = app.findRecordsByFilter("webhooks", "enabled = true && events ~ {:type}", "", 0, 0, {
      type: `"${event.type}"`,
    });
    for (const hook of hooks) {
      const row = new Record(deliveries);
      row.set("webhook", hook.id);
      row.set("type", event.type);
      row.set("payload", Object.assign({ occurredAt: now.string().replace(" ", "T") }, event.data));
      row.set("status", "pending");
      row.set("attempts", 0);
      row.set("nextAttemptAt", now);
      app.save(row);
    }
  }
}

module.exports = { eventsOf, enqueue };
