/// <reference path="../pb_data/types.d.ts" />
// People and households (PRODUCT.md §2, §4, §5): complete person records, households, contact rows
// with their own visibility, a private sidecar for the birth date, household invitations and visit
// requests. Derived fields (people.ageGroup, people.inDirectory, households.inDirectory) are kept by
// pb_hooks/people.pb.js on every write path, so the rules below can rely on them.
//
// Privacy model: PocketBase rules filter rows, not columns, so every detail a member may hide is a
// row with its own `visibility` (private, leaders, groups, members). A row is readable by
//   - staff with people.view / people.manage,
//   - the person, and the (active) people of their household,
//   - an active member, when the row says "members" and its person is in the directory.
// Only its owner decides who sees a detail: adults manage their own rows and the rows of their
// household's children and youth, never another adult's (a spouse cannot publish a private phone or
// undo an opt-out). Household access needs an active person: a login whose person is archived (or still
// pending) keeps only its own record.
// "leaders" and "groups" rows are shown to group leaders and group mates once groups exist (the groups
// issue widens these rules); until then they are as private as "private".
// The full birth date lives in `person_private` (self, household, staff); others see at most the month
// and day, through `person_birthdays`.

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const timestamps = () => [
  { name: "created", type: "autodate", onCreate: true, onUpdate: false },
  { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
];
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const VISIBILITY = ["private", "leaders", "groups", "members"];

const MANAGE = has("people.manage");
const STAFF = `(${has("people.view")} || ${has("people.manage")})`;
const ME = "@request.auth.person";
const MY_HOUSEHOLD = "@request.auth.person.household";
// The caller's person was approved by staff: only then do member areas open.
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const ADULT = '@request.auth.person.ageGroup = "adult"';
// Guards against "" = "" when the caller, or the person, has no household; an archived (or pending)
// person's login no longer reaches the household.
const IN_MY_HOUSEHOLD = (field) => `(${ACTIVE} && ${MY_HOUSEHOLD} != "" && ${field} = ${MY_HOUSEHOLD})`;

// Who may read a row that belongs to a person (emails, phones, birthdays).
const personRowRead =
  `${STAFF} || person = ${ME} || ${IN_MY_HOUSEHOLD("person.household")} || ` +
  `(visibility = "members" && person.inDirectory = true && ${ACTIVE})`;
// Who may write it: people managers, the person, and the adults of their household when the person is
// not an adult (another adult's details, and their birth date, are theirs alone).
const ADULT_OF_MINOR = (personPrefix) =>
  `(${IN_MY_HOUSEHOLD(`${personPrefix}household`)} && ${ADULT} && ${personPrefix}ageGroup != "adult")`;
const personRowWrite = `${MANAGE} || person = ${ME} || ${ADULT_OF_MINOR("person.")}`;
const personRowUpdate = `${MANAGE} || ((person = ${ME} || ${ADULT_OF_MINOR("person.")}) && @request.body.person:isset = false)`;

migrate(
  (app) => {
    const people = app.findCollectionByNameOrId("people");

    const households = new Collection({
      type: "base",
      name: "households",
      listRule: `${STAFF} || ${IN_MY_HOUSEHOLD("id")} || (inDirectory = true && ${ACTIVE})`,
      viewRule: `${STAFF} || ${IN_MY_HOUSEHOLD("id")} || (inDirectory = true && ${ACTIVE})`,
      createRule: MANAGE,
      updateRule: `${MANAGE} || (${IN_MY_HOUSEHOLD("id")} && ${ADULT} && @request.body.inDirectory:isset = false)`,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        // Protected: PocketBase applies the view rule to the file too (a file token is needed).
        {
          name: "photo",
          type: "file",
          maxSelect: 1,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ["96x96", "400x300"],
          protected: true,
        },
        { name: "directoryOptOut", type: "bool" },
        // Derived (pb_hooks): not opted out and at least one person of it is in the directory.
        { name: "inDirectory", type: "bool" },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_households_name ON households (name COLLATE NOCASE)"],
    });
    app.save(households);

    people.fields.add(new TextField({ name: "preferredName", max: 50 }));
    people.fields.add(
      new SelectField({ name: "ageGroup", maxSelect: 1, values: ["adult", "youth", "child"] }),
    );
    people.fields.add(new RelationField({ name: "household", collectionId: households.id, maxSelect: 1 }));
    people.fields.add(
      new SelectField({ name: "householdRole", maxSelect: 1, values: ["head", "spouse", "child", "other"] }),
    );
    people.fields.add(
      new SelectField({
        name: "membershipStatus",
        maxSelect: 1,
        values: ["visitor", "regular_attender", "member", "inactive"],
      }),
    );
    people.fields.add(
      new FileField({
        name: "photo",
        maxSelect: 1,
        maxSize: 10 * 1024 * 1024,
        mimeTypes: IMAGE_TYPES,
        thumbs: ["96x96", "400x400"],
        protected: true,
      }),
    );
    people.fields.add(new BoolField({ name: "directoryOptOut" }));
    // Derived (pb_hooks): active, member or regular attender, not a child, neither they nor their household opted out.
    people.fields.add(new BoolField({ name: "inDirectory" }));
    people.fields.add(new RelationField({ name: "mergedInto", collectionId: people.id, maxSelect: 1 }));
    people.fields.add(new DateField({ name: "deletionRequestedAt" }));
    people.fields.add(new DateField({ name: "anonymizedAt" }));
    people.indexes = [
      "CREATE INDEX idx_people_status ON people (recordStatus)",
      "CREATE INDEX idx_people_household ON people (household)",
      "CREATE INDEX idx_people_names ON people (lastName COLLATE NOCASE, firstName COLLATE NOCASE)",
      "CREATE INDEX idx_people_directory ON people (inDirectory)",
    ];
    // A member never changes their own status, household, role or the derived fields.
    const selfEditable = [
      "recordStatus",
      "membershipStatus",
      "household",
      "householdRole",
      "ageGroup",
      "inDirectory",
      "mergedInto",
      "anonymizedAt",
    ]
      .map((f) => `@request.body.${f}:isset = false`)
      .join(" && ");
    people.listRule = `${STAFF} || id = ${ME} || ${IN_MY_HOUSEHOLD("household")} || (inDirectory = true && ${ACTIVE})`;
    people.viewRule = people.listRule;
    // Adults of an approved household may add their children; everything else is staff work.
    people.createRule =
      `${MANAGE} || (${ACTIVE} && ${ADULT} && ${IN_MY_HOUSEHOLD("household")} && householdRole = "child" && ` +
      `recordStatus = "active" && @request.body.membershipStatus:isset = false && @request.body.mergedInto:isset = false && ` +
      "@request.body.anonymizedAt:isset = false)";
    people.updateRule = `${MANAGE} || ((id = ${ME} || ${ADULT_OF_MINOR("")}) && ${selfEditable})`;
    people.deleteRule = null; // archive, merge or anonymise instead
    app.save(people);

    const personPrivate = new Collection({
      type: "base",
      name: "person_private",
      listRule: `${STAFF} || person = ${ME} || ${IN_MY_HOUSEHOLD("person.household")}`,
      viewRule: `${STAFF} || person = ${ME} || ${IN_MY_HOUSEHOLD("person.household")}`,
      createRule: personRowWrite,
      updateRule: personRowUpdate,
      deleteRule: personRowWrite,
      fields: [
        {
          name: "person",
          type: "relation",
          required: true,
          collectionId: people.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "birthDate", type: "date" },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_person_private_person ON person_private (person)"],
    });
    app.save(personPrivate);

    const rowCollection = (name, fields, indexes) =>
      new Collection({
        type: "base",
        name,
        listRule: personRowRead,
        viewRule: personRowRead,
        createRule: personRowWrite,
        updateRule: personRowUpdate,
        deleteRule: personRowWrite,
        fields: [
          {
            name: "person",
            type: "relation",
            required: true,
            collectionId: people.id,
            maxSelect: 1,
            cascadeDelete: true,
          },
          ...fields,
          { name: "visibility", type: "select", required: true, maxSelect: 1, values: VISIBILITY },
          ...timestamps(),
        ],
        indexes,
      });

    app.save(
      rowCollection(
        "person_emails",
        [
          { name: "email", type: "email", required: true },
          { name: "isPrimary", type: "bool" },
        ],
        [
          "CREATE UNIQUE INDEX idx_person_emails_unique ON person_emails (person, email COLLATE NOCASE)",
          // At most one primary email per person, whatever path writes it.
          "CREATE UNIQUE INDEX idx_person_emails_primary ON person_emails (person) WHERE isPrimary = 1",
          "CREATE INDEX idx_person_emails_email ON person_emails (email COLLATE NOCASE)",
        ],
      ),
    );
    app.save(
      rowCollection(
        "person_phones",
        [
          { name: "number", type: "text", required: true, pattern: "^\\+[1-9][0-9]{6,14}$", max: 16 },
          { name: "kind", type: "select", maxSelect: 1, values: ["mobile", "home", "work", "other"] },
          { name: "isPrimary", type: "bool" },
        ],
        [
          "CREATE UNIQUE INDEX idx_person_phones_unique ON person_phones (person, number)",
          "CREATE UNIQUE INDEX idx_person_phones_primary ON person_phones (person) WHERE isPrimary = 1",
          "CREATE INDEX idx_person_phones_number ON person_phones (number)",
        ],
      ),
    );
    // Month and day only (kept in step with person_private.birthDate by pb_hooks).
    app.save(
      rowCollection(
        "person_birthdays",
        [
          { name: "month", type: "number", required: true, onlyInt: true, min: 1, max: 12 },
          { name: "day", type: "number", required: true, onlyInt: true, min: 1, max: 31 },
        ],
        ["CREATE UNIQUE INDEX idx_person_birthdays_person ON person_birthdays (person)"],
      ),
    );

    const addresses = new Collection({
      type: "base",
      name: "addresses",
      // A household's home address, shared by its people.
      listRule: `${STAFF} || ${IN_MY_HOUSEHOLD("household")} || (visibility = "members" && household.inDirectory = true && ${ACTIVE})`,
      viewRule: `${STAFF} || ${IN_MY_HOUSEHOLD("household")} || (visibility = "members" && household.inDirectory = true && ${ACTIVE})`,
      createRule: `${MANAGE} || (${IN_MY_HOUSEHOLD("household")} && ${ADULT})`,
      updateRule: `${MANAGE} || (${IN_MY_HOUSEHOLD("household")} && ${ADULT} && @request.body.household:isset = false)`,
      deleteRule: `${MANAGE} || (${IN_MY_HOUSEHOLD("household")} && ${ADULT})`,
      fields: [
        {
          name: "household",
          type: "relation",
          required: true,
          collectionId: households.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "street1", type: "text", required: true, min: 1, max: 100 },
        { name: "street2", type: "text", max: 100 },
        { name: "city", type: "text", required: true, min: 1, max: 60 },
        { name: "region", type: "text", max: 60 },
        { name: "postalCode", type: "text", max: 20 },
        { name: "country", type: "text", required: true, pattern: "^[A-Z]{2}$", max: 2 },
        { name: "visibility", type: "select", required: true, maxSelect: 1, values: VISIBILITY },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_addresses_household ON addresses (household)"],
    });
    app.save(addresses);

    const invitations = new Collection({
      type: "base",
      name: "household_invitations",
      // An adult invites a spouse (or another adult) to join the household by email. The token is
      // mailed; only its SHA-256 is stored. Accepting still needs staff approval of the sign-up.
      listRule: `${MANAGE} || ${IN_MY_HOUSEHOLD("household")}`,
      viewRule: `${MANAGE} || ${IN_MY_HOUSEHOLD("household")}`,
      createRule: `${MANAGE} || (${ACTIVE} && ${ADULT} && ${IN_MY_HOUSEHOLD("household")} && invitedBy = ${ME} && status = "pending")`,
      updateRule:
        `${MANAGE} || (${IN_MY_HOUSEHOLD("household")} && ${ADULT} && @request.body.status = "revoked" && ` +
        "@request.body.household:isset = false && @request.body.tokenHash:isset = false && @request.body.email:isset = false)",
      deleteRule: null,
      fields: [
        {
          name: "household",
          type: "relation",
          required: true,
          collectionId: households.id,
          maxSelect: 1,
          cascadeDelete: true,
        },
        { name: "email", type: "email", required: true },
        { name: "name", type: "text", required: true, min: 1, max: 100 },
        { name: "tokenHash", type: "text", required: true, min: 64, max: 64 },
        { name: "invitedBy", type: "relation", collectionId: people.id, maxSelect: 1 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["pending", "accepted", "revoked"],
        },
        { name: "expiresAt", type: "date", required: true },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_household_invitations_token ON household_invitations (tokenHash)"],
    });
    app.save(invitations);

    const visits = new Collection({
      type: "base",
      name: "visit_requests",
      // Anyone may plan a visit (the gateway throttles per IP); only staff read and follow up.
      listRule: STAFF,
      viewRule: STAFF,
      createRule:
        'status = "new" && @request.body.staffNote:isset = false && @request.body.person:isset = false',
      updateRule: MANAGE,
      deleteRule: MANAGE,
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 200 },
        { name: "email", type: "email", required: true },
        { name: "phone", type: "text", pattern: "^\\+[1-9][0-9]{6,14}$", max: 16 },
        { name: "plannedDate", type: "date" },
        { name: "partySize", type: "number", onlyInt: true, min: 1, max: 50 },
        { name: "message", type: "text", max: 2000 },
        {
          name: "status",
          type: "select",
          required: true,
          maxSelect: 1,
          values: ["new", "contacted", "closed"],
        },
        { name: "staffNote", type: "text", max: 2000 },
        { name: "person", type: "relation", collectionId: people.id, maxSelect: 1 },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_visit_requests_status ON visit_requests (status, created)"],
    });
    app.save(visits);

    // People managers link a login to a person (sign-up approval, merge) and remove the login of an
    // anonymised person; they cannot touch roles, status, email or password.
    const users = app.findCollectionByNameOrId("users");
    users.listRule = `id = @request.auth.id || ${has("roles.manage")} || ${STAFF}`;
    users.viewRule = users.listRule;
    users.updateRule =
      "(id = @request.auth.id && @request.body.roles:isset = false && @request.body.person:isset = false && " +
      `@request.body.status:isset = false) || ${has("roles.manage")} || (${MANAGE} && @request.body.roles:isset = false && ` +
      "@request.body.status:isset = false && @request.body.email:isset = false && @request.body.verified:isset = false)";
    // A login that holds roles is a staff account: only account managers may delete it. (Two `has()` in
    // one branch never match, see 1732100000_publishing.js: each permission gets its own branch.)
    users.deleteRule =
      `(${MANAGE} && person.recordStatus = "archived" && roles:length = 0) || ` +
      `(${has("roles.manage")} && person.recordStatus = "archived")`;
    app.save(users);
  },
  (app) => {
    for (const name of [
      "visit_requests",
      "household_invitations",
      "addresses",
      "person_birthdays",
      "person_phones",
      "person_emails",
      "person_private",
    ]) {
      try {
        app.delete(app.findCollectionByNameOrId(name));
      } catch (_) {
        /* already gone */
      }
    }
    const people = app.findCollectionByNameOrId("people");
    for (const f of [
      "preferredName",
      "ageGroup",
      "household",
      "householdRole",
      "membershipStatus",
      "photo",
      "directoryOptOut",
      "inDirectory",
      "mergedInto",
      "deletionRequestedAt",
      "anonymizedAt",
    ]) {
      people.fields.removeByName(f);
    }
    app.save(people);
    try {
      app.delete(app.findCollectionByNameOrId("households"));
    } catch (_) {
      /* already gone */
    }
  },
);
