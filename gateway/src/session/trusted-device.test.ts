import { describe, expect, it } from "vitest";
import { TRUSTED_DEVICE_COOKIE, TrustedDevices } from "./trusted-device.ts";

const devices = new TrustedDevices({ email: "system@church.example", password: "a superuser secret" });
/** The Cookie header a browser sends back for a Set-Cookie value. */
const sentBack = (setCookie: string) => setCookie.split(";")[0]!;

describe("TrustedDevices", () => {
  it("trusts a browser for the account it signed in to, and for no other", () => {
    const cookie = sentBack(devices.issue(null, "ruth@example.com", false));
    expect(devices.deviceFor(cookie, "ruth@example.com")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(devices.deviceFor(cookie, "naomi@example.com")).toBeNull();
    expect(devices.deviceFor(null, "ruth@example.com")).toBeNull();
  });

  it("is httpOnly, SameSite=Lax, sent to /graphql only, and Secure in production", () => {
    expect(devices.issue(null, "ruth@example.com", false)).toMatch(
      /^flock_trusted=[^;]+; Max-Age=15552000; Path=\/graphql; HttpOnly; SameSite=Lax$/,
    );
    expect(devices.issue(null, "ruth@example.com", true)).toMatch(/; Secure$/);
  });

  it("refuses a tampered entry and one signed with another key", () => {
    const cookie = sentBack(devices.issue(null, "ruth@example.com", false));
    const tampered = cookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(devices.deviceFor(tampered, "ruth@example.com")).toBeNull();
    const elsewhere = new TrustedDevices({ email: "system@church.example", password: "another secret" });
    expect(elsewhere.deviceFor(cookie, "ruth@example.com")).toBeNull();
    expect(devices.deviceFor(`${TRUSTED_DEVICE_COOKIE}=garbage~also.garbage`, "ruth@example.com")).toBeNull();
  });

  it("keeps the browser's other accounts, renews this one's entry, and holds at most five", () => {
    let cookie = sentBack(devices.issue(null, "ruth@example.com", false));
    const first = devices.deviceFor(cookie, "ruth@example.com");
    cookie = sentBack(devices.issue(cookie, "boaz@example.com", false));
    expect(devices.deviceFor(cookie, "ruth@example.com")).toBe(first);
    cookie = sentBack(devices.issue(cookie, "ruth@example.com", false));
    const renewed = devices.deviceFor(cookie, "ruth@example.com");
    expect(renewed).not.toBe(first);
    expect(cookie.split("~")).toHaveLength(2);
    for (const name of ["a", "b", "c", "d"])
      cookie = sentBack(devices.issue(cookie, `${name}@example.com`, false));
    expect(cookie.split("~")).toHaveLength(5);
    expect(devices.deviceFor(cookie, "d@example.com")).not.toBeNull();
    expect(devices.deviceFor(cookie, "boaz@example.com")).toBeNull(); // the oldest went first
  });
});
