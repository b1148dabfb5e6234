import { describe, expect, it } from "vitest";
import { formatPhone, toE164 } from "./phone.ts";

describe("phone numbers", () => {
  it("stores typed numbers as E.164", () => {
    expect(toE164("(202) 555-0143", "US")).toBe("+12025550143");
    expect(toE164("+44 20 7946 0958", "US")).toBe("+442079460958");
    expect(toE164("020 7946 0958", "GB")).toBe("+442079460958");
  });
  it("refuses what is not a phone number", () => {
    expect(toE164("12", "US")).toBeNull();
    expect(toE164("call me", "US")).toBeNull();
    expect(toE164("", "US")).toBeNull();
  });
  it("formats for reading", () => {
    expect(formatPhone("+12025550143")).toBe("+1 202 555 0143");
  });
});
