/**
 * Exceptions applied to a series (issue 14): a cancelled date stays listed as CANCELLED, a moved one
 * is listed where it now falls (also when its original date is outside the range, and the other way
 * round), both keyed by the original start, in the event's own zone across a daylight-saving change.
 */
import { describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import type { EventExceptionRecord, EventRecord } from "../../pocketbase/records.ts";
import { dateKeyOf, occurrenceAt, occurrencesOf, pbDateOf } from "./occurrences.ts";

const zone = "America/Chicago";
const at = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(zone).toInstant();
const event = {
  id: "ev1",
  title: "Worship",
  slug: "worship",
  timezone: zone,
  status: "published",
  rrule: "FREQ=WEEKLY;BYDAY=SU",
  exdates: "",
  startsAt: pbDateOf(at("2026-10-18T10:00")),
  endsAt: pbDateOf(at("2026-10-18T11:00")),
} as unknown as EventRecord;
const exception = (original: string, fields: Partial<EventExceptionRecord>) =>
  ({
    id: `x-${original}`,
    event: "ev1",
    originalStart: pbDateOf(at(original)),
    status: "cancelled",
    startsAt: "",
    endsAt: "",
    note: "",
    ...fields,
  }) as EventExceptionRecord;
const local = (i: Temporal.Instant) => i.toZonedDateTimeISO(zone).toPlainDateTime().toString().slice(0, 16);

describe("occurrences with exceptions", () => {
  it("keeps 10:00 Chicago time across the November change, marks a cancelled date and lists a moved one at its new time", () => {
    const exceptions = [
      exception("2026-10-25T10:00", { note: "Snow" }),
      exception("2026-11-08T10:00", {
        status: "moved",
        startsAt: pbDateOf(at("2026-11-07T18:00")),
        endsAt: pbDateOf(at("2026-11-07T19:30")),
        note: "Saturday evening",
      }),
    ];
    const list = occurrencesOf(event, exceptions, at("2026-10-18T00:00"), at("2026-11-16T00:00"));
    expect(list.map((o) => [local(o.start.toInstant()), o.status, o.note])).toEqual([
      ["2026-10-18T10:00", "SCHEDULED", null],
      ["2026-10-25T10:00", "CANCELLED", "Snow"],
      ["2026-11-01T10:00", "SCHEDULED", null],
      ["2026-11-07T18:00", "MOVED", "Saturday evening"],
      ["2026-11-15T10:00", "SCHEDULED", null],
    ]);
    // Registrations and pages refer to the original start, whose local date is the ?date= key.
    const moved = list[3]!;
    expect(local(moved.originalStart.toInstant())).toBe("2026-11-08T10:00");
    expect(dateKeyOf(moved)).toBe("2026-11-08");
    expect(local(moved.end.toInstant())).toBe("2026-11-07T19:30");
    // Before and after the change the UTC hour differs, the local hour does not.
    expect([list[0]!.start.toInstant().toString(), list[2]!.start.toInstant().toString()]).toEqual([
      "2026-10-18T15:00:00Z",
      "2026-11-01T16:00:00Z",
    ]);
  });

  it("a date moved into the range from outside it is listed; one moved out of the range is not", () => {
    const exceptions = [
      exception("2026-12-06T10:00", {
        status: "moved",
        startsAt: pbDateOf(at("2026-11-28T10:00")),
        endsAt: pbDateOf(at("2026-11-28T11:00")),
      }),
      exception("2026-11-22T10:00", {
        status: "moved",
        startsAt: pbDateOf(at("2026-12-02T19:00")),
        endsAt: pbDateOf(at("2026-12-02T20:00")),
      }),
    ];
    const november = occurrencesOf(event, exceptions, at("2026-11-16T00:00"), at("2026-12-01T00:00"));
    expect(november.map((o) => [local(o.start.toInstant()), o.status])).toEqual([
      ["2026-11-28T10:00", "MOVED"],
      ["2026-11-29T10:00", "SCHEDULED"],
    ]);
  });

  it("finds one occurrence by its original start, exception applied, and none for a time the series does not have", () => {
    const exceptions = [exception("2026-11-01T10:00", { note: "Fire drill" })];
    expect(occurrenceAt(event, exceptions, at("2026-11-01T10:00"))).toMatchObject({
      status: "CANCELLED",
      note: "Fire drill",
    });
    expect(occurrenceAt(event, exceptions, at("2026-11-08T10:00"))).toMatchObject({ status: "SCHEDULED" });
    expect(occurrenceAt(event, exceptions, at("2026-11-08T11:00"))).toBeNull();
    expect(occurrenceAt(event, exceptions, at("2026-11-09T10:00"))).toBeNull();
  });

  it("a cancelled event lists every date as cancelled, moved ones too", () => {
    const cancelled = { ...event, status: "cancelled" } as EventRecord;
    const exceptions = [
      exception("2026-10-25T10:00", {
        status: "moved",
        startsAt: pbDateOf(at("2026-10-24T10:00")),
        endsAt: pbDateOf(at("2026-10-24T11:00")),
      }),
    ];
    expect(
      occurrencesOf(cancelled, exceptions, at("2026-10-18T00:00"), at("2026-11-01T00:00")).map(
        (o) => o.status,
      ),
    ).toEqual(["CANCELLED", "CANCELLED"]);
  });
});
