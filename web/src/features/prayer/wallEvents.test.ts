import { describe, expect, it } from "vitest";
import type { PrayerCardFragment, PrayerWallQuery } from "./prayer.generated.ts";
import { applyWallEvent, belongsOnWall } from "./wallEvents.ts";

function request(id: string, overrides: Partial<PrayerCardFragment> = {}): PrayerCardFragment {
  return {
    __typename: "PrayerRequest",
    id,
    body: "Please pray for my mother's surgery on Tuesday.",
    visibility: "PUBLIC",
    anonymous: false,
    authorName: "Ana",
    status: "APPROVED",
    prayedCount: 0,
    prayedToday: false,
    answerNote: null,
    answeredAt: null,
    created: "2026-03-10T12:00:00Z",
    isMine: false,
    flaggedByMe: false,
    can: { __typename: "PrayerRequestCan", flag: true },
    ...overrides,
  };
}

function wall(...nodes: PrayerCardFragment[]): PrayerWallQuery {
  return {
    prayerWall: {
      __typename: "PrayerRequestConnection",
      edges: nodes.map((node) => ({ __typename: "PrayerRequestEdge", node })),
      pageInfo: { __typename: "PageInfo", hasNextPage: false, endCursor: null },
    },
  };
}

const ids = (result: PrayerWallQuery | null) => result?.prayerWall.edges.map((e) => e.node.id);

describe("applyWallEvent", () => {
  it("puts a new request on top and says so", () => {
    const result = applyWallEvent(
      wall(request("a")),
      { kind: "ADDED", id: "b", request: request("b") },
      "ALL",
    );
    expect(ids(result.wall)).toEqual(["b", "a"]);
    expect(result.added).toBe(true);
  });

  it("does not show a request twice", () => {
    const result = applyWallEvent(
      wall(request("a")),
      { kind: "ADDED", id: "a", request: request("a", { prayedCount: 3 }) },
      "ALL",
    );
    expect(result).toEqual({ wall: null, added: false });
  });

  it("leaves count changes to the cache", () => {
    expect(
      applyWallEvent(
        wall(request("a")),
        { kind: "UPDATED", id: "a", request: request("a", { prayedCount: 4 }) },
        "ALL",
      ).wall,
    ).toBeNull();
  });

  it("removes a request that left the wall", () => {
    expect(
      ids(applyWallEvent(wall(request("a"), request("b")), { kind: "REMOVED", id: "a" }, "ALL").wall),
    ).toEqual(["b"]);
    // Flagged back to moderation: the update says it is pending now.
    expect(
      ids(
        applyWallEvent(
          wall(request("a"), request("b")),
          { kind: "UPDATED", id: "b", request: request("b", { status: "PENDING" }) },
          "ALL",
        ).wall,
      ),
    ).toEqual(["a"]);
  });

  it("keeps the answered list to praise reports", () => {
    const answered = request("c", { status: "ANSWERED", answerNote: "She is home!" });
    expect(
      ids(applyWallEvent(wall(), { kind: "UPDATED", id: "c", request: answered }, "ANSWERED").wall),
    ).toEqual(["c"]);
    expect(
      applyWallEvent(wall(), { kind: "ADDED", id: "d", request: request("d") }, "ANSWERED").wall,
    ).toBeNull();
  });

  it("ignores RESYNC (the page refetches) and events without an id", () => {
    expect(applyWallEvent(wall(request("a")), { kind: "RESYNC" }, "ALL").wall).toBeNull();
    expect(applyWallEvent(wall(request("a")), { kind: "REMOVED", id: null }, "ALL").wall).toBeNull();
  });

  it("never puts a pastoral request on the wall", () => {
    expect(belongsOnWall({ status: "APPROVED", visibility: "PASTORAL" }, "ALL")).toBe(false);
    expect(belongsOnWall({ status: "APPROVED", visibility: "MEMBERS" }, "ALL")).toBe(true);
  });
});
