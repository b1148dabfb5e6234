import type PocketBase from "pocketbase";
import { badUserInput } from "../errors.ts";
import { LIMITS } from "@flock/shared/limits";

/**
 * Keyset cursors over (sort field, id): no OFFSET and no COUNT, stable while rows are added.
 * The cursor is opaque to clients: base64url of [value, id].
 */
export interface Cursor {
  value: string;
  id: string;
}

export const encodeCursor = (value: string, id: string) =>
  Buffer.from(JSON.stringify([value, id])).toString("base64url");

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
export function pageArgs(
  first: number | null | undefined,
  after: string | null | undefined,
  fallback: number,
) {
  const size = first ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > LIMITS.pageSizeMax) {
    throw badUserInput({
      first: { code: "out_of_range", message: `first must be between 1 and ${LIMITS.pageSizeMax}.` },
    });
  }
  const cursor = after ? decodeCursor(after) : null;
  if (after && !cursor) throw badUserInput({ after: { code: "invalid", message: "Invalid cursor." } });
  return { size, cursor };
}

/** A connection from a page fetched with size + 1 rows (the extra row says whether more follow). */
export function connection<T extends { id: string }>(
  rows: T[],
  size: number,
  keyOf: (row: T) => string,
  totalCount: () => Promise<number>,
  cursorOf: (row: T) => string = (row) => encodeCursor(keyOf(row), row.id),
) {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return {
    edges: items.map((node) => ({ node, cursor: cursorOf(node) })),
    pageInfo: { hasNextPage: rows.length > size, endCursor: last ? cursorOf(last) : null },
    // Counted only when the query asks for it: graphql-js calls a function-valued field lazily.
    totalCount: totalCount as unknown as number,
  };
}

/** One key of a multi-key sort; the last key must be unique (the id). */
export interface SortKey<T> {
  field: string;
  descending: boolean;
  value: (row: T) => string | number;
}

/** PocketBase's sort string for these keys, e.g. "-publishedAt,-created,-id". */
export const sortOf = <T>(keys: SortKey<T>[]) =>
  keys.map((k) => `${k.descending ? "-" : ""}${k.field}`).join(",");

/** A cursor over several keys: base64url of the row's values, in key order. */
export const encodeKeys = <T>(keys: SortKey<T>[], row: T) =>
  Buffer.from(JSON.stringify(keys.map((k) => k.value(row)))).toString("base64url");

/** Validate `first` and an `after` made by encodeKeys for these keys; BAD_USER_INPUT otherwise. */
export function keyedPageArgs<T>(
  first: number | null | undefined,
  after: string | null | undefined,
  fallback: number,
  keys: SortKey<T>[],
) {
  const { size } = pageArgs(first, null, fallback);
  if (!after) return { size, after: null };
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(after, "base64url").toString("utf8"));
  } catch {
    values = null;
  }
  if (
    !Array.isArray(values) ||
    values.length !== keys.length ||
    !values.every((v) => typeof v === "string" || typeof v === "number")
  ) {
    throw badUserInput({ after: { code: "invalid", message: "Invalid cursor." } });
  }
  return { size, after: values as Array<string | number> };
}

/** Rows after the row whose key values are `values`, in the keys' order (a keyset over several keys). */
export function keysetAfter<T>(pb: PocketBase, keys: SortKey<T>[], values: Array<string | number>): string {
  const params: Record<string, string | number> = {};
  values.forEach((value, i) => (params[`k${i}`] = value));
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => `${k.field} = {:k${j}}`);
    return `(${[...equal, `${key.field} ${key.descending ? "<" : ">"} {:k${i}}`].join(" && ")})`;
  });
  return pb.filter(`(${branches.join(" || ")})`, params);
}

/** A connection whose cursors carry every sort key (see keysetAfter). */
export function keyedConnection<T extends { id: string }>(
  rows: T[],
  size: number,
  keys: SortKey<T>[],
  totalCount: () => Promise<number>,
) {
  return connection(
    rows,
    size,
    () => "",
    totalCount,
    (row) => encodeKeys(keys, row),
  );
}
