import { describe, expect, it } from "vitest";
import { buildSchema, isInputObjectType, isObjectType, isEnumType } from "graphql";
import { LIMITS } from "@flock/shared/limits";
import { typeDefs } from "../__generated__/typeDefs.ts";

// The events SDL tells integrators the limits in words ("a party of 1–10 people"); limits.ts is where
// they are decided. These are the descriptions that name one, read from the served schema.

const schema = buildSchema(typeDefs);
const number = (n: number) => n.toLocaleString("en-US");

/** The description of Type, Type.field, Type.field(arg) or Enum.VALUE. */
function description(path: string): string {
  const [typeName, member, arg] = path.split(/[.()]/).filter(Boolean) as [string, string?, string?];
  const type = schema.getType(typeName);
  if (!type) throw new Error(`${typeName} is not in the schema`);
  if (!member) return type.description ?? "";
  if (isEnumType(type)) return type.getValue(member)?.description ?? "";
  if (!isObjectType(type) && !isInputObjectType(type)) throw new Error(`${typeName} has no fields`);
  const field = type.getFields()[member];
  if (!field) throw new Error(`${path}: no such field`);
  if (!arg) return field.description ?? "";
  const argument = "args" in field ? field.args.find((a) => a.name === arg) : undefined;
  if (!argument) throw new Error(`${path}: no such argument`);
  return argument.description ?? "";
}

describe("the events schema's descriptions state the limits of limits.ts", () => {
  it.each([
    ["RegistrationMode.RSVP", `guest count (0–${LIMITS.rsvpGuestsMax})`],
    ["RegistrationMode.REGISTRATION", `a party (1–${LIMITS.partySizeMax} people)`],
    ["Rsvp.guests", `(0–${LIMITS.rsvpGuestsMax})`],
    ["RsvpInput.guests", `(0–${LIMITS.rsvpGuestsMax})`],
    ["Registration", `a party of 1–${LIMITS.partySizeMax} people`],
    ["Registration.attendees", `(1–${LIMITS.partySizeMax})`],
    ["Registration.attendeeNames", `at most ${LIMITS.partySizeMax}`],
    ["RegistrationInput.attendees", `1–${LIMITS.partySizeMax}`],
    ["RegistrationInput.attendeeNames", `at most ${LIMITS.partySizeMax} kept`],
    ["RegistrationInput.name", `1–${LIMITS.nameMax} characters`],
    ["RegistrationInput.phone", `at most ${LIMITS.phoneMax} characters`],
    ["EventInput.capacity", `0–${number(LIMITS.eventCapacityMax)}`],
    ["EventInput.title", `1–${LIMITS.nameMax} characters`],
    ["EventInput.summary", `at most ${LIMITS.summaryMax} characters`],
    ["EventInput.description", `at most ${number(LIMITS.markdownMax)} characters`],
    ["EventInput.locationName", `at most ${LIMITS.nameMax} characters`],
    ["EventInput.locationAddress", `at most ${LIMITS.addressMax} characters`],
    ["EventException.note", `at most ${LIMITS.occurrenceNoteMax} characters`],
    ["Mutation.cancelOccurrence(note)", `trimmed to ${LIMITS.occurrenceNoteMax} characters`],
    ["Mutation.moveOccurrence(note)", `trimmed to ${LIMITS.occurrenceNoteMax} characters`],
  ])("%s says %s", (path, words) => {
    expect(description(path)).toContain(words);
  });
});
