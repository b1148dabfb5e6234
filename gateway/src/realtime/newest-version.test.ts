import { describe, expect, it } from "vitest";
import { NewestVersion } from "./newest-version.ts";

describe("NewestVersion", () => {
  it("passes changes that arrive in order, and a repeat of the newest", () => {
    const newest = new NewestVersion();
    expect([1, 2, 2, 3].map((v) => newest.accept(v))).toEqual([true, true, true, true]);
  });

  it("drops a change that arrives after a newer one (a cancellation's count after its promotion's)", () => {
    const newest = new NewestVersion();
    expect(newest.accept(7)).toBe(true);
    expect(newest.accept(6)).toBe(false);
    expect(newest.accept(8)).toBe(true);
  });

  it("after a resync, takes the state read as the newest, then drops what was still on its way", () => {
    const newest = new NewestVersion();
    newest.accept(3);
    newest.reset(5);
    expect(newest.accept(4)).toBe(false);
    expect(newest.accept(6)).toBe(true);
  });
});
