/// <reference path="../pb_data/types.d.ts" />
// Integrators (issue 16): the directory-level people scope, "people.directory". A client with it reads
// what an active member reads in the member directory (PRODUCT.md §5) and nothing else:
//   - households and people that are in the directory (inDirectory: derived by pb_hooks/lib/people.js;
//     never a child, never an opted-out household, never a pending or archived person);
//   - of those, the contact rows (emails, phones, birthdays) and home addresses marked "members" —
//     never "private", "groups" or "leaders" rows, and never person_private (no branch added there).
// Each directory branch `inDirectory = true && <active member>` becomes
// `inDirectory = true && (<active member> || <scope>)`: the scope test reads the caller's own record
// (@request.auth.scopes), so no join is added to the people-sized collections.
//
// The other branches stay closed to a client: an api_clients record has neither `person` nor `roles`,
// and PocketBase resolves `@request.auth.person…` / `@request.auth.roles…` of such a record to nothing
// (no error, no match), as the content.members and prayer.members branches already rely on
// (1732496000_api_clients.js); gateway/test/authorization-tokens.int.test.ts checks it for every scope.
const SCOPE = "people.directory";
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const LISTED = `inDirectory = true && ${ACTIVE}`;
const GRANTED = `inDirectory = true && (${ACTIVE} || @request.auth.scopes:each ?= "${SCOPE}")`;
const COLLECTIONS = [
  "households",
  "people",
  "person_emails",
  "person_phones",
  "person_birthdays",
  "addresses",
];

const setScopeValue = (app, on) => {
  const clients = app.findCollectionByNameOrId("api_clients");
  const scopes = clients.fields.getByName("scopes");
  const others = scopes.values.filter((value) => value !== SCOPE);
  scopes.values = on ? [...others, SCOPE] : others;
  scopes.maxSelect = scopes.values.length;
  app.save(clients);
};

const grant = (app, on) => {
  for (const name of COLLECTIONS) {
    const collection = app.findCollectionByNameOrId(name);
    for (const rule of ["listRule", "viewRule"]) {
      // Rules are Go *string values here: String() gives the text (null: locked).
      if (collection[rule] == null) continue;
      const current = String(collection[rule]);
      const next = on ? current.replaceAll(LISTED, GRANTED) : current.replaceAll(GRANTED, LISTED);
      // Every one of these rules has exactly one directory branch; anything else means the rules moved.
      if (on && next.split(GRANTED).length !== 2)
        throw new Error(`${name}.${rule}: expected one directory branch`);
      collection[rule] = next;
    }
    app.save(collection);
  }
};

migrate(
  (app) => {
    setScopeValue(app, true);
    grant(app, true);
  },
  (app) => {
    grant(app, false);
    // Clients issued with the scope keep the others.
    for (const client of app.findRecordsByFilter("api_clients", `scopes ~ "${SCOPE}"`, "", 0, 0)) {
      client.set(
        "scopes",
        client.get("scopes").filter((value) => value !== SCOPE),
      );
      app.save(client);
    }
    setScopeValue(app, false);
  },
);
