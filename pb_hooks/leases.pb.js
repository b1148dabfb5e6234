/// <reference path="../pb_data/types.d.ts" />
// Leases on system jobs (the system only; pb_migrations/1732690000_job_leases.js):
// POST /api/flock/leases/claim {job, holder, seconds} → {held, run}: the caller holds `job` for
// `seconds` from now if nobody else holds it (or theirs ran out), and `run` numbers the run it may start.
// POST /api/flock/leases/release {job, holder} → {released}: ends the caller's own lease at once, so
// another replica takes the job on its next tick instead of after the lease runs out.
// (A handler sees nothing declared beside it in this file: what it needs comes from lib/leases.js.)
routerAdd(
  "POST",
  "/api/flock/leases/claim",
  (e) => {
    const leases = require(`${__hooks}/lib/leases.js`);
    const { job, holder, seconds } = leases.validBody(e.requestInfo().body, true);
    return e.json(200, leases.claim(e.app, job, holder, seconds * 1000));
  },
  $apis.requireSuperuserAuth(),
);

routerAdd(
  "POST",
  "/api/flock/leases/release",
  (e) => {
    const leases = require(`${__hooks}/lib/leases.js`);
    const { job, holder } = leases.validBody(e.requestInfo().body, false);
    return e.json(200, { released: leases.release(e.app, job, holder) });
  },
  $apis.requireSuperuserAuth(),
);
