/// <reference path="../pb_data/types.d.ts" />
// The API scope "giving.summary" (issue 29): a token that reads the church's giving totals per fund and
// day (donation_splits, which carry no donor) and every fund they name — for a finance dashboard or a
// campaign thermometer on a screen — and never a gift, a donor, a batch, a pledge or a statement. Donors
// reach no token: no scope opens donations, donation_batches or pledges.
//
// The read rules of funds and donation_splits are written out whole here (they replace those of
// 1732640000_giving.js).

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGE = has("giving.manage");
const VIEW = `(${has("giving.view")} || ${MANAGE})`;
const SUMMARY = `(${has("giving.view_summary")} || ${VIEW})`;
const SUMMARY_TOKEN = '@request.auth.scopes:each ?= "giving.summary"';

const FUND_READ = `visibility = "public" || ${SUMMARY} || ${SUMMARY_TOKEN}`;
const SPLIT_READ = `${SUMMARY} || ${SUMMARY_TOKEN}`;

function setScope(app, present) {
  const clients = app.findCollectionByNameOrId("api_clients");
  const scopes = clients.fields.getByName("scopes");
  scopes.values = [
    ...scopes.values.filter((value) => value !== "giving.summary"),
    ...(present ? ["giving.summary"] : []),
  ];
  scopes.maxSelect = scopes.values.length;
  app.save(clients);
}

function setRules(app, fundRead, splitRead) {
  const funds = app.findCollectionByNameOrId("funds");
  funds.listRule = fundRead;
  funds.viewRule = fundRead;
  app.save(funds);
  const splits = app.findCollectionByNameOrId("donation_splits");
  splits.listRule = splitRead;
  splits.viewRule = splitRead;
  app.save(splits);
}

migrate(
  (app) => {
    setScope(app, true);
    setRules(app, FUND_READ, SPLIT_READ);
  },
  (app) => {
    for (const client of app.findAllRecords("api_clients")) {
      const kept = client.get("scopes").filter((scope) => scope !== "giving.summary");
      client.set("scopes", kept);
      app.save(client);
    }
    setRules(app, `visibility = "public" || ${SUMMARY}`, SUMMARY);
    setScope(app, false);
  },
);
