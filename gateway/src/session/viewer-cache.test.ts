import { describe, expect, it } from "vitest";
import { ViewerCache } from "./viewer-cache.ts";
import type { UserRecord } from "../pocketbase/records.ts";

const user = (id: string) => ({ id }) as UserRecord;

describe("ViewerCache", () => {
  it("remembers a token for its TTL only", () => {
    let now = 0;
    const cache = new ViewerCache(1000, 10, () => now);
    cache.set("t1", user("u1"), "fresh");
    expect(cache.get("t1")?.user.id).toBe("u1");
    now = 999;
    expect(cache.get("t1")?.freshToken).toBe("fresh");
    now = 1000;
    expect(cache.get("t1")).toBeNull();
  });

  it("forgets every token of a user at once", () => {
    const cache = new ViewerCache();
    cache.set("a", user("u1"), "x");
    cache.set("b", user("u1"), "y");
    cache.set("c", user("u2"), "z");
    cache.forgetUser("u1");
    expect([cache.get("a"), cache.get("b"), cache.get("c")?.user.id]).toEqual([null, null, "u2"]);
  });

  it("stays bounded, dropping the oldest entry", () => {
    const cache = new ViewerCache(10_000, 2);
    cache.set("a", user("1"), "");
    cache.set("b", user("2"), "");
    cache.set("c", user("3"), "");
    expect(cache.get("a")).toBeNull();
    expect(cache.get("c")?.user.id).toBe("3");
  });
});
