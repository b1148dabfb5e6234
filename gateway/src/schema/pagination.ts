import type PocketBase from "pocketbase";
import { badUserInput } from "../errors.ts";
import { LIMITS } from "../validation/limits.ts";

/**
 * Keyset cursors over (sort field, id): no OFFSET and no COUNT, stable while rows are added.
 * The cursor is opaque to clients: base64url of [value, id].
 */
export interface Cursor {
  value: string;
  id: string;
}

export const encodeCursor = (value: string, id: string) => Buffer.from(JSON.stringify([value, id])).toString("base64url");

export function decodeCursor(cursor: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) {
      return { value: value[0] as string, id: value[1] as string };
    }
  } catch {
    /* fall through */
  }
  return null;
}

/** Rows after `cursor` in "-field,-id" order. */
export const keysetFilter = (pb: PocketBase, field: string, cursor: Cursor) =>
  pb.filter(`(${field} < {:v} || (${field} = {:v} && id < {:id}))`, { v: cursor.value, id: cursor.id });

/** Validate `first` (1…100) and `after`; BAD_USER_INPUT before any PocketBase call otherwise. */
export function pageArgs(first: number | null | undefined, after: string | null | undefined, fallback: number) {
  const size = first ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > LIMITS.pageSizeMax) {
    throw badUserInput({ first: { code: "out_of_range", message: `first must be between 1 and ${LIMITS.pageSizeMax}.` } });
  }
  const cursor = after ? decodeCursor(after) : null;
  if (after && !cursor) throw badUserInput({ after: { code: "invalid", message: "Invalid cursor." } });
  return { size, cursor };
}

/** A connection from a page fetched with size + 1 rows (the extra row says whether more follow). */
export function connection<T extends { id: string }>(rows: T[], size: number, keyOf: (row: T) => string, totalCount: () => Promise<number>) {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return {
    edges: items.map((node) => ({ node, cursor: encodeCursor(keyOf(node), node.id) })),
    pageInfo: { hasNextPage: rows.length > size, endCursor: last ? encodeCursor(keyOf(last), last.id) : null },
    // Counted only when the query asks for it: graphql-js calls a function-valued field lazily.
    totalCount: totalCount as unknown as number,
  };
}
