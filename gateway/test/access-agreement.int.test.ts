/**
 * The agreement column of the authorization tables (issue 9): for every persona, what GraphQL says
 * the viewer may do (`viewer { can { … } }`, which the web app shows and guards its screens by)
 * must be what PocketBase's API rules then actually allow. Each ability is probed by doing the thing
 * through PocketBase's REST API as that persona, so a rule change the gateway's mirror
 * (gateway/src/access/abilities.ts) misses — or the other way round — fails here.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { ABILITIES, type Abilities, type Ability } from "../src/access/abilities.ts";
import type { PermissionName } from "../src/pocketbase/records.ts";
import {
  createUser,
  fileOf,
  GqlClient,
  pbAs,
  pngBytes,
  restStatus,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import { createEvent, registrationBody } from "./event-support.ts";

/** Personas: the seeded roles, single-permission roles, and people without any. */
const CUSTOM_ROLES: Record<string, PermissionName[]> = {
  writer: ["content.edit"],
  publisherOnly: ["content.publish"],
  mediaOnly: ["media.manage"],
  moderatorOnly: ["prayer.moderate"],
  pastoralOnly: ["prayer.view_pastoral"],
  peopleViewer: ["people.view"],
  settingsOnly: ["settings.manage"],
  accountsOnly: ["roles.manage"],
  eventsOnly: ["events.manage"],
  integrationsOnly: ["api.manage"],
  groupsOnly: ["groups.manage"],
  servingOnly: ["serving.manage"],
  givingSummaryOnly: ["giving.view_summary"],
  givingViewOnly: ["giving.view"],
  treasurer: ["giving.manage"],
};

let gateway: Gateway;
let su: PocketBase;
const personas = new Map<string, TestUser | null>();
let otherUploader: TestUser;
const run = randomUUID().slice(0, 6);
const slug = (label: string) => `${label}-${run}-${randomUUID().slice(0, 6)}`;
let settingsId = "";
let settingsTagline = "";
/** householdAdult's household. */
let ownHousehold = "";

/** Did PocketBase allow it? (2xx: yes; 400 from a rule-checked body, 403, 404: no.) */
const allowed = async (run: () => Promise<unknown>) => (await restStatus(run)) === 200;

/** A record the system makes for one probe, removed afterwards whatever happened. */
/** An anonymous gift of 10.00 to a hidden fund, made by the system for a probe and removed after it. */
async function withGift(probe: (gift: { id: string }) => Promise<boolean>): Promise<boolean> {
  const fund = await su.collection("funds").create({ name: `Probe ${slug("fund")}`, visibility: "hidden" });
  try {
    return await withRecord(
      "donations",
      () =>
        su.collection("donations").create({
          date: "2026-01-04 00:00:00.000Z",
          amountCents: 1000,
          method: "cash",
          splits: [{ fund: fund.id, amountCents: 1000 }],
        }),
      probe,
    );
  } finally {
    await su
      .collection("funds")
      .delete(fund.id)
      .catch(() => undefined);
  }
}

async function withRecord<T extends { id: string }>(
  collection: string,
  make: () => Promise<T>,
  probe: (record: T) => Promise<boolean>,
): Promise<boolean> {
  const record = await make();
  try {
    return await probe(record);
  } finally {
    await su
      .collection(collection)
      .delete(record.id)
      .catch(() => undefined);
  }
}

/** Each ability, done for real as the persona through PocketBase's REST API. */
const PROBES: Record<Ability, (pb: PocketBase, user: TestUser | null) => Promise<boolean>> = {
  async editContent(pb) {
    const created = await pb
      .collection("pages")
      .create({ title: "Probe", slug: slug("edit"), status: "draft", revision: 1 })
      .catch(() => null);
    if (created) await su.collection("pages").delete(created.id);
    return !!created;
  },
  async publishContent(pb) {
    return withRecord(
      "pages",
      () =>
        su
          .collection("pages")
          .create({ title: "Probe", slug: slug("publish"), status: "draft", revision: 1 }),
      (page) =>
        allowed(() =>
          pb
            .collection("pages")
            .update(page.id, { status: "published", publishedAt: new Date().toISOString() }),
        ),
    );
  },
  async useMediaLibrary(pb, user) {
    if (!user) return false;
    const created = await pb
      .collection("media")
      .create({
        file: fileOf(pngBytes(), "probe.png", "image/png"),
        kind: "image",
        filename: "probe.png",
        uploadedBy: user.id,
      })
      .catch(() => null);
    if (created) await su.collection("media").delete(created.id);
    return !!created;
  },
  async manageMedia(pb) {
    return withRecord(
      "media",
      () =>
        su.collection("media").create({
          file: fileOf(pngBytes(), "other.png", "image/png"),
          kind: "image",
          filename: "other.png",
          uploadedBy: otherUploader.id,
        }),
      (media) => allowed(() => pb.collection("media").delete(media.id)),
    );
  },
  async manageSermons(pb) {
    const created = await pb
      .collection("sermon_series")
      .create({ title: "Probe", slug: slug("series") })
      .catch(() => null);
    if (created) await su.collection("sermon_series").delete(created.id);
    return !!created;
  },
  async manageEvents(pb) {
    const created = await pb
      .collection("event_categories")
      .create({ name: "Probe", slug: slug("category") })
      .catch(() => null);
    if (created) await su.collection("event_categories").delete(created.id);
    return !!created;
  },
  async manageGroups(pb) {
    const created = await pb
      .collection("groups")
      .create({
        name: "Probe",
        slug: slug("group"),
        type: "small_group",
        locationDisplay: "hidden",
        visibility: "hidden",
        joinPolicy: "closed",
        rosterVisibility: "leaders",
        status: "active",
      })
      .catch(() => null);
    if (created) await su.collection("groups").delete(created.id);
    return !!created;
  },
  async manageServing(pb) {
    const created = await pb
      .collection("serving_teams")
      .create({ name: `Probe ${slug("team")}`, status: "active" })
      .catch(() => null);
    if (created) await su.collection("serving_teams").delete(created.id);
    return !!created;
  },
  async operateCheckin(pb) {
    const created = await pb
      .collection("checkin_rooms")
      .create({ name: `Probe ${slug("room")}`, active: true })
      .catch(() => null);
    if (created) await su.collection("checkin_rooms").delete(created.id);
    return !!created;
  },
  async viewGivingSummary(pb) {
    // A gift's row per fund (the hook writes it with the gift): totals without the donor.
    return withGift((gift) =>
      pb
        .collection("donation_splits")
        .getFullList({ filter: `donation = "${gift.id}"` })
        .then(
          (rows) => rows.length === 1,
          () => false,
        ),
    );
  },
  async viewGiving(pb) {
    return withGift((gift) => allowed(() => pb.collection("donations").getOne(gift.id)));
  },
  async manageGiving(pb) {
    const created = await pb
      .collection("funds")
      .create({ name: `Probe ${slug("fund")}`, visibility: "hidden" })
      .catch(() => null);
    if (created) await su.collection("funds").delete(created.id);
    return !!created;
  },
  async viewPeople(pb) {
    return withRecord(
      "people",
      () =>
        su
          .collection("people")
          .create({ firstName: "Someone", lastName: `Else ${run}`, recordStatus: "active" }),
      (person) => allowed(() => pb.collection("people").getOne(person.id)),
    );
  },
  async managePeople(pb) {
    const created = await pb
      .collection("people")
      .create({ firstName: "Probe", lastName: `Person ${run}`, recordStatus: "pending" })
      .catch(() => null);
    if (created) await su.collection("people").delete(created.id);
    return !!created;
  },
  async moderatePrayer(pb) {
    return withRecord(
      "prayer_requests",
      () =>
        su.collection("prayer_requests").create({
          body: `Probe request ${run}`,
          visibility: "public",
          anonymous: true,
          authorName: "",
          status: "pending",
        }),
      (request) => allowed(() => pb.collection("prayer_requests").update(request.id, { status: "approved" })),
    );
  },
  async viewPastoralPrayer(pb) {
    return withRecord(
      "prayer_requests",
      () =>
        su.collection("prayer_requests").create({
          body: `Pastoral probe ${run}`,
          visibility: "pastoral",
          anonymous: true,
          authorName: "",
          status: "pending",
        }),
      (request) => allowed(() => pb.collection("prayer_requests").getOne(request.id)),
    );
  },
  async manageSettings(pb) {
    return allowed(() => pb.collection("settings").update(settingsId, { tagline: settingsTagline }));
  },
  async manageIntegrations(pb, user) {
    if (!user) return false;
    const secret = "probe-password-" + run;
    const created = await pb
      .collection("api_clients")
      .create({
        name: "Probe",
        scopes: [],
        createdBy: user.id,
        email: `${slug("probe")}@api-clients.invalid`,
        password: secret,
        passwordConfirm: secret,
      })
      .catch(() => null);
    if (created) await su.collection("api_clients").delete(created.id);
    return !!created;
  },
  async manageRoles(pb) {
    const created = await pb
      .collection("roles")
      .create({ name: `Probe role ${slug("r")}`, permissions: [] })
      .catch(() => null);
    if (created) await su.collection("roles").delete(created.id);
    return !!created;
  },
};

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const settings = await su.collection("settings").getFirstListItem("");
  settingsId = settings.id;
  settingsTagline = settings.tagline as string;
  otherUploader = await createUser({ roles: ["Editor"] });
  personas.set("anonymous", null);
  personas.set("pending", await createUser({ person: "pending" }));
  personas.set("member", await createUser());
  // Members whose records the record probes build around (see RECORD_PROBES).
  personas.set("groupLeader", await createUser());
  personas.set("groupMember", await createUser());
  const householdAdult = await createUser();
  // Set before the gateway first reads this persona (it remembers a viewer for a minute).
  ownHousehold = (await su.collection("households").create({ name: `Probe household ${run}` })).id;
  await su
    .collection("people")
    .update(householdAdult.personId!, { household: ownHousehold, householdRole: "head" });
  personas.set("householdAdult", householdAdult);
  for (const role of ["Administrator", "Pastor", "Editor", "Care Team"] as const)
    personas.set(role, await createUser({ roles: [role] }));
  for (const [name, permissions] of Object.entries(CUSTOM_ROLES)) {
    const role = await su.collection("roles").create({ name: `${name} ${run}`, permissions });
    const user = await createUser();
    await su.collection("users").update(user.id, { roles: [role.id] });
    personas.set(name, user);
  }
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

const ABILITY_NAMES = Object.keys(ABILITIES) as Ability[];

describe("what GraphQL says each persona may do agrees with what PocketBase allows", () => {
  it("every ability, for every persona", async () => {
    const disagreements: string[] = [];
    const table: string[] = [];
    for (const [name, user] of personas) {
      const client = new GqlClient(gateway, user ? { token: user.token } : {});
      const result = await client.request<{ viewer: { can: Abilities } | null }>(
        `{ viewer { can { useAdmin ${ABILITY_NAMES.join(" ")} } } }`,
      );
      expect(result.errors, name).toBeUndefined();
      const says = result.data?.viewer?.can ?? null;
      if (!user) expect(says, "a visitor has no viewer").toBeNull();
      const pb = pbAs(user);
      const row: string[] = [];
      for (const ability of ABILITY_NAMES) {
        const actual = await PROBES[ability](pb, user);
        const claimed = says?.[ability] ?? false;
        row.push(`${ability}=${actual ? "Y" : "n"}`);
        if (claimed !== actual)
          disagreements.push(
            `${name}: GraphQL says ${ability} = ${claimed}, PocketBase ${actual ? "allows" : "refuses"} it`,
          );
      }
      if (says)
        expect(says.useAdmin, `${name}: useAdmin is any ability`).toBe(
          ABILITY_NAMES.some((ability) => says[ability]),
        );
      table.push(`${name.padEnd(14)} ${row.join(" ")}`);
    }
    expect(disagreements, table.join("\n")).toEqual([]);
    // The probes must tell personas apart, or they would agree with anything.
    for (const ability of ABILITY_NAMES) {
      const column = table.map((line) => line.includes(`${ability}=Y`));
      expect(
        column.some(Boolean) && !column.every(Boolean),
        `${ability}: some personas may, some may not`,
      ).toBe(true);
    }
  }, 120_000);
});

/**
 * The same agreement for what a viewer may do with one record (each type's `can`, computed by the
 * feature's policy in gateway/src/access/): each claim is checked by doing it through REST, as the
 * persona, on a record made for the probe. Some records are made around a persona (a group that
 * `groupLeader` leads and `groupMember` belongs to, a child in `householdAdult`'s household), so the
 * record-level grants are probed as well as the staff ones.
 */
type Made = { id: string; keep?: boolean } & Record<string, unknown>;
type RecordProbe = {
  /** The collection `make` creates in (its record is removed afterwards, unless `keep`). */
  collection: string;
  make(user: TestUser | null): Promise<Made>;
  /** What GraphQL says the persona may do with it (false when they cannot see it). */
  claim(client: GqlClient, record: Made): Promise<boolean>;
  /** Doing it through REST as the persona. */
  act(pb: PocketBase, record: Made, user: TestUser | null): Promise<unknown>;
};

/** The claim read from one query: `query(id) { can { field } }` (a record the viewer cannot see: false). */
const canOf =
  (query: string, field: string, arg: "id" | "slug" = "id", type = "ID!") =>
  async (client: GqlClient, record: Made) => {
    const result = await client.request<Record<string, { can: Record<string, boolean> } | null>>(
      `query ($key: ${type}) { record: ${query}(${arg}: $key) { can { ${field} } } }`,
      { key: record[arg] },
    );
    expect(result.errors, `${query}.can.${field}`).toBeUndefined();
    return result.data?.record?.can[field] ?? false;
  };

const pageOf = (status: "draft" | "published") => () =>
  su.collection("pages").create({
    title: "Probe",
    slug: slug(`page-${status}`),
    status,
    revision: 1,
    ...(status === "published" ? { publishedAt: new Date().toISOString() } : {}),
  });
const postOf = (status: "draft" | "published") => () =>
  su.collection("posts").create({
    title: "Probe",
    slug: slug(`post-${status}`),
    status,
    audience: "public",
    author: otherUploader.id,
    revision: 1,
    ...(status === "published" ? { publishedAt: new Date().toISOString() } : {}),
  });
const requestOf = (visibility: "public" | "pastoral") => () =>
  su
    .collection("prayer_requests")
    .create({ body: `Record probe ${run}`, visibility, anonymous: true, authorName: "", status: "pending" });

const contentProbes = (
  kind: "page" | "post",
  status: "draft" | "published",
  make: () => Promise<Made>,
): Record<string, RecordProbe> => {
  const collection = `${kind}s`;
  const probe = (field: string, act: RecordProbe["act"]): RecordProbe => ({
    collection,
    make,
    claim: canOf(`${kind}ById`, field),
    act,
  });
  return {
    [`${kind} ${status}: edit`]: probe("edit", (pb, { id }) =>
      pb.collection(collection).update(id, { title: "Probe, edited" }),
    ),
    // Publishing a draft; taking a published one down.
    [`${kind} ${status}: publish`]: probe("publish", (pb, { id }) =>
      pb
        .collection(collection)
        .update(
          id,
          status === "draft"
            ? { status: "published", publishedAt: new Date().toISOString() }
            : { status: "draft" },
        ),
    ),
    [`${kind} ${status}: delete`]: probe("delete", (pb, { id }) => pb.collection(collection).delete(id)),
  };
};

// ---------------------------------------------------------------------------------------------------
// The media library: someone else's upload, and each persona's own.

const mediaBy = (uploader: TestUser) => (): Promise<Made> =>
  su.collection("media").create({
    file: fileOf(pngBytes(), "probe.png", "image/png"),
    kind: "image",
    filename: "probe.png",
    uploadedBy: uploader.id,
  });

const MEDIA_PROBES: Record<string, RecordProbe> = {
  "media: edit": {
    collection: "media",
    make: () => mediaBy(otherUploader)(),
    claim: canOf("media", "edit"),
    act: (pb, { id }) => pb.collection("media").update(id, { alt: "Probe, described" }),
  },
  "media (someone else's): delete": {
    collection: "media",
    make: () => mediaBy(otherUploader)(),
    claim: canOf("media", "delete"),
    act: (pb, { id }) => pb.collection("media").delete(id),
  },
  // A visitor uploads nothing: someone else's, then.
  "media (one's own): delete": {
    collection: "media",
    make: (user) => mediaBy(user ?? otherUploader)(),
    claim: canOf("media", "delete"),
    act: (pb, { id }) => pb.collection("media").delete(id),
  },
};

// ---------------------------------------------------------------------------------------------------
// Groups: a fresh group (members-only, chat on) led by `groupLeader`, with `groupMember` and a message
// `groupMember` wrote.

const personOf = (persona: string) => personas.get(persona)!.personId!;

async function groupWithMembers(fields: Record<string, unknown> = {}): Promise<Made> {
  const group = await su.collection("groups").create({
    name: `Probe group ${run}`,
    slug: slug("group"),
    type: "small_group",
    locationDisplay: "hidden",
    visibility: "members",
    joinPolicy: "request",
    rosterVisibility: "members",
    chatEnabled: true,
    status: "active",
    ...fields,
  });
  await su
    .collection("group_members")
    .create({ group: group.id, person: personOf("groupLeader"), role: "leader", status: "active" });
  const member = await su
    .collection("group_members")
    .create({ group: group.id, person: personOf("groupMember"), role: "member", status: "active" });
  const message = await su.collection("group_messages").create({
    group: group.id,
    author: personOf("groupMember"),
    authorName: "Probe",
    body: "Probe message",
    clientKey: randomUUID(),
  });
  return { id: group.id, slug: group.slug, memberRow: member.id, message: message.id };
}

const groupProbe = (field: string, act: RecordProbe["act"]): RecordProbe => ({
  collection: "groups",
  make: () => groupWithMembers(),
  claim: canOf("group", field, "slug", "String!"),
  act,
});

/** The group's chat as GraphQL gives it to the persona (FORBIDDEN for non-members: no claims). */
const messageCan = (field: "edit" | "delete") => async (client: GqlClient, record: Made) => {
  const result = await client.request<{
    groupMessages: { edges: { node: { id: string; can: Record<string, boolean> } }[] };
  }>(`query ($g: ID!) { groupMessages(groupId: $g) { edges { node { id can { ${field} } } } } }`, {
    g: record.id,
  });
  const node = result.data?.groupMessages.edges.find((e) => e.node.id === record.message)?.node;
  return node?.can[field] ?? false;
};

const GROUP_PROBES: Record<string, RecordProbe> = {
  "group: edit": groupProbe("edit", (pb, { id }) =>
    pb.collection("groups").update(id, { description: "Probe, edited" }),
  ),
  "group: manage": groupProbe("manage", (pb, { id }) =>
    pb.collection("groups").update(id, { joinPolicy: "closed" }),
  ),
  "group: manageMembers": groupProbe("manageMembers", (pb, record) =>
    pb.collection("group_members").update(String(record.memberRow), { role: "member" }),
  ),
  "group: readChat": groupProbe("readChat", (pb, record) =>
    pb.collection("group_messages").getOne(String(record.message)),
  ),
  "group: postMessage": groupProbe("postMessage", (pb, { id }, user) =>
    pb.collection("group_messages").create({
      group: id,
      author: user?.personId ?? "",
      authorName: "Probe",
      body: "Probe reply",
      clientKey: randomUUID(),
    }),
  ),
  "group: askForPrayer": groupProbe("askForPrayer", (pb, { id }) =>
    pb.collection("prayer_requests").create({
      body: `Group probe ${run}`,
      visibility: "members",
      anonymous: true,
      authorName: "",
      status: "pending",
      group: id,
    }),
  ),
  "group message: edit": {
    collection: "groups",
    make: () => groupWithMembers(),
    claim: messageCan("edit"),
    act: (pb, record) => pb.collection("group_messages").update(String(record.message), { body: "Edited" }),
  },
  "group message: delete": {
    collection: "groups",
    make: () => groupWithMembers(),
    claim: messageCan("delete"),
    act: (pb, record) => pb.collection("group_messages").delete(String(record.message)),
  },
};

// ---------------------------------------------------------------------------------------------------
// People: someone else (no household), each persona's own person, a child in householdAdult's
// household, and households: a fresh one and householdAdult's own.

const freshPerson = async (fields: Record<string, unknown> = {}): Promise<Made> =>
  su
    .collection("people")
    .create({ firstName: "Probe", lastName: `Person ${run}`, recordStatus: "active", ...fields });
const freshHousehold = async (): Promise<Made> =>
  su.collection("households").create({ name: `Probe household ${run} ${randomUUID().slice(0, 6)}` });

const personProbe = (
  make: RecordProbe["make"],
  field: "edit" | "manage",
  act: RecordProbe["act"],
): RecordProbe => ({ collection: "people", make, claim: canOf("person", field), act });
const householdProbe = (
  make: RecordProbe["make"],
  field: "edit" | "manage",
  act: RecordProbe["act"],
): RecordProbe => ({ collection: "households", make, claim: canOf("household", field), act });

/** A change every editor of a person may make (their own details). */
const renamePerson: RecordProbe["act"] = (pb, { id }) =>
  pb.collection("people").update(id, { preferredName: "Probe" });

const PEOPLE_PROBES: Record<string, RecordProbe> = {
  "person (someone else): edit": personProbe(() => freshPerson(), "edit", renamePerson),
  // Each persona's own record (a visitor has none: someone else's, then).
  "person (oneself): edit": personProbe(
    async (user) => (user?.personId ? { id: user.personId, keep: true } : freshPerson()),
    "edit",
    (pb, { id }) => pb.collection("people").update(id, { preferredName: "" }),
  ),
  "person (a child of householdAdult's): edit": personProbe(
    () => freshPerson({ household: ownHousehold, householdRole: "child" }),
    "edit",
    renamePerson,
  ),
  // What only staff change: the record's status and membership (a member never changes their own).
  "person: manage": personProbe(
    () => freshPerson(),
    "manage",
    (pb, { id }) => pb.collection("people").update(id, { membershipStatus: "member" }),
  ),
  "household (another): edit": householdProbe(freshHousehold, "edit", (pb, { id }) =>
    pb.collection("households").update(id, { name: "Probe household, renamed" }),
  ),
  "household (householdAdult's): edit": householdProbe(
    async () => ({ id: ownHousehold, keep: true }),
    "edit",
    (pb, { id }) => pb.collection("households").update(id, { name: `Probe household ${run}` }),
  ),
  // Moving someone into it.
  "household: manage": householdProbe(
    async () => {
      const household = await freshHousehold();
      return { ...household, person: (await freshPerson()).id };
    },
    "manage",
    (pb, record) => pb.collection("people").update(String(record.person), { household: record.id }),
  ),
};

// ---------------------------------------------------------------------------------------------------
// Events: a published event 30 days ahead (members-only where a visitor's answer would blur the
// column), its date, a registration and an RSVP that `member` made.

const eventOf = async (fields: Record<string, unknown> = {}): Promise<Made> => {
  const event = await createEvent(fields);
  return { ...event, originalStart: new Date(event.startsAt).toISOString() };
};

/** The persona's own answer or registration for the event's date (a visitor's carries no user). */
const ownAnswer = (record: Made, user: TestUser | null) => ({
  event: record.id,
  occurrenceStart: String(record.startsAt),
  user: user?.id ?? "",
});

const occurrenceCanOf = (field: string) => async (client: GqlClient, record: Made) => {
  const result = await client.request<{ occurrence: { can: Record<string, boolean> } | null }>(
    `query ($slug: String!) { occurrence(slug: $slug) { can { ${field} } } }`,
    { slug: record.slug },
  );
  expect(result.errors, `Occurrence.can.${field}`).toBeUndefined();
  return result.data?.occurrence?.can[field] ?? false;
};

/**
 * A registration's or RSVP's can as the persona meets it: staff in the attendee list, the owner on
 * the date's page (anyone else meets neither: FORBIDDEN, or nothing of theirs).
 */
const attendeeCanOf =
  (kind: "registrations" | "rsvps", field: string) => async (client: GqlClient, record: Made) => {
    const row = kind === "registrations" ? "myRegistrations" : "myRsvp";
    const [staff, own] = await Promise.all([
      client.request<{ attendees: Record<string, { id: string; can: Record<string, boolean> }[]> }>(
        `query ($e: ID!, $o: DateTime!) { attendees(eventId: $e, originalStart: $o) { ${kind} { id can { ${field} } } } }`,
        { e: record.id, o: record.originalStart },
      ),
      client.request<{ occurrence: Record<string, unknown> | null }>(
        `query ($slug: String!) { occurrence(slug: $slug) { ${row} { id can { ${field} } } } }`,
        { slug: record.slug },
      ),
    ]);
    const mine = own.data?.occurrence?.[row];
    const seen = [
      ...(staff.data?.attendees[kind] ?? []),
      ...((Array.isArray(mine) ? mine : mine ? [mine] : []) as {
        id: string;
        can: Record<string, boolean>;
      }[]),
    ].find((r) => r.id === record.attendee);
    return seen?.can[field] ?? false;
  };

const memberRegistration = async (): Promise<Made> => {
  const event = await eventOf({ registrationMode: "registration" });
  const registration = await su
    .collection("registrations")
    .create(
      registrationBody(
        { id: event.id, startsAt: String(event.startsAt) },
        { user: personas.get("member")!.id },
      ),
    );
  return { ...event, attendee: registration.id };
};
const memberRsvp = async (): Promise<Made> => {
  const event = await eventOf({ registrationMode: "rsvp" });
  const rsvp = await su.collection("rsvps").create({
    event: event.id,
    occurrenceStart: event.startsAt,
    user: personas.get("member")!.id,
    name: "Member",
    response: "yes",
  });
  return { ...event, attendee: rsvp.id };
};

const EVENT_PROBES: Record<string, RecordProbe> = {
  "event: edit": {
    collection: "events",
    make: () => eventOf(),
    claim: canOf("eventById", "edit"),
    act: (pb, { id }) => pb.collection("events").update(id, { title: "Probe event, edited" }),
  },
  // Cancelling the date.
  "occurrence: edit": {
    collection: "events",
    make: () => eventOf(),
    claim: occurrenceCanOf("edit"),
    act: (pb, record) =>
      pb
        .collection("event_exceptions")
        .create({ event: record.id, originalStart: record.startsAt, status: "cancelled" }),
  },
  "occurrence (members-only): rsvp": {
    collection: "events",
    make: () => eventOf({ visibility: "members", registrationMode: "rsvp" }),
    claim: occurrenceCanOf("rsvp"),
    act: (pb, record, user) =>
      pb.collection("rsvps").create({ ...ownAnswer(record, user), name: "Probe", response: "yes" }),
  },
  "occurrence (members-only): register": {
    collection: "events",
    make: () => eventOf({ visibility: "members", registrationMode: "registration" }),
    claim: occurrenceCanOf("register"),
    act: (pb, record, user) =>
      pb
        .collection("registrations")
        .create(
          registrationBody({ id: record.id, startsAt: String(record.startsAt) }, ownAnswer(record, user)),
        ),
  },
  "registration (member's): cancel": {
    collection: "events",
    make: memberRegistration,
    claim: attendeeCanOf("registrations", "cancel"),
    act: (pb, record) =>
      pb.collection("registrations").update(String(record.attendee), { status: "cancelled" }),
  },
  // Moving it (to the same date: the rules refuse anyone but staff to set the date at all).
  "registration (member's): move": {
    collection: "events",
    make: memberRegistration,
    claim: attendeeCanOf("registrations", "move"),
    act: (pb, record) =>
      pb.collection("registrations").update(String(record.attendee), { occurrenceStart: record.startsAt }),
  },
  "rsvp (member's): change": {
    collection: "events",
    make: memberRsvp,
    claim: attendeeCanOf("rsvps", "change"),
    act: (pb, record) => pb.collection("rsvps").update(String(record.attendee), { response: "maybe" }),
  },
};

// ---------------------------------------------------------------------------------------------------
// Sermons: a draft and a published sermon, a series, a speaker.

const sermonOf = (status: "draft" | "published") => (): Promise<Made> =>
  su.collection("sermons").create({
    title: "Probe sermon",
    slug: slug(`sermon-${status}`),
    status,
    ...(status === "published" ? { publishedAt: new Date().toISOString() } : {}),
  });

const SERMON_PROBES: Record<string, RecordProbe> = {
  ...Object.fromEntries(
    (["draft", "published"] as const).map((status): [string, RecordProbe] => [
      `sermon ${status}: edit`,
      {
        collection: "sermons",
        make: sermonOf(status),
        claim: canOf("sermonById", "edit"),
        act: (pb, { id }) => pb.collection("sermons").update(id, { title: "Probe sermon, edited" }),
      },
    ]),
  ),
  "sermon series: edit": {
    collection: "sermon_series",
    make: () => su.collection("sermon_series").create({ title: "Probe series", slug: slug("series") }),
    claim: canOf("sermonSeries", "edit", "slug", "String!"),
    act: (pb, { id }) => pb.collection("sermon_series").update(id, { title: "Probe series, edited" }),
  },
  "speaker: edit": {
    collection: "speakers",
    make: () => su.collection("speakers").create({ name: "Probe speaker", slug: slug("speaker") }),
    claim: canOf("speaker", "edit", "slug", "String!"),
    act: (pb, { id }) => pb.collection("speakers").update(id, { name: "Probe speaker, edited" }),
  },
};

// ---------------------------------------------------------------------------------------------------
// Serving: a team (what it says about itself, archiving it) and a draft plan. (A request's answer and
// swap are its holder's own: staff may write any request through the rules, so `can.answer`/`can.swap`
// say what the screens offer, not all PocketBase allows; authorization-serving.int.test.ts has them.)

const servingTeam = () =>
  su.collection("serving_teams").create({ name: `Probe team ${run} ${slug("t")}`, status: "active" });

const SERVING_PROBES: Record<string, RecordProbe> = {
  "serving team: edit": {
    collection: "serving_teams",
    make: servingTeam,
    claim: canOf("servingTeam", "edit"),
    act: (pb, { id }) => pb.collection("serving_teams").update(id, { description: "Probe, edited" }),
  },
  "serving team: archive": {
    collection: "serving_teams",
    make: servingTeam,
    claim: canOf("servingTeam", "archive"),
    act: (pb, { id }) => pb.collection("serving_teams").update(id, { status: "archived" }),
  },
  "serving plan: edit": {
    collection: "serving_plans",
    make: () =>
      su
        .collection("serving_plans")
        .create({ title: "Probe plan", date: "2031-07-06 00:00:00.000Z", status: "published" }),
    claim: canOf("servingPlan", "edit"),
    act: (pb, { id }) => pb.collection("serving_plans").update(id, { title: "Probe plan, edited" }),
  },
};

// Check-in: rooms and sessions are operators' to keep (a check-in's own `can` is in checkin.int and
// authorization-checkin.int, with the people around it).
const CHECKIN_PROBES: Record<string, RecordProbe> = {
  "check-in room: edit": {
    collection: "checkin_rooms",
    make: () => su.collection("checkin_rooms").create({ name: `Probe room ${slug("r")}`, active: true }),
    claim: canOf("checkinRoom", "edit"),
    act: (pb, { id }) => pb.collection("checkin_rooms").update(id, { capacity: 7 }),
  },
  "check-in session: edit": {
    collection: "checkin_sessions",
    make: () =>
      su
        .collection("checkin_sessions")
        .create({ name: "Probe session", startsAt: "2031-07-06 09:00:00.000Z" }),
    claim: canOf("checkinSession", "edit"),
    act: (pb, { id }) => pb.collection("checkin_sessions").update(id, { name: "Probe session, edited" }),
  },
};

// Giving: batches are finance's to keep, close (when balanced) and reopen (with a reason).
const batchOf = (status: "open" | "closed") => async () => {
  const batch = await su.collection("donation_batches").create({
    name: `Probe batch ${slug("b")}`,
    depositDate: "2026-01-04 00:00:00.000Z",
    controlTotalCents: 0,
    controlCount: 0,
  });
  // Empty and counted as empty: balanced, so the system may close it.
  return status === "closed"
    ? su.collection("donation_batches").update(batch.id, { status: "closed" })
    : batch;
};
const GIVING_PROBES: Record<string, RecordProbe> = {
  "donation batch (open): edit": {
    collection: "donation_batches",
    make: batchOf("open"),
    claim: canOf("donationBatch", "edit"),
    act: (pb, { id }) => pb.collection("donation_batches").update(id, { name: "Probe batch, edited" }),
  },
  "donation batch (balanced): close": {
    collection: "donation_batches",
    make: batchOf("open"),
    claim: canOf("donationBatch", "close"),
    act: (pb, { id }) => pb.collection("donation_batches").update(id, { status: "closed" }),
  },
  "donation batch (closed): reopen": {
    collection: "donation_batches",
    make: batchOf("closed"),
    claim: canOf("donationBatch", "reopen"),
    act: (pb, { id }) =>
      pb
        .collection("donation_batches")
        .update(id, { status: "open", reopenReason: "Probe: a gift was missed" }),
  },
};

// Pledges and campaigns: finance's managers keep campaigns; anyone signed in pledges for themself to an
// active one; a member changes their own pledge (finance any). No single-record query: the lists are read.
let probeFund = "";
const campaignOf = async (showProgress: boolean) => {
  probeFund ||= (await su.collection("funds").create({ name: `Probe fund ${run}`, visibility: "hidden" })).id;
  return su.collection("pledge_campaigns").create({
    name: `Probe campaign ${slug("c")}`,
    fund: probeFund,
    goalCents: 100_000,
    startsOn: "2026-01-01 00:00:00.000Z",
    endsOn: "2026-12-31 00:00:00.000Z",
    showProgress,
    status: "active",
  });
};
const campaignCanOf = (field: "edit" | "pledge") => async (client: GqlClient, record: Made) => {
  const result = await client.request<{ pledgeCampaigns: { id: string; can: Record<string, boolean> }[] }>(
    `query { pledgeCampaigns { id can { ${field} } } }`,
  );
  expect(result.errors, `PledgeCampaign.can.${field}`).toBeUndefined();
  return result.data?.pledgeCampaigns.find((c) => c.id === record.id)?.can[field] ?? false;
};
const PLEDGE_PROBES: Record<string, RecordProbe> = {
  "pledge campaign: edit": {
    collection: "pledge_campaigns",
    make: () => campaignOf(false),
    claim: campaignCanOf("edit"),
    act: (pb, { id }) => pb.collection("pledge_campaigns").update(id, { description: "Probe, edited" }),
  },
  // The campaign keeps the pledge made by the act (a campaign with pledges is not removed).
  "pledge campaign (active, public): pledge": {
    collection: "pledge_campaigns",
    make: async () => ({ ...(await campaignOf(true)), keep: true }),
    claim: campaignCanOf("pledge"),
    act: (pb, { id }, user) =>
      pb.collection("pledges").create({ campaign: id, person: user?.personId ?? "", amountCents: 100 }),
  },
  "pledge (member's): edit": {
    collection: "pledges",
    make: async () =>
      su.collection("pledges").create({
        campaign: (await campaignOf(true)).id,
        person: personas.get("member")!.personId,
        amountCents: 1000,
      }),
    async claim(client, record) {
      const result = await client.request<{
        pledgeCampaigns: { pledges: { id: string; can: { edit: boolean } }[] }[];
      }>("query { pledgeCampaigns { pledges { id can { edit } } } }");
      expect(result.errors, "Pledge.can.edit").toBeUndefined();
      const pledges = result.data?.pledgeCampaigns.flatMap((c) => c.pledges) ?? [];
      return pledges.find((p) => p.id === record.id)?.can.edit ?? false;
    },
    act: (pb, { id }) => pb.collection("pledges").update(id, { amountCents: 2000 }),
  },
};

const RECORD_PROBES: Record<string, RecordProbe> = {
  ...contentProbes("page", "draft", pageOf("draft")),
  ...contentProbes("page", "published", pageOf("published")),
  ...contentProbes("post", "draft", postOf("draft")),
  ...contentProbes("post", "published", postOf("published")),
  ...Object.fromEntries(
    (["public", "pastoral"] as const).map((visibility): [string, RecordProbe] => [
      `prayer request ${visibility}: moderate`,
      {
        collection: "prayer_requests",
        make: requestOf(visibility),
        claim: canOf("prayerRequest", "moderate"),
        act: (pb, { id }) => pb.collection("prayer_requests").update(id, { status: "approved" }),
      },
    ]),
  ),
  // On the wall: flagging it for the moderators.
  "prayer request (on the wall): flag": {
    collection: "prayer_requests",
    make: () =>
      su.collection("prayer_requests").create({
        body: `Wall probe ${run}`,
        visibility: "public",
        anonymous: true,
        authorName: "",
        status: "approved",
      }),
    claim: canOf("prayerRequest", "flag"),
    act: (pb, { id }, user) => pb.collection("prayer_flags").create({ request: id, user: user?.id ?? "" }),
  },
  // member asked for it: they (or a moderator) mark it answered.
  "prayer request (member's): markAnswered": {
    collection: "prayer_requests",
    async make() {
      const request = await su.collection("prayer_requests").create({
        body: `Answered probe ${run}`,
        visibility: "public",
        anonymous: false,
        authorName: "Member",
        status: "approved",
      });
      const member = personas.get("member")!;
      await su
        .collection("prayer_request_private")
        .create({ request: request.id, user: member.id, person: member.personId, submitterName: "Member" });
      return request;
    },
    claim: canOf("prayerRequest", "markAnswered"),
    act: (pb, { id }) =>
      pb
        .collection("prayer_requests")
        .update(id, { status: "answered", answerNote: "Praise", answeredAt: new Date().toISOString() }),
  },
  ...MEDIA_PROBES,
  ...GROUP_PROBES,
  ...PEOPLE_PROBES,
  ...EVENT_PROBES,
  ...SERMON_PROBES,
  ...SERVING_PROBES,
  ...CHECKIN_PROBES,
  ...GIVING_PROBES,
  ...PLEDGE_PROBES,
};

describe("what GraphQL says each persona may do with a record agrees with what PocketBase allows", () => {
  it("every type's can, for every persona, on records made for the probe", async () => {
    const disagreements: string[] = [];
    const table: string[] = [];
    for (const [name, user] of personas) {
      const client = new GqlClient(gateway, user ? { token: user.token } : {});
      const pb = pbAs(user);
      const row: string[] = [];
      for (const [label, probe] of Object.entries(RECORD_PROBES)) {
        const record = await probe.make(user);
        try {
          const claimed = await probe.claim(client, record);
          const actual = await allowed(() => probe.act(pb, record, user));
          row.push(`${actual ? "Y" : "n"}`);
          if (claimed !== actual)
            disagreements.push(
              `${name}: GraphQL says ${label} = ${claimed}, PocketBase ${actual ? "allows" : "refuses"} it`,
            );
        } finally {
          if (!record.keep)
            await su
              .collection(probe.collection)
              .delete(record.id)
              .catch(() => undefined);
        }
      }
      table.push(`${name.padEnd(14)} ${row.join("")}`);
    }
    expect(disagreements, `${Object.keys(RECORD_PROBES).join(" | ")}\n${table.join("\n")}`).toEqual([]);
    // Every probe tells personas apart, or it would agree with anything.
    for (const [index, label] of Object.keys(RECORD_PROBES).entries()) {
      const column = table.map((line) => line.split(" ").pop()![index] === "Y");
      expect(
        column.some(Boolean) && !column.every(Boolean),
        `${label}: some personas may, some may not`,
      ).toBe(true);
    }
  }, 600_000);
});
