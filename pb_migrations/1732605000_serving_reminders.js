/// <reference path="../pb_data/types.d.ts" />
// Serving reminders (issue 27): a volunteer is mailed the team's reminderDays before a plan they accepted,
// once, by the gateway's system job (gateway/src/system/serving-reminders.ts).
// - serving_requests.remindedAt (made by 1732600000_serving.js) becomes hidden: it is the job's state,
//   read and written by the system only. PocketBase loads a hidden field from a superuser's write alone,
//   so neither a leader (whose update rule lists the fields they may not touch) nor the volunteer can set
//   or clear it — a cleared one would mail again — and no rule's reader sees it.
// - mail_outbox.kind "serving.reminder": the reminder is queued in the outbox like event mail, with a
//   dedupeKey (unique), so two runs at once or two gateways queue one mail.

const KIND = "serving.reminder";

migrate(
  (app) => {
    const requests = app.findCollectionByNameOrId("serving_requests");
    requests.fields.getByName("remindedAt").hidden = true;
    app.save(requests);

    const outbox = app.findCollectionByNameOrId("mail_outbox");
    const kind = outbox.fields.getByName("kind");
    kind.values = [...kind.values, KIND];
    app.save(outbox);
  },
  (app) => {
    // Rows of a kind that no longer exists would fail validation on their next write (sent, retried).
    for (const row of app.findAllRecords("mail_outbox", $dbx.hashExp({ kind: KIND }))) app.delete(row);
    const outbox = app.findCollectionByNameOrId("mail_outbox");
    const kind = outbox.fields.getByName("kind");
    kind.values = kind.values.filter((value) => value !== KIND);
    app.save(outbox);

    const requests = app.findCollectionByNameOrId("serving_requests");
    requests.fields.getByName("remindedAt").hidden = false;
    app.save(requests);
  },
);
