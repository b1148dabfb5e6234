/// <reference path="../../pb_data/types.d.ts" />
// Claiming rows of the durable queues (webhook_deliveries, mail_outbox): see pb_hooks/queues.pb.js.

/** A JavaScript time as PocketBase stores dates ("2026-11-27 04:00:00.000Z"), comparable as text. */
function pbDate(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

const DUE = "status = 'pending' && nextAttemptAt <= {:now} && (claimedUntil = '' || claimedUntil <= {:now})";

/**
 * Inside one write transaction (PocketBase serializes them): take up to `limit` due rows that nobody
 * holds, stamp them with `claim` until the lease ends, and return them. Webhook deliveries: at most one
 * per webhook, and none of a webhook whose delivery is held now, so a receiver gets its deliveries one
 * at a time, in the order they fall due.
 */
function claim(app, queue, claimId, limit, leaseMs) {
  const picked = [];
  app.runInTransaction((tx) => {
    const now = pbDate(Date.now());
    const until = pbDate(Date.now() + leaseMs);
    const busy = {};
    if (queue === "webhook_deliveries")
      for (const held of tx.findRecordsByFilter(
        queue,
        "status = 'pending' && claimedUntil > {:now}",
        "",
        0,
        0,
        { now },
      ))
        busy[held.getString("webhook")] = true;
    const due = tx.findRecordsByFilter(queue, DUE, "nextAttemptAt,created,id", 500, 0, { now });
    for (const row of due) {
      if (picked.length >= limit) break;
      if (queue === "webhook_deliveries") {
        const webhook = row.getString("webhook");
        if (busy[webhook]) continue;
        busy[webhook] = true;
      }
      row.set("claim", claimId);
      row.set("claimedUntil", until);
      tx.save(row);
      picked.push(row);
    }
  });
  return picked;
}

module.exports = { claim, pbDate };
