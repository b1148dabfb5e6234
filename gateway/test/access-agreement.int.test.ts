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
};

let gateway: Gateway;
let su: PocketBase;
const personas = new Map<string, TestUser | null>();
let otherUploader: TestUser;
const run = randomUUID().slice(0, 6);
const slug = (label: string) => `${label}-${run}-${randomUUID().slice(0, 6)}`;
let settingsId = "";
let settingsTagline = "";

/** Did PocketBase allow it? (2xx: yes; 400 from a rule-checked body, 403, 404: no.) */
const allowed = async (run: () => Promise<unknown>) => (await restStatus(run)) === 200;

/** A record the system makes for one probe, removed afterwards whatever happened. */
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
 * The same agreement for what a viewer may do with one record (`Page.can`, `Post.can`,
 * `PrayerRequest.can`): each claim is checked by doing it through REST on a fresh record.
 */
type RecordProbe = {
  collection: string;
  make(): Promise<{ id: string }>;
  query: string;
  field: string;
  act(pb: PocketBase, id: string): Promise<unknown>;
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
  make: () => Promise<{ id: string }>,
): Record<string, RecordProbe> => {
  const collection = `${kind}s`;
  const query = `${kind}ById`;
  return {
    [`${kind} ${status}: edit`]: {
      collection,
      make,
      query,
      field: "edit",
      act: (pb, id) => pb.collection(collection).update(id, { title: "Probe, edited" }),
    },
    [`${kind} ${status}: publish`]: {
      collection,
      make,
      query,
      field: "publish",
      // Publishing a draft; taking a published one down.
      act: (pb, id) =>
        pb
          .collection(collection)
          .update(
            id,
            status === "draft"
              ? { status: "published", publishedAt: new Date().toISOString() }
              : { status: "draft" },
          ),
    },
    [`${kind} ${status}: delete`]: {
      collection,
      make,
      query,
      field: "delete",
      act: (pb, id) => pb.collection(collection).delete(id),
    },
  };
};

const RECORD_PROBES: Record<string, RecordProbe> = {
  ...contentProbes("page", "draft", pageOf("draft")),
  ...contentProbes("page", "published", pageOf("published")),
  ...contentProbes("post", "draft", postOf("draft")),
  ...contentProbes("post", "published", postOf("published")),
  ...Object.fromEntries(
    (["public", "pastoral"] as const).map((visibility) => [
      `prayer request ${visibility}: moderate`,
      {
        collection: "prayer_requests",
        make: requestOf(visibility),
        query: "prayerRequest",
        field: "moderate",
        act: (pb: PocketBase, id: string) =>
          pb.collection("prayer_requests").update(id, { status: "approved" }),
      },
    ]),
  ),
};

describe("what GraphQL says each persona may do with a record agrees with what PocketBase allows", () => {
  it("pages and posts (draft and published), prayer requests (public and pastoral), for every persona", async () => {
    const disagreements: string[] = [];
    const table: string[] = [];
    for (const [name, user] of personas) {
      const client = new GqlClient(gateway, user ? { token: user.token } : {});
      const pb = pbAs(user);
      const row: string[] = [];
      for (const [label, probe] of Object.entries(RECORD_PROBES)) {
        await withRecord(probe.collection, probe.make, async (record) => {
          const result = await client.request<Record<string, { can: Record<string, boolean> } | null>>(
            `query ($id: ID!) { record: ${probe.query}(id: $id) { can { ${probe.field} } } }`,
            { id: record.id },
          );
          expect(result.errors, `${name}: ${label}`).toBeUndefined();
          // A record the viewer cannot see: they may do nothing with it.
          const claimed = result.data?.record?.can[probe.field] ?? false;
          const actual = await allowed(() => probe.act(pb, record.id));
          row.push(`${actual ? "Y" : "n"}`);
          if (claimed !== actual)
            disagreements.push(
              `${name}: GraphQL says ${label} = ${claimed}, PocketBase ${actual ? "allows" : "refuses"} it`,
            );
          return actual;
        });
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
  }, 180_000);
});
