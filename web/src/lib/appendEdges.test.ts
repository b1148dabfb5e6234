import { describe, expect, it } from "vitest";
import { appendEdges } from "./appendEdges.ts";

describe("appendEdges", () => {
  it("puts the next page's edges after the shown ones and keeps the newest pageInfo", () => {
    const first = {
      posts: { edges: [{ id: 1 }, { id: 2 }], pageInfo: { hasNextPage: true, endCursor: "b" } },
    };
    const next = { posts: { edges: [{ id: 3 }], pageInfo: { hasNextPage: false, endCursor: "c" } } };
    expect(appendEdges("posts")(first, { fetchMoreResult: next })).toEqual({
      posts: { edges: [{ id: 1 }, { id: 2 }, { id: 3 }], pageInfo: { hasNextPage: false, endCursor: "c" } },
    });
  });
});
