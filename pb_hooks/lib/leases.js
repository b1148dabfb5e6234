/// <reference path="../../pb_data/types.d.ts" />
// Leases on system jobs: see pb_hooks/leases.pb.js.
const { pbDate } = require(`${__hooks}/lib/queues.js`);

const JOB = /^[a-z0-9-]{1,60}$/;
const HOLDER = /^[A-Za-z0-9._:-]{1,120}$/;

/** The request's job, holder and (for a claim) whole seconds from 1 to a day; a 400 naming what is wrong. */
function validBody(body, withSeconds) {
  const { job, holder, seconds } = body || {};
  if (typeof job !== "string" || !JOB.test(job)) throw new BadRequestError("job: a-z, 0-9 and -");
  if (typeof holder !== "string" || !HOLDER.test(holder))
    throw new BadRequestError("holder: letters, digits and . _ : -");
  if (
    withSeconds &&
    (typeof seconds !== "number" || seconds < 1 || seconds > 86400 || Math.floor(seconds) !== seconds)
  )
    throw new BadRequestError("seconds: 1 to 86400");
  return { job, holder, seconds };
}

function leaseOf(tx, job) {
  try {
    return tx.findFirstRecordByData("job_leases", "job", job);
  } catch {
    return null;
  }
}

/**
 * Inside one write transaction (PocketBase serializes them): the lease is the caller's if it has none,
 * is theirs already, or has run out; then it lasts `leaseMs` from now and counts one more run.
 */
function claim(app, job, holder, leaseMs) {
  let answer = { held: false, run: 0 };
  app.runInTransaction((tx) => {
    const now = pbDate(Date.now());
    let lease = leaseOf(tx, job);
    if (lease && lease.getString("holder") !== holder && lease.getString("expiresAt") > now) return;
    if (!lease) {
      lease = new Record(tx.findCollectionByNameOrId("job_leases"));
      lease.set("job", job);
      lease.set("runs", 0);
    }
    const run = lease.getInt("runs") + 1;
    lease.set("holder", holder);
    lease.set("expiresAt", pbDate(Date.now() + leaseMs));
    lease.set("runs", run);
    lease.set("lastRunAt", now);
    tx.save(lease);
    answer = { held: true, run };
  });
  return answer;
}

/** Ends the holder's own lease now; someone else's is left alone. */
function release(app, job, holder) {
  let released = false;
  app.runInTransaction((tx) => {
    const lease = leaseOf(tx, job);
    if (!lease || lease.getString("holder") !== holder) return;
    lease.set("expiresAt", pbDate(Date.now()));
    tx.save(lease);
    released = true;
  });
  return released;
}

module.exports = { claim, release, validBody };
