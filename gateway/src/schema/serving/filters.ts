import type PocketBase from "pocketbase";

/** `field = a || field = b …` for a batch of ids (never empty: no ids match nothing). */
export const anyOf = (pb: PocketBase, field: string, ids: readonly string[]): string =>
  ids.length ? ids.map((id) => pb.filter(`${field} = {:id}`, { id })).join(" || ") : "id = ''";
