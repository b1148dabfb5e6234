import type PocketBase from "pocketbase";
import { ClientResponseError, type RecordModel } from "pocketbase";
import { pbCall } from "../errors.ts";

/**
 * Small PocketBase helpers any feature may use (the staff processes, prayer, visits, the "my data"
 * export). Every call goes through the client it is given: the caller's, so PocketBase's
 * rules decide what is read and written.
 */

/** Every row of `collection` whose `field` points at `id` (all pages). */
export function rowsPointingAt<T extends RecordModel = RecordModel>(
  pb: PocketBase,
  collection: string,
  field: string,
  id: string,
  fields?: string,
): Promise<T[]> {
  return pbCall(() =>
    pb.collection(collection).getFullList<T>({
      filter: pb.filter(`${field} = {:id}`, { id }),
      batch: 200,
      ...(fields ? { fields } : {}),
    }),
  );
}

/** One record by id as the caller, or null when it is missing or hidden by the rules. */
export async function findById<T>(pb: PocketBase, collection: string, id: string): Promise<T | null> {
  if (!id) return null;
  try {
    return await pb.collection(collection).getOne<T>(id);
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return null;
    return pbCall(() => Promise.reject(error));
  }
}

/** PocketBase's date-time format, for writing date fields. */

/**
 * The bytes of a (protected) file of a record, read with a short-lived file token of the caller;
 * null when the record has no such file or the caller may not read it.
 */
export async function downloadFile(
  pb: PocketBase,
  record: RecordModel,
  filename: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
  if (!filename) return null;
  const token = await pbCall(() => pb.files.getToken());
  const response = await fetch(pb.files.getURL(record, filename, { token }));
  if (!response.ok) return null;
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    type: response.headers.get("content-type") ?? "application/octet-stream",
  };
}

/**
 * Store `value` in a set-once field (a feed identifier: pb_hooks/feed-identifiers.pb.js keeps the first
 * value stored) and answer the stored value, which is another request's when two raced. A system job:
 * `system` is the superuser client, used only to fill the identifier a public feed is about to publish.
 */
export async function storeOnce(
  system: PocketBase,
  collection: string,
  id: string,
  field: string,
  value: string,
): Promise<string> {
  const saved = await system.collection(collection).update<Record<string, unknown>>(id, { [field]: value });
  return String(saved[field] ?? value);
}
