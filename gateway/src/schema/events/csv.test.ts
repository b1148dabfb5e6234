import { describe, expect, it } from "vitest";
import type { RegistrationRecord, RsvpRecord } from "../../pocketbase/records.ts";
import { attendeesCsv } from "./csv.ts";

const registration = (fields: Partial<RegistrationRecord>) => fields as RegistrationRecord;
const rsvp = (fields: Partial<RsvpRecord>) => fields as RsvpRecord;

describe("attendeesCsv", () => {
  it("lists registrations, then RSVPs, one line each, with formulas neutralised and separators quoted", () => {
    const csv = attendeesCsv(
      [
        registration({
          name: "Smith, Ann",
          email: "ann@example.com",
          attendees: 2,
          attendeeNames: ["Ann", "Bob"],
          status: "confirmed",
          confirmationCode: "ABCD-EFGH",
          waitlistPosition: 0,
          created: "2026-01-02 10:00:00.000Z",
        }),
        registration({
          name: "=HYPERLINK(1)",
          email: "w@example.com",
          attendees: 1,
          attendeeNames: [],
          status: "waitlisted",
          confirmationCode: "WXYZ-2345",
          waitlistPosition: 3,
          created: "2026-01-02 11:00:00.000Z",
        }),
      ],
      [
        rsvp({
          name: "Carl",
          email: "c@example.com",
          response: "maybe",
          guests: 2,
          created: "2026-01-03 09:30:00.000Z",
        }),
      ],
    );
    expect(csv).toBe(
      [
        "name,email,attendees,names,status,code,waitlist position,registered",
        '"Smith, Ann",ann@example.com,2,Ann; Bob,confirmed,ABCD-EFGH,,2026-01-02T10:00:00.000Z',
        "'=HYPERLINK(1),w@example.com,1,,waitlisted,WXYZ-2345,3,2026-01-02T11:00:00.000Z",
        "Carl,c@example.com,3,,rsvp maybe,,,2026-01-03T09:30:00.000Z",
        "",
      ].join("\r\n"),
    );
  });
});
