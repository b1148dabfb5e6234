import { describe, expect, it } from "vitest";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { householdCan, isContactable, personCan } from "./people.ts";

const me = "person000000001";
const home = "household000001";
const userWith = (
  options: { permissions?: PermissionName[]; ageGroup?: string; status?: string; household?: string } = {},
) =>
  ({
    person: me,
    expand: {
      roles: [{ permissions: options.permissions ?? [] }],
      person: {
        id: me,
        recordStatus: options.status ?? "active",
        ageGroup: options.ageGroup ?? "adult",
        household: options.household ?? home,
      },
    },
  }) as unknown as UserRecord;
const person = (fields: { id?: string; household?: string; ageGroup?: string; anonymizedAt?: string } = {}) =>
  ({ id: "person000000002", household: home, ageGroup: "child", anonymizedAt: "", ...fields }) as Parameters<
    typeof personCan
  >[1];

describe("people policy", () => {
  it("a person edits themselves; an active adult of a household its children and youth, never its adults", () => {
    expect(personCan(userWith(), person({ id: me, ageGroup: "adult" })).edit).toBe(true);
    expect(personCan(userWith(), person({ ageGroup: "child" })).edit).toBe(true);
    expect(personCan(userWith(), person({ ageGroup: "youth" })).edit).toBe(true);
    expect(personCan(userWith(), person({ ageGroup: "adult" })).edit).toBe(false);
    expect(personCan(userWith({ ageGroup: "youth" }), person()).edit).toBe(false);
    expect(personCan(userWith({ status: "pending" }), person()).edit).toBe(false);
    expect(personCan(userWith(), person({ household: "household000002" })).edit).toBe(false);
    expect(personCan(null, person())).toEqual({ edit: false, manage: false });
  });

  it("staff with managePeople edit anyone and manage records until they are anonymised", () => {
    const staff = userWith({ permissions: ["people.manage"], household: "elsewhere000001" });
    expect(personCan(staff, person({ ageGroup: "adult", household: "" }))).toEqual({
      edit: true,
      manage: true,
    });
    expect(personCan(staff, person({ anonymizedAt: "2026-01-01 00:00:00.000Z" })).manage).toBe(false);
    expect(personCan(userWith({ permissions: ["people.view"] }), person({ household: "" }))).toEqual({
      edit: false,
      manage: false,
    });
  });

  it("a household: its active adults edit it, managePeople also manages it", () => {
    expect(householdCan(userWith(), { id: home })).toEqual({ edit: true, manage: false });
    expect(householdCan(userWith({ ageGroup: "child" }), { id: home }).edit).toBe(false);
    expect(householdCan(userWith(), { id: "household000002" }).edit).toBe(false);
    expect(householdCan(userWith({ permissions: ["people.manage"] }), { id: "household000002" })).toEqual({
      edit: true,
      manage: true,
    });
  });

  it("the contact relay reaches listed, active people who are not children", () => {
    expect(isContactable({ ageGroup: "adult", inDirectory: true, recordStatus: "active" })).toBe(true);
    expect(isContactable({ ageGroup: "child", inDirectory: true, recordStatus: "active" })).toBe(false);
    expect(isContactable({ ageGroup: "adult", inDirectory: false, recordStatus: "active" })).toBe(false);
    expect(isContactable({ ageGroup: "adult", inDirectory: true, recordStatus: "archived" })).toBe(false);
  });
});
