import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { Temporal } from "temporal-polyfill";

/**
 * Demo check-in (issue 28): four rooms (nursery, preschool, K–2, grades 3–5) with ages, capacity and a
 * ratio; the next Sunday's 9:00 and 11:00 sessions; and a session open for four hours from the moment
 * the demo is seeded, so /checkin works whenever the app is first started, with three children already
 * in their rooms and a volunteer in each. The Member family (Mark, member@grace.example; phone ending
 * 0101) has Mia's peanut allergy on file, a trusted grandmother and an uncle not authorised to pick up.
 * Paul Pastor (pastor@grace.example) and Alice Admin operate check-in. Two stations wait for a device
 * (a self check-in tablet in the lobby, a staffed welcome desk): staff get their codes at /admin/checkin.
 * The last eight Sundays' headcounts are there too, as a church that moved its attendance history in
 * would have them (the rooms' numbers; no child's check-in), so the reports show a trend.
 */
const ZONE = "America/Chicago";

const ROOMS = [
  { name: "Nursery", minAgeMonths: 0, maxAgeMonths: 23, capacity: 8, ratio: 3 },
  { name: "Preschool", minAgeMonths: 24, maxAgeMonths: 59, capacity: 12, ratio: 5 },
  { name: "K–2", minAgeMonths: 60, maxAgeMonths: 95, capacity: 16, ratio: 8 },
  { name: "Grades 3–5", minAgeMonths: 96, maxAgeMonths: 131, capacity: 20, ratio: 10 },
];

const pbDate = (instant: Temporal.Instant) => instant.toString().replace("T", " ");

export async function seedCheckin(system: PocketBase): Promise<void> {
  const rooms: RecordModel[] = [];
  for (const [i, room] of ROOMS.entries())
    rooms.push(
      await system
        .collection("checkin_rooms")
        .create({ ...room, active: true, requiresClearance: true, sort: (i + 1) * 10 }),
    );
  const roomIds = rooms.map((room) => room.id);
  const byName = (name: string) => rooms.find((room) => room.name === name)!.id;

  const today = Temporal.Now.plainDateISO(ZONE);
  const sunday = today.add({ days: (7 - today.dayOfWeek) % 7 || 7 });
  for (const time of ["09:00", "11:00"])
    await system.collection("checkin_sessions").create({
      name: `Sunday ${time.replace(/^0/, "")}`,
      startsAt: pbDate(Temporal.PlainDateTime.from(`${sunday}T${time}`).toZonedDateTime(ZONE).toInstant()),
      opensMinutes: 30,
      closesMinutes: 15,
      rooms: roomIds,
    });
  // Eight Sundays of history: each room's headcount and first-timers, growing a little towards Christmas.
  const BASE = [4, 8, 11, 9];
  for (let week = 8; week >= 1; week--) {
    const day = sunday.subtract({ weeks: week });
    for (const [index, time] of ["09:00", "11:00"].entries()) {
      const past = await system.collection("checkin_sessions").create({
        name: `Sunday ${time.replace(/^0/, "")}`,
        startsAt: pbDate(Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(ZONE).toInstant()),
        opensMinutes: 30,
        closesMinutes: 15,
        rooms: roomIds,
      });
      const counts = await system.collection("checkin_counts").getFullList<{ id: string; room: string }>({
        filter: system.filter("session = {:id}", { id: past.id }),
      });
      for (const row of counts) {
        const r = roomIds.indexOf(row.room);
        const children = BASE[r]! + ((week * 5 + r * 3 + index * 7) % 5) + Math.floor((8 - week) / 2) - index;
        await system.collection("checkin_counts").update(row.id, {
          childrenTotal: children,
          firstTime: (week + r + index) % 3 === 0 ? 1 : 0,
        });
      }
    }
  }
  for (const station of [
    { name: "Lobby tablet", mode: "self", labelSize: "62mm", rooms: [] },
    { name: "Welcome desk", mode: "staffed", labelSize: "225in", rooms: [] },
  ])
    await system.collection("checkin_stations").create(station);

  const demo = await system.collection("checkin_sessions").create({
    name: "Demo session",
    startsAt: pbDate(Temporal.Now.instant()),
    opensMinutes: 30,
    closesMinutes: 240,
    rooms: roomIds,
  });

  const people = await system
    .collection("people")
    .getFullList<{ id: string; firstName: string; lastName: string; household: string }>({
      fields: "id,firstName,lastName,household",
    });
  const person = (first: string, last?: string) => {
    const found = people.find((p) => p.firstName === first && (!last || p.lastName === last));
    if (!found) throw new Error(`seed-checkin: no person named ${first}`);
    return found;
  };

  const mia = person("Mia", "Member");
  await system.collection("person_care").create({ person: mia.id, allergies: "Peanuts", medicalNotes: "" });
  await system.collection("person_care").create({
    person: person("Valentina").id,
    allergies: "",
    medicalNotes: "Mild asthma: inhaler in her bag",
  });
  await system.collection("pickup_authorizations").create({
    household: mia.household,
    name: "Rosa Member",
    relationship: "grandmother",
    status: "trusted",
  });
  await system.collection("pickup_authorizations").create({
    household: mia.household,
    name: "Victor Member",
    relationship: "uncle",
    status: "not_authorized",
    notes: "Court order: never release the children to him.",
  });

  // Volunteers with a current background check serve in every room of the demo session.
  const volunteers: Array<[string, string]> = [
    ["Denise", "Nursery"],
    ["Grace", "Preschool"],
    ["Lan", "K–2"],
    ["Marcus", "Grades 3–5"],
  ];
  for (const [first, room] of volunteers) {
    const id = person(first).id;
    const cleared = await system
      .collection("serving_clearances")
      .getList(1, 1, { filter: system.filter("person = {:id} && kind = 'background_check'", { id }) });
    if (!cleared.totalItems)
      await system.collection("serving_clearances").create({
        person: id,
        kind: "background_check",
        passedOn: `${today.subtract({ months: 6 })} 00:00:00.000Z`,
      });
    await system
      .collection("checkins")
      .create({ session: demo.id, person: id, room: byName(room), kind: "volunteer" });
  }
  // Three children already in their rooms (the hook gives the Garcías one code).
  for (const [first, room] of [
    ["Valentina", "Preschool"],
    ["Mateo", "K–2"],
    ["Obinna", "Grades 3–5"],
  ] as const)
    await system
      .collection("checkins")
      .create({ session: demo.id, person: person(first).id, room: byName(room), kind: "child" });
}
