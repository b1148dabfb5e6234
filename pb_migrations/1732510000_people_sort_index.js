/// <reference path="../pb_data/types.d.ts" />
// Staff's people list sorts by (lastName, firstName, id); idx_people_names is NOCASE and cannot give
// that order, so SQLite sorted every person the rule let through (joined with the viewer's roles and
// groups, then de-duplicated) to return the first page: 250 ms for one row at 6,000 people and 4,000
// group memberships, 2 ms with this index (the list walks names in order and stops at the page size).

const INDEX = "CREATE INDEX idx_people_sort ON people (lastName, firstName, id)";

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");
    people.indexes = [...people.indexes.filter((sql) => !sql.includes("idx_people_sort ")), INDEX];
    app.save(people);
  },
  (app) => {
    const people = app.findCollectionByNameOrId("people");
    people.indexes = people.indexes.filter((sql) => !sql.includes("idx_people_sort "));
    app.save(people);
  },
);
