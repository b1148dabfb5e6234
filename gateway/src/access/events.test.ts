import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { occurrenceCan, registrationCan, seesRsvpEmail } from "./events.ts";

const userWith = (...permissions: PermissionName[]) =>
  ({ id: "user00000000001", expand: { roles: [{ permissions }] } }) as unknown as UserRecord;

describe("events policy", () => {
  it("a date is answered or registered for while it is open, by its mode; API tokens never answer", () => {
    expect(occurrenceCan(null, { registrationMode: "rsvp" }, true)).toEqual({
      edit: false,
      rsvp: true,
      register: false,
    });
    expect(occurrenceCan(userWith(), { registrationMode: "registration" }, true).register).toBe(true);
    expect(occurrenceCan(userWith(), { registrationMode: "registration" }, false).register).toBe(false);
    expect(occurrenceCan(null, { registrationMode: "rsvp" }, true, { apiClient: true }).rsvp).toBe(false);
    expect(occurrenceCan(userWith("events.manage"), { registrationMode: "none" }, false)).toEqual({
      edit: true,
      rsvp: false,
      register: false,
    });
  });

  it("a registration its reader may cancel until it is cancelled; only event staff move it", () => {
    expect(registrationCan(userWith(), { status: "confirmed" })).toEqual({ cancel: true, move: false });
    expect(registrationCan(userWith("events.manage"), { status: "waitlisted" })).toEqual({
      cancel: true,
      move: true,
    });
    expect(registrationCan(userWith("events.manage"), { status: "cancelled" })).toEqual({
      cancel: false,
      move: false,
    });
  });

  it("an RSVP's email: its owner and event staff", () => {
    expect(seesRsvpEmail(userWith(), { user: "user00000000001" })).toBe(true);
    expect(seesRsvpEmail(userWith(), { user: "user00000000002" })).toBe(false);
    expect(seesRsvpEmail(userWith("events.manage"), { user: "user00000000002" })).toBe(true);
    expect(seesRsvpEmail(null, { user: "" })).toBe(false);
  });
});
