/**
 * `updateQuery` for "Show more" on a cursor connection: the next page's edges go after the ones
 * already shown (the rest of the result, pageInfo included, is the newest page's).
 */
export function appendEdges<K extends string>(field: K) {
  return <Q extends { [P in K]: { edges: readonly unknown[] } }>(
    previous: Q,
    { fetchMoreResult }: { fetchMoreResult: Q },
  ): Q => ({
    ...fetchMoreResult,
    [field]: {
      ...fetchMoreResult[field],
      edges: [...previous[field].edges, ...fetchMoreResult[field].edges],
    },
  });
}
