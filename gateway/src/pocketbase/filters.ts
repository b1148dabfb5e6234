import type PocketBase from "pocketbase";

/**
 * PocketBase refuses filters longer than about 3,500 characters (measured on 0.40.4: 3,306 passed,
 * 3,616 failed), so an OR-chain holds at most 100 ids and stays under FILTER_CHARS. Any feature's
 * batched reads (DataLoaders) pack their clauses with orChains.
 */
export const MAX_IDS_PER_CHAIN = 100;
export const FILTER_CHARS = 3_200;

/** Pack `clauses` into OR-chains that PocketBase accepts. */
export function orChains(
  clauses: string[],
  maxChars = FILTER_CHARS,
  maxClauses = MAX_IDS_PER_CHAIN,
): string[] {
  const chains: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const clause of clauses) {
    if (current.length && (current.length >= maxClauses || length + clause.length + 4 > maxChars)) {
      chains.push(current.join(" || "));
      current = [];
      length = 0;
    }
    current.push(clause);
    length += clause.length + 4;
  }
  if (current.length) chains.push(current.join(" || "));
  return chains;
}

/**
 * `field = a || field = b …` for a small batch of ids (never empty: no ids match nothing). At most
 * MAX_IDS_PER_CHAIN ids (a loader's maxBatchSize, a family's people); larger sets use orChains.
 */
export const anyOf = (pb: PocketBase, field: string, ids: readonly string[]): string =>
  ids.length ? ids.map((id) => pb.filter(`${field} = {:id}`, { id })).join(" || ") : "id = ''";
