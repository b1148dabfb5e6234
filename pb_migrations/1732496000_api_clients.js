/// <reference path="../pb_data/types.d.ts" />
// Integrators (issue 16): API tokens. Each token is a machine identity, a record of the auth
// collection `api_clients`, so that PocketBase's API rules decide what a token may read, exactly as
// they do for people: a rule grants a scope with `@request.auth.scopes ?= "<scope>"` (the field
// exists only on api_clients; for people it is empty, so those branches never match them).
// - Nobody signs in as a client: no password, OTP or OAuth2 sign-in; the gateway, as the system,
//   issues a short-lived impersonation token for a client after checking the bearer token's secret
//   against `secretHash` (SHA-256 of a 256-bit random secret; the secret itself is never stored).
// - Staff with api.manage list, create and revoke clients; the scopes of an existing client cannot
//   change (revoke and create a new one). The secret hash is a hidden field: only the system sets it.
const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const MANAGER = has("api.manage");
const SCOPES = ["content.members", "prayer.members"];
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const scope = (name) => `@request.auth.scopes:each ?= "${name}"`;
// What a scope reads: wherever an active member may read (list and view), a client with the scope may.
const SCOPED_READS = {
  posts: "content.members",
  events: "content.members",
  event_exceptions: "content.members",
  prayer_requests: "prayer.members",
};
/** The list and view rules of the scoped collections, with the scope granted (`on`) or not. */
const grantScopes = (app, on) => {
  for (const [name, scopeName] of Object.entries(SCOPED_READS)) {
    const collection = app.findCollectionByNameOrId(name);
    const granted = `(${ACTIVE} || ${scope(scopeName)})`;
    for (const rule of ["listRule", "viewRule"]) {
      // Rules are Go *string values here: typeof says "object"; String() gives the text (null: locked).
      if (collection[rule] == null) continue;
      const current = String(collection[rule]);
      collection[rule] = on ? current.replaceAll(ACTIVE, granted) : current.replaceAll(granted, ACTIVE);
    }
    app.save(collection);
  }
};

migrate(
  (app) => {
    const roles = app.findCollectionByNameOrId("roles");
    const permissions = roles.fields.getByName("permissions");
    permissions.values = [...permissions.values, "api.manage"];
    permissions.maxSelect = permissions.values.length;
    app.save(roles);
    // Administrators manage integrations (other roles get it from an administrator).
    const admin = app.findFirstRecordByFilter("roles", "name = 'Administrator'");
    if (admin) {
      admin.set("permissions", [...admin.get("permissions"), "api.manage"]);
      app.save(admin);
    }

    const users = app.findCollectionByNameOrId("users");
    const clients = new Collection({
      type: "auth",
      name: "api_clients",
      listRule: MANAGER,
      viewRule: MANAGER,
      createRule: `${MANAGER} && @request.body.createdBy = @request.auth.id && @request.body.revokedAt:isset = false`,
      // Revoking (and renaming); the secret and the scopes stay as issued.
      updateRule: `${MANAGER} && @request.body.scopes:isset = false && @request.body.createdBy:isset = false`,
      deleteRule: null,
      // Never through PocketBase's own sign-in endpoints.
      authRule: null,
      manageRule: null,
      passwordAuth: { enabled: false, identityFields: ["email"] },
      otp: { enabled: false },
      mfa: { enabled: false },
      oauth2: { enabled: false },
      fields: [
        { name: "name", type: "text", required: true, min: 1, max: 80 }, // LIMITS.apiTokenNameMax
        { name: "scopes", type: "select", maxSelect: SCOPES.length, values: SCOPES },
        // Hidden: no API returns it, and only the system can set it (the gateway does, right after the
        // manager's create; until then the client has no secret and no token matches it).
        { name: "secretHash", type: "text", max: 64, pattern: "^[0-9a-f]{64}$", hidden: true },
        { name: "createdBy", type: "relation", collectionId: users.id, maxSelect: 1, required: true },
        { name: "expiresAt", type: "date" },
        { name: "revokedAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_api_clients_created ON api_clients (created DESC, id DESC)"],
    });
    app.save(clients);

    // When and from where each client was last used: its own row, written by the system only. Kept
    // off api_clients on purpose: a write there saves the whole record, and one racing a revoke
    // could put back the revokedAt it read before (a lost update that would un-revoke a token).
    const usage = new Collection({
      type: "base",
      name: "api_client_usage",
      listRule: MANAGER,
      viewRule: MANAGER,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          name: "client",
          type: "relation",
          collectionId: clients.id,
          maxSelect: 1,
          required: true,
          cascadeDelete: true,
        },
        { name: "lastUsedAt", type: "date" },
        { name: "lastUsedIp", type: "text", max: 64 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_api_client_usage_client ON api_client_usage (client)"],
    });
    app.save(usage);
    grantScopes(app, true);
  },
  (app) => {
    grantScopes(app, false);
    app.delete(app.findCollectionByNameOrId("api_client_usage"));
    app.delete(app.findCollectionByNameOrId("api_clients"));
    const roles = app.findCollectionByNameOrId("roles");
    const permissions = roles.fields.getByName("permissions");
    permissions.values = permissions.values.filter((value) => value !== "api.manage");
    app.save(roles);
  },
);
