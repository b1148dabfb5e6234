import { randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";
import { photo } from "./seed-people.ts";

/**
 * Demo events (issue 14) in the church's zone: the weekly Sunday service, a midweek prayer meeting,
 * a monthly potluck on the 2nd Sunday (one date cancelled), and a registration event with a small
 * capacity that already has a few people registered. Three have cover images (the cards and pages show
 * them), the prayer meeting none (the cards' placeholder).
 */
const ZONE = "America/Chicago";
const CATEGORIES = [
  { key: "worship", name: "Worship", slug: "worship", color: "#1f6feb" },
  { key: "fellowship", name: "Fellowship", slug: "fellowship", color: "#2da44e" },
  { key: "prayer", name: "Prayer", slug: "prayer", color: "#8250df" },
  { key: "retreats", name: "Retreats", slug: "retreats", color: "#bf5700" },
];

const at = (date: Temporal.PlainDate, time: string) =>
  date.toPlainDateTime(Temporal.PlainTime.from(time)).toZonedDateTime(ZONE);
const pb = (z: Temporal.ZonedDateTime) => new Date(z.epochMilliseconds).toISOString().replace("T", " ");

/** The next date on or after `from` with ISO weekday `day` (Monday 1 … Sunday 7). */
const nextWeekday = (from: Temporal.PlainDate, day: number) =>
  from.add({ days: (day - from.dayOfWeek + 7) % 7 });

export async function seedEvents(system: PocketBase): Promise<void> {
  const categories = new Map<string, string>();
  for (const c of CATEGORIES)
    categories.set(
      c.key,
      (await system.collection("event_categories").create({ name: c.name, slug: c.slug, color: c.color })).id,
    );
  const today = Temporal.Now.plainDateISO(ZONE);
  const firstOfYear = today.with({ month: 1, day: 1 });
  const common = {
    timezone: ZONE,
    visibility: "public",
    status: "published",
    locationName: "Grace Community Church",
    locationAddress: "1200 Maple Avenue, Springfield, IL 62704",
  };

  const sunday = nextWeekday(firstOfYear, 7);
  await system.collection("events").create({
    ...common,
    title: "Sunday Worship",
    slug: "sunday-worship",
    summary: "Traditional worship at 9:00 and contemporary at 11:00 — everyone is welcome.",
    description:
      "Join us for **worship, prayer and teaching** from the Bible. Children's church runs during the 11:00 service.\n\nCoffee and pastries in the foyer afterwards.",
    category: categories.get("worship"),
    startsAt: pb(at(sunday, "09:00")),
    endsAt: pb(at(sunday, "10:15")),
    rrule: "FREQ=WEEKLY;BYDAY=SU",
    registrationMode: "none",
    image: await photo("choir"),
  });

  const wednesday = nextWeekday(firstOfYear, 3);
  await system.collection("events").create({
    ...common,
    title: "Midweek Prayer Meeting",
    slug: "midweek-prayer",
    summary: "An hour of prayer for our church, our city and the world.",
    description: "We pray together in the chapel. Bring your requests, or come and listen.",
    category: categories.get("prayer"),
    locationName: "The chapel",
    startsAt: pb(at(wednesday, "18:30")),
    endsAt: pb(at(wednesday, "19:30")),
    rrule: "FREQ=WEEKLY;BYDAY=WE",
    registrationMode: "rsvp",
  });

  // The potluck: 2nd Sunday of every month, after the 11:00 service; the next one is cancelled.
  const secondSunday = nextWeekday(firstOfYear, 7).add({ weeks: 1 });
  const potluck = await system.collection("events").create({
    ...common,
    title: "Fellowship Potluck",
    slug: "fellowship-potluck",
    summary: "Bring a dish to share — lunch in the fellowship hall on the 2nd Sunday.",
    description: "Our monthly potluck lunch. **Bring a dish to share**; drinks and plates are provided.",
    category: categories.get("fellowship"),
    locationName: "Fellowship hall",
    startsAt: pb(at(secondSunday, "12:30")),
    endsAt: pb(at(secondSunday, "14:00")),
    rrule: "FREQ=MONTHLY;BYDAY=2SU",
    registrationMode: "rsvp",
    image: await photo("harvest-supper"),
  });
  let month = today.toPlainYearMonth();
  let next: Temporal.PlainDate | null = null;
  for (let i = 0; i < 3 && !next; i++, month = month.add({ months: 1 })) {
    const candidate = nextWeekday(month.toPlainDate({ day: 1 }), 7).add({ weeks: 1 });
    if (Temporal.PlainDate.compare(candidate, today) > 0) next = candidate;
  }
  if (next) {
    await system.collection("event_exceptions").create({
      event: potluck.id,
      originalStart: pb(at(next, "12:30")),
      status: "cancelled",
      note: "Cancelled this month for the building work.",
    });
  }

  // A registration event with a small capacity, three weeks away, already nearly full.
  const retreatDay = nextWeekday(today.add({ weeks: 3 }), 6);
  const retreat = await system.collection("events").create({
    ...common,
    title: "Marriage Retreat Day",
    slug: "marriage-retreat",
    summary: "A day away for couples: talks, time together and a good lunch. 12 places.",
    description:
      "A relaxed day for married and engaged couples, with short talks, time to talk together and lunch.\n\nChildcare is available on request.",
    category: categories.get("retreats"),
    locationName: "Lakeside Retreat Center",
    locationAddress: "45 Shore Road, Springfield, IL 62711",
    startsAt: pb(at(retreatDay, "09:30")),
    endsAt: pb(at(retreatDay, "16:00")),
    registrationMode: "registration",
    capacity: 12,
    waitlistEnabled: true,
    image: await photo("baptism"),
    // The church's own questions on the form (their answers: the attendee list and its CSV).
    questions: [
      { id: "diet00", label: "Dietary needs for lunch", kind: "text", options: [], required: false },
      { id: "care00", label: "Do you need childcare?", kind: "yes_no", options: [], required: true },
    ],
  });
  const couples = [
    ["Ruth and Peter Ellis", "ruth.ellis@example.com"],
    ["Maria and Jose Alvarez", "maria.alvarez@example.com"],
    ["Grace Kim", "grace.kim@example.com"],
    ["Tom and Lucy Brennan", "tom.brennan@example.com"],
    ["Ade and Funmi Okafor", "ade.okafor@example.com"],
  ];
  for (const [name, email] of couples) {
    await system.collection("registrations").create({
      event: retreat.id,
      occurrenceStart: retreat.startsAt,
      name,
      email,
      attendees: 2,
      answers: [
        {
          questionId: "care00",
          question: "Do you need childcare?",
          value: name?.includes(" and ") ? "YES" : "NO",
        },
      ],
      confirmationCode: randomBytes(4).toString("hex").toUpperCase(),
      cancelToken: randomBytes(24).toString("base64url"),
    });
  }
}
