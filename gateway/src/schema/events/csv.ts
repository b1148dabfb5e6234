import { toCsv } from "@flock/shared/csv";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import type { RegistrationQuestion, RegistrationRecord, RsvpRecord } from "../../pocketbase/records.ts";

const HEADER = ["name", "email", "attendees", "names", "status", "code", "waitlist position", "registered"];

/**
 * One occurrence's sign-ups as staff's spreadsheet: the registrations, then the RSVPs (a person and
 * their guests, with the answer as the status), then a column per question of the event's form (the
 * answers of each registration). Cells go through the one CSV writer (formulas neutralised).
 */
export function attendeesCsv(
  registrations: RegistrationRecord[],
  rsvps: RsvpRecord[],
  questions: readonly RegistrationQuestion[] = [],
): string {
  const answersOf = (r: RegistrationRecord) => {
    const byQuestion = new Map((r.answers ?? []).map((a) => [a.questionId, a.value]));
    return questions.map((q) => byQuestion.get(q.id) ?? "");
  };
  return toCsv(
    [...HEADER, ...questions.map((q) => q.label)],
    [
      ...registrations.map((r) => [
        r.name,
        r.email,
        r.attendees,
        (r.attendeeNames ?? []).join("; "),
        r.status,
        r.confirmationCode,
        r.status === "waitlisted" ? r.waitlistPosition : "",
        fromPocketBaseDate(r.created),
        ...answersOf(r),
      ]),
      ...rsvps.map((r) => [
        r.name,
        r.email,
        1 + (r.guests ?? 0),
        "",
        `rsvp ${r.response}`,
        "",
        "",
        fromPocketBaseDate(r.created),
        ...questions.map(() => ""),
      ]),
    ],
  );
}
