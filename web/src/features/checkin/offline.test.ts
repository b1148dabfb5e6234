import { beforeEach, describe, expect, it } from "vitest";
import type { CheckinFamilyCardFragment } from "./checkin.generated.ts";
import { heldCodes, offlineCodeFor, queued, saveHeldCodes, saveQueue, searchOffline } from "./offline.ts";

// The browser's storage, the one outside boundary here: a Map behind the Storage interface.
beforeEach(() => {
  const items = new Map<string, string>();
  globalThis.localStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
});

const family = (
  householdId: string,
  name: string,
  phoneEndings: string[],
  members: { personId: string; name: string; code?: string }[],
  todayCode: string | null = null,
): CheckinFamilyCardFragment => ({
  __typename: "CheckinFamily",
  householdId,
  name,
  notAuthorized: [],
  trusted: [],
  phoneEndings,
  todayCode,
  members: members.map((m) => ({
    __typename: "CheckinFamilyMember",
    personId: m.personId,
    name: m.name,
    ageGroup: "CHILD",
    ageMonths: 60,
    suggestedRoomId: "room1",
    allergies: "",
    checkin: m.code
      ? ({ __typename: "Checkin", code: m.code } as NonNullable<
          CheckinFamilyCardFragment["members"][number]["checkin"]
        >)
      : null,
  })),
});

const garcia = family(
  "hgarcia00000001",
  "The García family",
  ["0109"],
  [{ personId: "p1", name: "Mateo García" }],
);
const member = family(
  "hmember00000001",
  "The Member family",
  ["0101", "0102"],
  [{ personId: "p2", name: "Mia Member" }],
);

describe("a station's offline search", () => {
  it("finds families by phone digits, by name, and by household QR code", () => {
    expect(searchOffline([garcia, member], "0102")).toEqual([member]);
    expect(searchOffline([garcia, member], " (0109) ")).toEqual([garcia]);
    expect(searchOffline([garcia, member], "mateo")).toEqual([garcia]);
    expect(searchOffline([garcia, member], "member")).toEqual([member]);
    expect(searchOffline([garcia, member], "flock:household:hmember00000001")).toEqual([member]);
    expect(searchOffline([garcia, member], "9999")).toEqual([]);
    expect(searchOffline([garcia, member], "  ")).toEqual([]);
  });
});

describe("the code an offline check-in prints", () => {
  it("is the household's code today, else the one queued for it, else the next held code", () => {
    saveHeldCodes("s1", ["ACDE", "FHJK", "MNPR"]);
    // Checked in earlier today (any session): that code.
    expect(offlineCodeFor({ ...garcia, todayCode: "WXYA" }, "s1")).toBe("WXYA");
    // A sibling checked in this session: theirs.
    const withSibling = family("h3", "Sibs", [], [{ personId: "p3", name: "A", code: "TUVW" }]);
    expect(offlineCodeFor(withSibling, "s1")).toBe("TUVW");
    // Otherwise the first held code; once queued, it is the family's and no longer free for others.
    expect(offlineCodeFor(garcia, "s1")).toBe("ACDE");
    saveQueue([
      {
        key: "k1",
        sessionId: "s1",
        familyName: garcia.name,
        proposedCode: "ACDE",
        offlineAt: new Date().toISOString(),
        people: [{ personId: "p1", roomId: "room1", name: "Mateo García", clientKey: "c1" }],
      },
    ]);
    expect(queued()).toHaveLength(1);
    expect(heldCodes("s1")).toEqual(["FHJK", "MNPR"]);
    expect(offlineCodeFor(garcia, "s1")).toBe("ACDE");
    expect(offlineCodeFor(member, "s1")).toBe("FHJK");
    // No held code left: none (the station says to wait for the network).
    saveHeldCodes("s1", ["ACDE"]);
    expect(offlineCodeFor(member, "s1")).toBeNull();
    // Another session's codes kept beside them (a late answer for one never wipes the other's).
    saveHeldCodes("s2", ["TUVX"]);
    expect(heldCodes("s2")).toEqual(["TUVX"]);
    expect(heldCodes("s1")).toEqual([]);
    saveHeldCodes("s1", ["WXYA"]);
    expect(heldCodes("s2")).toEqual(["TUVX"]);
  });
});
