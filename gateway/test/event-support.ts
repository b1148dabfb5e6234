import { randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import { system } from "./helpers.ts";

let n = 0;
export const uniqueSlug = (label: string) => `${label}-${Date.now().toString(36)}-${n++}`;

/** PocketBase's own date format for a date field ("2026-12-06 15:00:00.000Z"). */
export const pbDate = (iso: string) => new Date(iso).toISOString().replace("T", " ");

/** Factory: an event made by the system account (defaults: published, public, one-off, next month). */
export async function createEvent(fields: Record<string, unknown> = {}) {
  const su = await system();
  const start = new Date(Date.now() + 30 * 86400_000);
  start.setUTCHours(15, 0, 0, 0);
  return su.collection("events").create<{ id: string; slug: string; startsAt: string; endsAt: string }>({
    title: "Target event",
    slug: uniqueSlug("event"),
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + 3600_000).toISOString(),
    timezone: "America/New_York",
    visibility: "public",
    status: "published",
    registrationMode: "none",
    ...fields,
  });
}

export const secretToken = () => randomBytes(24).toString("hex");
export const confirmationCode = () => randomBytes(5).toString("hex").toUpperCase();

/** A registration as a visitor's request would carry it (status and waitlist are the hook's). */
export function registrationBody(
  event: { id: string; startsAt: string },
  fields: Record<string, unknown> = {},
) {
  return {
    event: event.id,
    occurrenceStart: event.startsAt,
    name: "Visitor",
    email: `visitor-${randomBytes(4).toString("hex")}@test.example`,
    attendees: 1,
    confirmationCode: confirmationCode(),
    cancelToken: secretToken(),
    user: "",
    ...fields,
  };
}

export async function countsOf(su: PocketBase, eventId: string) {
  return su.collection("occurrence_counts").getFirstListItem(su.filter("event = {:e}", { e: eventId }));
}
