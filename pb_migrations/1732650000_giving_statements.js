/// <reference path="../pb_data/types.d.ts" />
// Giving statements (issue 29): the legal text every statement ends with (settings.statementText, edited
// with the other settings) and giving_statement_runs, the state of a "statements for all donors" job —
// kept here, not in a gateway's memory, so any gateway process answers its progress and a restart leaves
// a record of what happened. Limits mirror shared/src/limits-features.ts (GIVING_LIMITS).
//
// A run is finance's: giving.view starts one and reads its progress and its zip of statements (a
// protected file: only the view rule opens it); the gateway's system account writes the progress.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGE = has("giving.manage");
const VIEW = `(${has("giving.view")} || ${MANAGE})`;
const notSet = (fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(" && ");
/** Fields only the system writes (the job's progress and result). */
const RUN_PROGRESS = ["unitsTotal", "unitsDone", "statements", "heartbeatAt", "error"];
const STATEMENT_TEXT_DEFAULT = "No goods or services were provided in exchange for these contributions.";
// GIVING_LIMITS.statementTextMax
const STATEMENT_TEXT_MAX = 2000;

migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.add(new TextField({ name: "statementText", max: STATEMENT_TEXT_MAX }));
    app.save(settings);
    for (const row of app.findAllRecords("settings")) {
      if (!row.getString("statementText")) {
        row.set("statementText", STATEMENT_TEXT_DEFAULT);
        app.save(row);
      }
    }

    const users = app.findCollectionByNameOrId("users");
    const runs = new Collection({
      type: "base",
      name: "giving_statement_runs",
      listRule: VIEW,
      viewRule: VIEW,
      // Started by finance as themselves, running; its progress is the system's.
      createRule: `${VIEW} && @request.body.createdBy = @request.auth.id && @request.body.status = "running" && ${notSet(RUN_PROGRESS)}`,
      updateRule: null,
      deleteRule: MANAGE,
      fields: [
        { name: "from", type: "date", required: true },
        { name: "to", type: "date", required: true },
        // running → done (the zip is ready) or failed (error says why).
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["running", "done", "failed"],
        },
        { name: "unitsTotal", type: "number", onlyInt: true, min: 0 },
        { name: "unitsDone", type: "number", onlyInt: true, min: 0 },
        // One PDF per giving unit in a zip, opened only through the view rule.
        {
          name: "statements",
          type: "file",
          maxSelect: 1,
          maxSize: 1024 * 1024 * 1024,
          mimeTypes: ["application/zip"],
          protected: true,
        },
        // Written while the job works: a run whose heartbeat stopped was interrupted (its gateway stopped).
        { name: "heartbeatAt", type: "date" },
        { name: "error", type: "text", max: 500 },
        { name: "createdBy", type: "relation", collectionId: users.id, maxSelect: 1 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_giving_statement_runs_created ON giving_statement_runs (created DESC)"],
    });
    app.save(runs);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("giving_statement_runs"));
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.removeByName("statementText");
    app.save(settings);
  },
);
