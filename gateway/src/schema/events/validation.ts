import { Temporal } from "temporal-polyfill";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, pbCall } from "../../errors.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { EventInput } from "../__generated__/types.ts";
import { firstOccurrence, formatRRule, isTimeZone, parseRRule, RecurrenceError } from "./recurrence.ts";
import { pbDateOf } from "./occurrences.ts";
import { validateQuestions } from "./questions.ts";

// Checking what staff write: an event's fields, its times in its zone, its owning group.

const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

export function parseInstant(field: string, value: string): Temporal.Instant {
  try {
    return Temporal.Instant.from(value);
  } catch {
    throw badUserInput({
      [field]: { code: "invalid_date", message: "Use an ISO date-time with an offset." },
    });
  }
}

/** A local wall-clock time ("2026-12-06T10:00") in `zone` as an instant. */
export function localToInstant(
  v: Validator,
  field: string,
  value: string,
  zone: string,
): Temporal.ZonedDateTime | null {
  try {
    return Temporal.PlainDateTime.from(value.trim()).toZonedDateTime(zone, { disambiguation: "compatible" });
  } catch {
    v.add(field, "invalid_date", "Use a date and time like 2026-12-06T10:00.");
    return null;
  }
}

export function validateEvent(input: EventInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const summary =
    input.summary == null ? undefined : v.text("summary", input.summary, { max: LIMITS.summaryMax });
  const description = input.description ?? undefined;
  if (description !== undefined && description.length > LIMITS.markdownMax)
    v.add("description", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  const locationName =
    input.locationName == null
      ? undefined
      : v.text("locationName", input.locationName, { max: LIMITS.nameMax });
  const locationAddress =
    input.locationAddress == null
      ? undefined
      : v.text("locationAddress", input.locationAddress, { max: LIMITS.addressMax });
  const timezone = input.timezone.trim();
  const zoneOk = isTimeZone(timezone);
  if (!zoneOk) v.add("timezone", "invalid_timezone", "Choose a time zone like America/Chicago.");
  const start = zoneOk ? localToInstant(v, "startsAt", input.startsAt, timezone) : null;
  const end = zoneOk ? localToInstant(v, "endsAt", input.endsAt, timezone) : null;
  if (start && end && Temporal.ZonedDateTime.compare(end, start) < 0)
    v.add("endsAt", "before_start", "The end must not be before the start.");
  let rrule = "";
  if (input.rrule?.trim() && start && end) {
    try {
      const rule = parseRRule(input.rrule, timezone);
      if (!firstOccurrence({ start, end, rule }))
        v.add("rrule", "rule_yields_nothing", "This rule gives no dates: check the days and the end.");
      rrule = formatRRule(rule);
    } catch (error) {
      if (!(error instanceof RecurrenceError)) throw error;
      v.add(
        "rrule",
        error.reason === "unsupported" ? "rule_unsupported" : "rule_invalid",
        "This repeat rule cannot be used.",
      );
    }
  }
  const capacity = input.capacity ?? 0;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > LIMITS.eventCapacityMax)
    v.add(
      "capacity",
      "out_of_range",
      `Enter a number of seats from 0 (no limit) to ${LIMITS.eventCapacityMax}.`,
    );
  const opens = input.registrationOpensAt
    ? parseInstant("registrationOpensAt", input.registrationOpensAt)
    : null;
  const closes = input.registrationClosesAt
    ? parseInstant("registrationClosesAt", input.registrationClosesAt)
    : null;
  if (opens && closes && Temporal.Instant.compare(closes, opens) <= 0)
    v.add("registrationClosesAt", "before_start", "Registration must close after it opens.");
  const questions = validateQuestions(v, input.questions);
  v.done();
  return defined({
    title,
    summary,
    description,
    locationName,
    locationAddress,
    category: input.categoryId === undefined ? undefined : (input.categoryId ?? ""),
    startsAt: pbDateOf(start!.toInstant()),
    endsAt: pbDateOf(end!.toInstant()),
    allDay: input.allDay ?? undefined,
    timezone,
    rrule,
    visibility: input.visibility ?? undefined,
    registrationMode: input.registrationMode ?? undefined,
    capacity,
    waitlistEnabled: input.waitlistEnabled ?? undefined,
    questions,
    registrationOpensAt: input.registrationOpensAt === undefined ? undefined : opens ? pbDateOf(opens) : "",
    registrationClosesAt:
      input.registrationClosesAt === undefined ? undefined : closes ? pbDateOf(closes) : "",
  });
}

/**
 * The `ownerGroup` to write for EventInput.ownerGroupId: nothing when omitted (kept), "" to clear, or a
 * group the caller may read (the groups rules decide; an unknown or hidden one is a field error).
 */
export async function ownerGroupOf(
  ctx: GatewayContext,
  id: string | null | undefined,
): Promise<{ ownerGroup?: string }> {
  if (id === undefined) return {};
  if (!id) return { ownerGroup: "" };
  const found = /^[a-z0-9]{15}$/.test(id)
    ? (
        await pbCall(() =>
          ctx.pb
            .collection("groups")
            .getList(1, 1, { filter: ctx.pb.filter("id = {:id}", { id }), fields: "id", skipTotal: true }),
        )
      ).items.length > 0
    : false;
  if (!found)
    throw badUserInput({ ownerGroupId: { code: "unknown_group", message: "Choose a group from the list." } });
  return { ownerGroup: id };
}
