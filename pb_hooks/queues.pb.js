/// <reference path="../pb_data/types.d.ts" />
// POST /api/flock/queues/claim {queue, claim, limit, leaseSeconds} (the system only): the gateway's
// delivery jobs take rows of a durable queue here (lib/queues.js#claim), so two gateway processes never
// send the same row at once. Answers the claimed rows.
routerAdd(
  "POST",
  "/api/flock/queues/claim",
  (e) => {
    const body = e.requestInfo().body || {};
    const { queue, claim, limit, leaseSeconds } = body;
    if (queue !== "webhook_deliveries" && queue !== "mail_outbox")
      throw new BadRequestError("queue: webhook_deliveries or mail_outbox");
    if (typeof claim !== "string" || !/^[a-z0-9]{16,40}$/.test(claim))
      throw new BadRequestError("claim: 16 to 40 lowercase letters and digits");
    if (typeof limit !== "number" || limit < 1 || limit > 50 || Math.floor(limit) !== limit)
      throw new BadRequestError("limit: 1 to 50");
    if (typeof leaseSeconds !== "number" || leaseSeconds < 1 || leaseSeconds > 3600)
      throw new BadRequestError("leaseSeconds: 1 to 3600");
    const rows = require(`${__hooks}/lib/queues.js`).claim(e.app, queue, claim, limit, leaseSeconds * 1000);
    return e.json(200, rows);
  },
  $apis.requireSuperuserAuth(),
);
