import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { Validator } from "../../validation/validate.ts";
import {
  checkBirthDate,
  householdWouldLackAdult,
  predictAgeGroup,
  validateAddressInput,
  validatePersonInput,
  validatePhoneInput,
} from "./validate-people.ts";

const fieldErrors = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof GraphQLError) return error.extensions.fieldErrorCodes;
    throw error;
  }
  return null;
};

describe("householdWouldLackAdult (PRODUCT.md §6: a household without an adult)", () => {
  const adult = { id: "a", ageGroup: "adult" };
  const child = { id: "c", ageGroup: "child" };
  const youth = { id: "y", ageGroup: "youth" };

  it.each([
    [
      "the first person of an empty household is a child",
      [],
      { upsert: { id: "new", ageGroup: "child" } },
      true,
    ],
    [
      "the first person of an empty household is a youth",
      [],
      { upsert: { id: "new", ageGroup: "youth" } },
      true,
    ],
    ["the first person is an adult", [], { upsert: { id: "new", ageGroup: "adult" } }, false],
    ["a child joins a household with an adult", [adult], { upsert: { id: "new", ageGroup: "child" } }, false],
    ["a child joins a household of children", [child], { upsert: { id: "new", ageGroup: "child" } }, true],
    ["the only adult leaves, a child stays", [adult, child], { removeId: "a" }, true],
    ["the only adult leaves an otherwise empty household", [adult], { removeId: "a" }, false],
    [
      "the only adult becomes a minor (birth date)",
      [adult, child],
      { upsert: { id: "a", ageGroup: "youth" } },
      true,
    ],
    [
      "one of two adults becomes a child (role)",
      [adult, { id: "b", ageGroup: "adult" }],
      { upsert: { id: "a", ageGroup: "child" } },
      false,
    ],
    ["a youth leaves a household with an adult", [adult, youth], { removeId: "y" }, false],
    [
      "an age group not derived yet counts as adult",
      [{ id: "x", ageGroup: "" }],
      { upsert: { id: "new", ageGroup: "child" } },
      false,
    ],
  ])("%s", (_, members, change, expected) => {
    expect(householdWouldLackAdult(members, change)).toBe(expected);
  });
});

describe("birth dates", () => {
  const check = (value: string) => {
    const v = new Validator();
    checkBirthDate(v, "birthDate", value, "2026-11-21");
    return v.errors.birthDate?.code ?? null;
  };

  it.each([
    ["1980-05-06", null],
    ["2026-11-21", null],
    ["2026-11-22", "date_in_future"],
    ["2030-01-01", "date_in_future"],
    ["2023-02-29", "invalid_date"],
    ["2024-02-29", null],
    ["1980-13-01", "invalid_date"],
    ["06/05/1980", "invalid_date"],
    ["1899-12-31", "invalid_date"],
    ["", "invalid_date"],
  ])("%s → %s", (value, code) => expect(check(value)).toBe(code));

  it("predicts the age group the hook will derive", () => {
    expect(predictAgeGroup("2016-11-22", "", "2026-11-21")).toBe("child"); // 12, birthday tomorrow
    expect(predictAgeGroup("2013-11-21", "", "2026-11-21")).toBe("youth"); // 13 today
    expect(predictAgeGroup("2008-11-21", "child", "2026-11-21")).toBe("adult"); // the date wins over the role
    expect(predictAgeGroup(null, "child")).toBe("child");
    expect(predictAgeGroup(null, "spouse")).toBe("adult");
  });

  it("updatePerson: null clears, a bad date is a field error", () => {
    expect(validatePersonInput({ birthDate: null }).birthDate).toBeNull();
    expect(validatePersonInput({}).birthDate).toBeUndefined();
    expect(fieldErrors(() => validatePersonInput({ birthDate: "2999-01-01", firstName: " " }))).toEqual({
      birthDate: "date_in_future",
      firstName: "required",
    });
  });
});

describe("contact rows", () => {
  it("stores phones as E.164 and refuses what is not a number", () => {
    expect(validatePhoneInput({ number: "+1 (202) 555-0143" }).number).toBe("+12025550143");
    expect(fieldErrors(() => validatePhoneInput({ number: "12" }))).toEqual({ number: "invalid_phone" });
  });

  it("upper-cases the country and checks it", () => {
    expect(validateAddressInput({ street1: "1 Main St", city: "Springfield", country: " us " }).country).toBe(
      "US",
    );
    expect(fieldErrors(() => validateAddressInput({ street1: "", city: "X", country: "U1" }))).toEqual({
      street1: "required",
      country: "invalid_country",
    });
  });
});
