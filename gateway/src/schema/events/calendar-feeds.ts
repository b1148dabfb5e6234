import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { Temporal } from "temporal-polyfill";
import type { SettingsRecord } from "../../pocketbase/records.ts";
import type { SystemClient } from "../../pocketbase/client.ts";
import { calendar, occurrenceCalendar, occurrenceUid, type CalendarEntry, type FeedOptions } from "./ics.ts";
import { storeOnce } from "../../pocketbase/records-io.ts";
import { instantOf, occurrenceAt, occurrencesOf } from "./occurrences.ts";
import { ownGroupRows } from "../groups/own-rows.ts";
import { servingCalendarItems } from "../serving/calendar.ts";
import { recipientLocale } from "../../mail/i18n.ts";
import type {
  EventExceptionRecord,
  EventRecord,
  PersonRecord,
  RegistrationRecord,
  RsvpRecord,
  UserRecord,
} from "../../pocketbase/records.ts";

/**
 * The iCalendar feeds (issue 14): /feeds/events.ics (public events), /feeds/events/<category>.ics,
 * /feeds/events/occurrence/<slug>/<date>.ics (one occurrence, "Add to calendar") and the personal
 * /feeds/me/<token>.ics (with what its owner serves: schema/serving/calendar.ts). The public ones are read
 * as a guest, so members-only events and drafts never appear; the personal one as its owner.
 */

export type EventFeedRoute =
  | { kind: "all" }
  | { kind: "category"; slug: string }
  | { kind: "occurrence"; slug: string; date: string }
  | { kind: "personal"; token: string };

export function eventFeedRoute(pathname: string): EventFeedRoute | null {
  if (pathname === "/feeds/events.ics") return { kind: "all" };
  let m = /^\/feeds\/events\/occurrence\/([a-z0-9-]{1,120})\/(\d{4}-\d{2}-\d{2})\.ics$/.exec(pathname);
  if (m) return { kind: "occurrence", slug: m[1]!, date: m[2]! };
  m = /^\/feeds\/events\/([a-z0-9-]{1,120})\.ics$/.exec(pathname);
  if (m) return { kind: "category", slug: m[1]! };
  m = /^\/feeds\/me\/([A-Za-z0-9_-]{20,64})\.ics$/.exec(pathname);
  if (m) return { kind: "personal", token: m[1]! };
  return null;
}

const options = (settings: SettingsRecord, origin: string, suffix = ""): FeedOptions => ({
  name: `${settings.churchName}${suffix}`,
  origin,
  uidHost: new URL(origin).host,
});

/**
 * Events whose iCalendar UID is not stored yet get the one they have always been published with
 * (event-<id>@<host>), stored once (a system job: the field is set once, kept by a hook), so the UID
 * stays when the church moves to another domain.
 */
async function withStoredUids(
  system: SystemClient,
  events: EventRecord[],
  host: string,
): Promise<EventRecord[]> {
  const missing = events.filter((e) => !e.icalUid);
  if (!missing.length) return events;
  const su = await system.get();
  const stored = new Map<string, string>();
  for (const e of missing)
    stored.set(e.id, await storeOnce(su, "events", e.id, "icalUid", `event-${e.id}@${host}`));
  return events.map((e) => (e.icalUid ? e : { ...e, icalUid: stored.get(e.id)! }));
}

async function withExceptions(pb: PocketBase, events: EventRecord[]) {
  const exceptions: EventExceptionRecord[] = [];
  for (let i = 0; i < events.length; i += 50) {
    const filter = events
      .slice(i, i + 50)
      .map((e) => pb.filter("event = {:id}", { id: e.id }))
      .join(" || ");
    exceptions.push(
      ...(await pb.collection("event_exceptions").getFullList<EventExceptionRecord>({ filter })),
    );
  }
  return events.map((event) => ({
    event,
    exceptions: exceptions.filter((x) => x.event === event.id),
    categoryName: event.expand?.category?.name ?? null,
  }));
}

/**
 * Published (or cancelled) events owned by the person's active groups that have not ended before
 * `since`, read as the person: their own memberships (as the groups screens read them), then the
 * events the events rules let them see.
 */
async function eventsOfMyGroups(asUser: PocketBase, personId: string, since: string): Promise<EventRecord[]> {
  const { memberships } = await ownGroupRows(asUser, personId).catch((error: unknown) => {
    if (error instanceof ClientResponseError && error.status === 404) return { memberships: [] }; // an archived or merged person
    throw error;
  });
  const groups = [...new Set(memberships.filter((m) => m.status === "active").map((m) => m.group))].slice(
    0,
    100,
  );
  if (!groups.length) return [];
  const owned = groups.map((g) => asUser.filter("ownerGroup = {:g}", { g })).join(" || ");
  return asUser.collection("events").getFullList<EventRecord>({
    filter: `(${owned}) && ${asUser.filter('status != "draft" && (rrule != "" || endsAt >= {:since})', { since })}`,
    sort: "startsAt,id",
    expand: "category",
  });
}

type PersonalFeedOwner = Pick<UserRecord, "id" | "person" | "status" | "locale"> & {
  expand?: { person?: Pick<PersonRecord, "recordStatus" | "anonymizedAt" | "mergedInto"> };
};

/**
 * Whether a personal feed's owner may still read it: the feed is a credential of its own (calendar apps
 * send no session), so it ends with the account — suspended, or its person archived (deactivated),
 * merged away or anonymised (which also deletes the login) — exactly as an unknown link does (404).
 */
function feedOwnerActive(owner: PersonalFeedOwner): boolean {
  if (owner.status === "suspended") return false;
  const person = owner.expand?.person;
  if (owner.person && !person) return false;
  return !person || (person.recordStatus !== "archived" && !person.anonymizedAt && !person.mergedInto);
}

/** The feed's text, or null when there is nothing by that name (404). */
export async function eventFeed(
  route: EventFeedRoute,
  guest: PocketBase,
  system: SystemClient,
  settings: SettingsRecord,
  origin: string,
): Promise<string | null> {
  if (route.kind === "all" || route.kind === "category") {
    // Read as a guest: the events' read rule leaves published public events only (it alone decides).
    const filters: string[] = [];
    let suffix = ": Events";
    if (route.kind === "category") {
      const category = await guest
        .collection("event_categories")
        .getList(1, 1, { filter: guest.filter("slug = {:s}", { s: route.slug }), skipTotal: true });
      if (!category.items[0]) return null;
      filters.push(guest.filter("category = {:c}", { c: category.items[0].id }));
      suffix = `: ${String(category.items[0].name)}`;
    }
    const events = await guest
      .collection("events")
      .getFullList<EventRecord>({ filter: filters.join(" && "), sort: "startsAt,id", expand: "category" });
    const identified = await withStoredUids(system, events, new URL(origin).host);
    return calendar(await withExceptions(guest, identified), options(settings, origin, suffix));
  }
  if (route.kind === "occurrence") {
    const rows = await guest.collection("events").getList<EventRecord>(1, 1, {
      filter: guest.filter("slug = {:s}", { s: route.slug }),
      expand: "category",
      skipTotal: true,
    });
    const listed = rows.items[0];
    if (!listed) return null;
    const [event] = await withStoredUids(system, [listed], new URL(origin).host);
    if (!event) return null;
    const [withX] = await withExceptions(guest, [event]);
    const day = Temporal.PlainDate.from(route.date).toZonedDateTime({ timeZone: event.timezone });
    const found = occurrencesOf(
      event,
      withX!.exceptions,
      day.subtract({ days: 400 }).toInstant(),
      day.add({ days: 400 }).toInstant(),
    ).find((o) => o.originalStart.toPlainDate().toString() === route.date);
    return found ? occurrenceCalendar(found, options(settings, origin)) : null;
  }
  // Personal: the token names the user (a system look-up of a hidden field); their events are then
  // read as that user (an impersonation token), so the rules decide exactly as in the app.
  const su = await system.get();
  const users = await su.collection("users").getList<PersonalFeedOwner>(1, 1, {
    filter: su.filter("calendarToken = {:t}", { t: route.token }),
    fields:
      "id,person,status,locale,expand.person.recordStatus,expand.person.anonymizedAt,expand.person.mergedInto",
    expand: "person",
    skipTotal: true,
  });
  const owner = users.items[0];
  if (!owner || !feedOwnerActive(owner)) return null;
  const userId = owner.id;
  const personId = owner.person;
  const asUser = await su.collection("users").impersonate(userId, 120);
  asUser.autoCancellation(false);
  const since = new Date(Date.now() - 31 * 86_400_000).toISOString().replace("T", " ");
  const mine = asUser.filter("user = {:u} && occurrenceStart >= {:since}", { u: userId, since });
  const [registrations, rsvps] = await Promise.all([
    asUser
      .collection("registrations")
      .getFullList<RegistrationRecord>({ filter: `${mine} && status != "cancelled"`, expand: "event" }),
    asUser.collection("rsvps").getFullList<RsvpRecord & { expand?: { event?: EventRecord } }>({
      filter: `${mine} && response != "no"`,
      expand: "event",
    }),
  ]);
  // The events of the groups they belong to, whole series as the group's page lists them (PRODUCT §3).
  const host = new URL(origin).host;
  const groupEvents = await withStoredUids(
    system,
    personId ? await eventsOfMyGroups(asUser, personId, since) : [],
    host,
  );
  const inGroupSeries = new Set(groupEvents.map((e) => e.id));
  const chosen = new Map<string, { event: EventRecord; start: string }>();
  for (const row of [...registrations, ...rsvps]) {
    // A date of a group series is already in it.
    if (row.expand?.event && !inGroupSeries.has(row.event))
      chosen.set(`${row.event}|${row.occurrenceStart}`, {
        event: (await withStoredUids(system, [row.expand.event], host))[0]!,
        start: row.occurrenceStart,
      });
  }
  const events: CalendarEntry[] = await withExceptions(asUser, groupEvents);
  for (const { event, start } of chosen.values()) {
    const [withX] = await withExceptions(asUser, [event]);
    const original = instantOf(start);
    const o = occurrenceAt(event, withX!.exceptions, original);
    if (!o) continue;
    events.push({
      event: {
        ...event,
        id: `${event.id}-${original.epochMilliseconds}`,
        icalUid: occurrenceUid(event, original.epochMilliseconds),
        startsAt: o.start.toInstant().toString(),
        endsAt: o.end.toInstant().toString(),
        rrule: "",
        exdates: "",
        status: o.status === "CANCELLED" ? "cancelled" : event.status,
      },
      exceptions: [],
      categoryName: null,
      note: o.note,
    });
  }
  // What they serve, in their language (the rest of the feed is the church's own words).
  const serving = personId
    ? await servingCalendarItems(asUser, personId, since, {
        origin,
        uidHost: host,
        timeZone: settings.timezone || "UTC",
        locale: recipientLocale(owner, settings),
      })
    : [];
  return calendar(events, options(settings, origin, ": My events"), serving);
}
