/**
 * QUALITY.md S1 for sermons: persona × (sermon_series, speakers, sermons) × operation, checked directly
 * against PocketBase's REST API and through GraphQL, plus the realtime and file-download columns.
 * Drafts belong to `sermons.manage` (Editor, Pastor, Administrator); published sermons, series and
 * speakers are public. Targets are fresh records made by the system account for each check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { toneMp3 } from "../../scripts/lib/mp3.ts";
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
import {
  AuthzDraftSermonsDocument,
  AuthzSeriesBySlugDocument,
  AuthzSermonByIdDocument,
  AuthzSermonBySlugDocument,
  AuthzSpeakerBySlugDocument,
} from "./__generated__/operations.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  expectGql,
  expectRest,
  type Check,
} from "./authorization-table.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "writer",
  "editor",
  "pastor",
  "careTeam",
  "admin",
] as const;
type Persona = (typeof PERSONAS)[number];
const { cells } = columns(PERSONAS);
const everyone = cells(A, A, A, A, A, A, A, A);
// sermons.manage: editor, pastor, admin (the writer has content.edit only; the care team none).
const managers = cells(D, D, D, D, A, A, D, A);

// Columns: anonymous, pending member, member, writer (content.edit only), editor, pastor, care team, admin.
const MATRIX = {
  sermons: {
    viewPublished: everyone,
    viewDraft: managers,
    listDrafts: managers,
    downloadPublishedAudio: everyone,
    downloadDraftAudio: managers,
    create: managers,
    updateDraft: managers,
    publish: managers,
    updatePublished: managers,
    delete: managers,
  },
  sermon_series: {
    list: everyone,
    view: everyone,
    create: managers,
    update: managers,
    delete: managers,
  },
  speakers: {
    list: everyone,
    view: everyone,
    create: managers,
    update: managers,
    delete: managers,
  },
} as const;

let gateway: Gateway;
let su: PocketBase;
const users = {} as Record<Persona, TestUser | null>;
let n = 0;
const slug = (label: string) => `${label}-${Date.now().toString(36)}-${n++}`;
const audio = toneMp3(1);

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const writerRole = await su
    .collection("roles")
    .create({ name: `Writer ${slug("w")}`, permissions: ["content.edit"] });
  users.anonymous = null;
  users.pending = await createUser({ person: "pending" });
  users.member = await createUser();
  users.writer = await createUser();
  await su.collection("users").update(users.writer.id, { roles: [writerRole.id] });
  users.editor = await createUser({ roles: ["Editor"] });
  users.pastor = await createUser({ roles: ["Pastor"] });
  users.careTeam = await createUser({ roles: ["Care Team"] });
  users.admin = await createUser({ roles: ["Administrator"] });
});
afterAll(() => gateway.close());

const sermon = (fields: Record<string, unknown> = {}) =>
  su
    .collection("sermons")
    .create({ title: "Target sermon", slug: slug("sermon"), status: "draft", ...fields });
const series = () => su.collection("sermon_series").create({ title: "Target series", slug: slug("series") });
const speaker = () => su.collection("speakers").create({ name: "Target speaker", slug: slug("speaker") });
const withAudio = (status: "draft" | "published") =>
  sermon({
    status,
    audio: fileOf(audio, "a.mp3", "audio/mpeg"),
    audioSize: audio.length,
    audioType: "audio/mpeg",
  });
const rest = (persona: Persona) => pbAs(users[persona]);
const gql = (persona: Persona) => new GqlClient(gateway, { token: users[persona]?.token });

/** GraphQL writes on drafts: those who may not see drafts get NOT_FOUND (never a hint that it exists). */
const expectGqlOnDraft = (
  expected: "allow" | "deny",
  persona: Persona,
  result: Parameters<typeof expectGql>[2],
) => expectGql(expected, persona, result, "NOT_FOUND");
/** The audio file straight from PocketBase, with the persona's file token (PocketBase applies the view rule). */
async function download(persona: Persona, record: { id: string; audio: string }): Promise<number> {
  const token = users[persona] ? await rest(persona).files.getToken() : undefined;
  return (await fetch(rest(persona).files.getURL(record, record.audio, { token }))).status;
}

type Table = typeof MATRIX;
const REST: { [C in keyof Table]: { [O in keyof Table[C]]: Check<Persona> } } = {
  sermons: {
    async viewPublished(persona, expected) {
      const target = await sermon({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("sermons").getOne(target.id)));
    },
    async viewDraft(persona, expected) {
      const target = await sermon();
      expectRest(expected, await restStatus(() => rest(persona).collection("sermons").getOne(target.id)));
    },
    async listDrafts(persona, expected) {
      const target = await sermon({ title: slug("listed") });
      const listed = await rest(persona)
        .collection("sermons")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async downloadPublishedAudio(persona, expected) {
      const target = await withAudio("published");
      expect(await download(persona, target as never)).toBe(expected === "allow" ? 200 : 404);
    },
    async downloadDraftAudio(persona, expected) {
      const target = await withAudio("draft");
      expect(await download(persona, target as never)).toBe(expected === "allow" ? 200 : 404);
    },
    async create(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("sermons")
            .create({ title: "New", slug: slug("new"), status: "draft" }),
        ),
      );
    },
    async updateDraft(persona, expected) {
      const target = await sermon();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("sermons").update(target.id, { title: "Changed" })),
      );
    },
    async publish(persona, expected) {
      const target = await sermon();
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("sermons").update(target.id, { status: "published" }),
        ),
      );
    },
    async updatePublished(persona, expected) {
      const target = await sermon({ status: "published" });
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("sermons").update(target.id, { title: "Live change" }),
        ),
      );
    },
    async delete(persona, expected) {
      const target = await sermon({ status: "published" });
      expectRest(expected, await restStatus(() => rest(persona).collection("sermons").delete(target.id)));
    },
  },
  sermon_series: {
    async list(persona, expected) {
      const target = await series();
      const listed = await rest(persona)
        .collection("sermon_series")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async view(persona, expected) {
      const target = await series();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("sermon_series").getOne(target.id)),
      );
    },
    async create(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("sermon_series")
            .create({ title: "New", slug: slug("new") }),
        ),
      );
    },
    async update(persona, expected) {
      const target = await series();
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona).collection("sermon_series").update(target.id, { title: "Changed" }),
        ),
      );
      const other = await series();
      const artwork = await restStatus(() =>
        rest(persona)
          .collection("sermon_series")
          .update(other.id, { artwork: fileOf(pngBytes(), "a.png", "image/png") }),
      );
      expectRest(expected, artwork);
    },
    async delete(persona, expected) {
      const target = await series();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("sermon_series").delete(target.id)),
      );
    },
  },
  speakers: {
    async list(persona, expected) {
      const target = await speaker();
      const listed = await rest(persona)
        .collection("speakers")
        .getList(1, 1, { filter: `id = "${target.id}"` });
      expect(listed.items.length).toBe(expected === "allow" ? 1 : 0);
    },
    async view(persona, expected) {
      const target = await speaker();
      expectRest(expected, await restStatus(() => rest(persona).collection("speakers").getOne(target.id)));
    },
    async create(persona, expected) {
      expectRest(
        expected,
        await restStatus(() =>
          rest(persona)
            .collection("speakers")
            .create({ name: "New", slug: slug("new") }),
        ),
      );
    },
    async update(persona, expected) {
      const target = await speaker();
      expectRest(
        expected,
        await restStatus(() => rest(persona).collection("speakers").update(target.id, { bio: "Changed" })),
      );
    },
    async delete(persona, expected) {
      const target = await speaker();
      expectRest(expected, await restStatus(() => rest(persona).collection("speakers").delete(target.id)));
    },
  },
};

const GRAPHQL: { [C in keyof Table]: { [O in keyof Table[C]]?: Check<Persona> } } = {
  sermons: {
    async viewPublished(persona, expected) {
      const target = await sermon({ status: "published" });
      expect(!!(await gql(persona).execute(AuthzSermonBySlugDocument, { s: target.slug })).data?.sermon).toBe(
        expected === "allow",
      );
    },
    async viewDraft(persona, expected) {
      const target = await sermon();
      expect(
        !!(await gql(persona).execute(AuthzSermonByIdDocument, { id: target.id })).data?.sermonById,
      ).toBe(expected === "allow");
    },
    async listDrafts(persona, expected) {
      const title = slug("listed");
      await sermon({ title });
      const viaGql = await gql(persona).execute(AuthzDraftSermonsDocument, { q: title });
      expect(viaGql.data?.sermons.edges.length ?? 0).toBe(expected === "allow" ? 1 : 0);
    },
    async create(persona, expected) {
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation { createSermon(input: { title: "Via GraphQL" }) { id } }`),
      );
    },
    async updateDraft(persona, expected) {
      const other = await sermon();
      expectGqlOnDraft(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateSermon(id: $id, input: { title: "Changed" }) { id } }`,
          { id: other.id },
        ),
      );
    },
    async publish(persona, expected) {
      const other = await sermon();
      expectGqlOnDraft(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { publishSermon(id: $id) { id } }`, { id: other.id }),
      );
    },
    async updatePublished(persona, expected) {
      const other = await sermon({ status: "published" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateSermon(id: $id, input: { title: "Live change" }) { id } }`,
          { id: other.id },
        ),
      );
    },
    async delete(persona, expected) {
      const other = await sermon({ status: "published" });
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deleteSermon(id: $id) }`, { id: other.id }),
      );
    },
  },
  sermon_series: {
    async view(persona, expected) {
      const target = await series();
      expect(
        !!(await gql(persona).execute(AuthzSeriesBySlugDocument, { s: target.slug })).data?.sermonSeries,
      ).toBe(expected === "allow");
    },
    async create(persona, expected) {
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation { createSermonSeries(input: { title: "Via GraphQL" }) { id } }`),
      );
    },
    async update(persona, expected) {
      const other = await series();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateSermonSeries(id: $id, input: { title: "Changed" }) { id } }`,
          { id: other.id },
        ),
      );
    },
    async delete(persona, expected) {
      const other = await series();
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deleteSermonSeries(id: $id) }`, { id: other.id }),
      );
    },
  },
  speakers: {
    async view(persona, expected) {
      const target = await speaker();
      expect(
        !!(await gql(persona).execute(AuthzSpeakerBySlugDocument, { s: target.slug })).data?.speaker,
      ).toBe(expected === "allow");
    },
    async create(persona, expected) {
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation { createSpeaker(input: { name: "Via GraphQL" }) { id } }`),
      );
    },
    async update(persona, expected) {
      const other = await speaker();
      expectGql(
        expected,
        persona,
        await gql(persona).request(
          `mutation($id: ID!) { updateSpeaker(id: $id, input: { name: "Changed" }) { id } }`,
          { id: other.id },
        ),
      );
    },
    async delete(persona, expected) {
      const other = await speaker();
      expectGql(
        expected,
        persona,
        await gql(persona).request(`mutation($id: ID!) { deleteSpeaker(id: $id) }`, { id: other.id }),
      );
    },
  },
};

const NOT_YET = "not checked through GraphQL yet (the list query exists): a gap to close";
describeAuthorizationTable({
  personas: PERSONAS,
  table: MATRIX,
  rest: REST,
  graphql: GRAPHQL,
  gaps: {
    graphql: {
      sermons: {
        downloadPublishedAudio:
          "a file, not a GraphQL field: the gateway's /files proxy (below, and sermons.int.test.ts)",
        downloadDraftAudio:
          "a file, not a GraphQL field: the gateway's /files proxy (below, and sermons.int.test.ts)",
      },
      sermon_series: { list: NOT_YET },
      speakers: { list: NOT_YET },
    },
  },
});

describe("sermon files through the gateway", () => {
  it("visitors never learn a draft exists through the gateway's /files proxy either", async () => {
    const base = await gateway.listen();
    const draft = await withAudio("draft");
    expect((await fetch(`${base}/files/sermons/${draft.id}/${draft.audio}`)).status).toBe(404);
    expect(
      (
        await fetch(`${base}/files/sermons/${draft.id}/${draft.audio}`, {
          headers: { authorization: `Bearer ${users.editor!.token}` },
        })
      ).status,
    ).toBe(200);
  });
});

// Realtime: a `*` subscription gets a published sermon's change for everyone, a draft's only for managers.
const READ_TARGETS: Record<string, { id: string }> = {};
const REALTIME_COLLECTIONS = ["sermons"] as const;
beforeAll(async () => {
  READ_TARGETS.published = await sermon({ status: "published" });
  READ_TARGETS.draft = await sermon();
});
describeRealtimeColumn({
  personas: PERSONAS,
  collections: REALTIME_COLLECTIONS,
  targetKeys: () => ["draft", "published"],
  targetId: (_, key) => READ_TARGETS[key]!.id,
  allowedTargets: (_, persona) => (managers[persona] === "allow" ? ["draft", "published"] : ["published"]),
  client: rest,
  su: () => su,
});
