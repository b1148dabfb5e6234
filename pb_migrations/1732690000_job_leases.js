/// <reference path="../pb_data/types.d.ts" />
// System jobs run once across gateway replicas (issue 33): one lease row per job (scheduled publishing,
// prayer expiry, serving reminders, the staff digest). A replica runs a job only while it holds the
// job's lease, which it takes or renews before each run through POST /api/flock/leases/claim
// (pb_hooks/leases.pb.js: inside one write transaction, so two replicas never both get it) and gives
// back when it stops. Only the system reads or writes them: no API rule opens them to anyone.
// (The durable queues, webhook_deliveries and mail_outbox, already hand out single rows the same way.)

migrate(
  (app) => {
    const leases = new Collection({
      type: "base",
      name: "job_leases",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "job", type: "text", required: true, min: 1, max: 60, pattern: "^[a-z0-9-]+$" },
        // "<host>:<pid>:<random>" of the replica holding it.
        { name: "holder", type: "text", required: true, min: 1, max: 120 },
        { name: "expiresAt", type: "date", required: true },
        { name: "runs", type: "number", onlyInt: true, min: 0 },
        { name: "lastRunAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_job_leases_job ON job_leases (job)"],
    });
    app.save(leases);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("job_leases"));
  },
);
