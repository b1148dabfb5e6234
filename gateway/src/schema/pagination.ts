import type PocketBase from "pocketbase";

/** Keyset cursors over (created, id): no OFFSET and no COUNT, stable while rows are added. */
export interface Cursor {
  created: string;
  id: string;
}

export const encodeCursor = (row: Cursor) => Buffer.from(JSON.stringify([row.created, row.id])).toString("base64url");

export function decodeCursor(cursor: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) {
      return { created: value[0] as string, id: value[1] as string };
    }
  } catch {
    /* fall through */
  }
  return null;
}

/** Rows after `cursor` in "-created,-id" order. */
export const keysetFilter = (pb: PocketBase, cursor: Cursor) =>
  pb.filter("(created < {:c} || (created = {:c} && id < {:id}))", { c: cursor.created, id: cursor.id });
