// Working copies and history of posts and pages (pb_migrations/1732470000_revisions.js).
//
// A published post or page is never changed by autosave: its changes go to one working copy, which
// "Update" (publish…Changes) copies onto the live record. Every document also keeps its last
// HISTORY_MAX saved versions: each version that went live, and the latest state of each editing
// session (a save within SESSION_MS of the last history entry updates that entry).
import DataLoader from "dataloader";
import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { notFound, pbCall } from "../../errors.ts";
import type { RevisionRecord, UserRecord } from "../../pocketbase/records.ts";
import { orChains } from "../../pocketbase/filters.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { parsePocketBaseDate } from "../../pocketbase/dates.ts";

export type DocumentKind = "post" | "page";

export const HISTORY_MAX = 20;
const SESSION_MS = 10 * 60_000;

/**
 * Who saves a version: a person (staff), or an API client with the content.write scope, which saves
 * only its own drafts (pb_migrations/1732540000_content_write_scope.js). Revisions and posts name the
 * one or the other (editedBy / editedByClient); the display name is kept beside it.
 */
export type Writer = { kind: "user" | "client"; id: string; name: string };
export const userWriter = (user: UserRecord): Writer => ({ kind: "user", id: user.id, name: user.name });
/** A revision's attribution fields for a writer (the rules check them against the caller). */
const editedBy = (writer: Writer) =>
  writer.kind === "client"
    ? { editedByClient: writer.id, editorName: writer.name }
    : { editedBy: writer.id, editorName: writer.name };
const isEditor = (entry: RevisionRecord, writer: Writer) =>
  writer.kind === "client" ? entry.editedByClient === writer.id : entry.editedBy === writer.id;

/** What a revision holds: the title, the body and the document's other form fields. */
export interface RevisionContent {
  title: string;
  body: string;
  fields: Record<string, unknown>;
}

/** The document's working copy, read as the caller (null for readers: the rules hide them). */
export async function readWorkingCopy(
  ctx: GatewayContext,
  kind: DocumentKind,
  id: string,
): Promise<RevisionRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("revisions").getList<RevisionRecord>(1, 1, {
      filter: ctx.pb.filter(`${kind} = {:id} && working = true`, { id }),
      skipTotal: true,
    }),
  );
  return rows.items[0] ?? null;
}

/**
 * Per-request batching of working-copy reads (QUALITY P2: a list of published posts or pages reads all
 * their working copies in one PocketBase call per ≤100 documents, not one per document). Not cached
 * across the request: a mutation that changed a working copy must read it again.
 */
const workingLoaders = new WeakMap<
  GatewayContext,
  Record<DocumentKind, DataLoader<string, RevisionRecord | null>>
>();

function workingLoader(ctx: GatewayContext, kind: DocumentKind): DataLoader<string, RevisionRecord | null> {
  let loaders = workingLoaders.get(ctx);
  if (!loaders) {
    const make = (k: DocumentKind) =>
      new DataLoader<string, RevisionRecord | null>(
        async (ids) => {
          const clauses = [...new Set(ids)].map((id) => ctx.pb.filter(`${k} = {:id}`, { id }));
          const pages = await Promise.all(
            orChains(clauses, 3_200 - 20).map((chain) =>
              pbCall(() =>
                ctx.pb
                  .collection("revisions")
                  .getFullList<RevisionRecord>({ batch: 1_000, filter: `working = true && (${chain})` }),
              ),
            ),
          );
          const byDocument = new Map(pages.flat().map((row) => [row[k], row]));
          return ids.map((id) => byDocument.get(id) ?? null);
        },
        { cache: false },
      );
    loaders = { post: make("post"), page: make("page") };
    workingLoaders.set(ctx, loaders);
  }
  return loaders[kind];
}

/** The working copy attached to a record (read once per record object, batched across a list). */
export async function workingOf(
  ctx: GatewayContext,
  kind: DocumentKind,
  record: { id: string; status: string; working?: RevisionRecord | null },
): Promise<RevisionRecord | null> {
  if (record.status !== "published") return null;
  if (record.working === undefined) record.working = await workingLoader(ctx, kind).load(record.id);
  return record.working;
}

/** Write the working copy (create it the first time). */
export async function saveWorkingCopy(
  ctx: GatewayContext,
  kind: DocumentKind,
  id: string,
  existing: RevisionRecord | null,
  content: RevisionContent,
  revision: number,
  writer: Writer,
): Promise<RevisionRecord> {
  const data = { ...content, revision, ...editedBy(writer) };
  return writeAsCaller(() =>
    existing
      ? ctx.pb.collection("revisions").update<RevisionRecord>(existing.id, data)
      : ctx.pb
          .collection("revisions")
          .create<RevisionRecord>({ ...data, [kind]: id, working: true, published: false }),
  );
}

/** Drop the working copy. */
export async function deleteWorkingCopy(ctx: GatewayContext, working: RevisionRecord): Promise<void> {
  await writeAsCaller(() => ctx.pb.collection("revisions").delete(working.id));
}

/**
 * Keep a version in the history: a published one always as a new entry; a saved one updates the
 * latest entry of the same editing session (by the same person, within SESSION_MS), or starts one.
 * Older entries beyond HISTORY_MAX are removed.
 */
export async function recordHistory(
  ctx: GatewayContext,
  kind: DocumentKind,
  id: string,
  content: RevisionContent,
  writer: Writer,
  published: boolean,
): Promise<void> {
  const entries = ctx.pb.collection("revisions");
  const filter = ctx.pb.filter(`${kind} = {:id} && working = false`, { id });
  const latest = (
    await pbCall(() =>
      entries.getList<RevisionRecord>(1, 1, { filter, sort: "-created,-id", skipTotal: true }),
    )
  ).items[0];
  const data = { ...content, ...editedBy(writer) };
  const sameSession =
    !published &&
    latest &&
    !latest.published &&
    isEditor(latest, writer) &&
    Date.now() - parsePocketBaseDate(latest.created).getTime() < SESSION_MS;
  if (sameSession) {
    await writeAsCaller(() => entries.update(latest.id, data));
    return;
  }
  await writeAsCaller(() => entries.create({ ...data, [kind]: id, working: false, published, revision: 0 }));
  const old = await pbCall(() =>
    entries.getList<RevisionRecord>(1, 50, { filter, sort: "-created,-id", fields: "id", skipTotal: true }),
  );
  for (const entry of old.items.slice(HISTORY_MAX)) {
    // 404: gone already, or (an API client) an entry the client did not write, which it may not remove.
    await entries.delete(entry.id).catch((error: unknown) => {
      if (!(error instanceof ClientResponseError && error.status === 404)) throw error;
    });
  }
}

/** The history, newest first (empty for readers). */
export async function readHistory(
  ctx: GatewayContext,
  kind: DocumentKind,
  id: string,
): Promise<RevisionRecord[]> {
  const rows = await pbCall(() =>
    ctx.pb.collection("revisions").getList<RevisionRecord>(1, HISTORY_MAX, {
      filter: ctx.pb.filter(`${kind} = {:id} && working = false`, { id }),
      sort: "-created,-id",
      skipTotal: true,
    }),
  );
  return rows.items;
}

/** One history entry of this document, read as the caller. */
export async function readHistoryEntry(
  ctx: GatewayContext,
  kind: DocumentKind,
  id: string,
  revisionId: string,
): Promise<RevisionRecord> {
  const entry = await pbCall(() => ctx.pb.collection("revisions").getOne<RevisionRecord>(revisionId));
  if (entry[kind] !== id || entry.working) throw notFound();
  return entry;
}
