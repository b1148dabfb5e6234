import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";

/**
 * Demo serving (issue 27): three teams with positions, leaders and members; a quarter of Sunday plans
 * (two services each) with the places they need; requests already answered or waiting; a few blockouts
 * and a clearance. Mark Member (member@grace.example) greets on the Welcome team, which Paul Pastor
 * (pastor@grace.example) leads, and has a request waiting for his answer on the next Sunday; Erin
 * Editor (editor@grace.example) greets on it too. Welcome offers a declined place on and takes signups.
 */
const ZONE = "America/Chicago";

interface SeedTeam {
  name: string;
  description: string;
  positions: Array<{ name: string; requiresBackgroundCheck?: boolean; count: number }>;
  leaders: string[];
  /** First name → the positions (by name) they can fill. */
  members: Record<string, string[]>;
}

const TEAMS: SeedTeam[] = [
  {
    name: "Worship",
    description: "Music for both Sunday services: vocals, keys and the sound desk. Rehearsal at 7:45.",
    positions: [
      { name: "Vocals", count: 2 },
      { name: "Keys", count: 1 },
      { name: "Sound", count: 1 },
    ],
    leaders: ["Chidi"],
    members: {
      Chidi: ["Vocals"],
      Ngozi: ["Vocals"],
      Sofía: ["Vocals", "Keys"],
      Thanh: ["Keys"],
      Luis: ["Sound"],
      Noah: ["Sound", "Vocals"],
    },
  },
  {
    name: "Welcome",
    description: "The first faces people see: greeting at the doors and coffee in the foyer.",
    positions: [
      { name: "Greeter", count: 2 },
      { name: "Coffee", count: 1 },
    ],
    leaders: ["Paul"],
    members: {
      Mark: ["Greeter"],
      Denise: ["Greeter", "Coffee"],
      Grace: ["Greeter"],
      Marcus: ["Coffee"],
      Lan: ["Coffee", "Greeter"],
      // Erin Editor (editor@grace.example) greets too: the demo's second login on the team (swaps).
      Erin: ["Greeter"],
    },
  },
  {
    name: "Kids",
    description: "Sunday school rooms for ages 3–11. Room leaders have a current background check.",
    positions: [
      { name: "Room leader", requiresBackgroundCheck: true, count: 1 },
      { name: "Helper", count: 2 },
    ],
    leaders: ["Priya"],
    members: {
      Priya: ["Room leader", "Helper"],
      Hannah: ["Room leader", "Helper"],
      Funmi: ["Helper"],
      Anna: ["Helper"],
      Kemi: ["Helper"],
    },
  },
];

/** "2026-11-29" at "09:00" in the church's zone, as an instant (ISO, UTC). */
const at = (day: string, time: string) =>
  Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(ZONE).toInstant().toString();

/** The next 13 Sundays (the coming one first), as "YYYY-MM-DD" in the church's zone. */
function sundays(now = Temporal.Now.plainDateISO(ZONE)): string[] {
  const first = now.add({ days: (7 - now.dayOfWeek) % 7 || 7 });
  return Array.from({ length: 13 }, (_, i) => first.add({ weeks: i }).toString());
}

export async function seedServing(system: PocketBase): Promise<void> {
  const people = await system
    .collection("people")
    .getFullList<{ id: string; firstName: string; ageGroup: string }>({ fields: "id,firstName,ageGroup" });
  const personId = (first: string) => {
    const found = people.find((p) => p.firstName === first && p.ageGroup !== "child");
    if (!found) throw new Error(`seed-serving: no adult named ${first}`);
    return found.id;
  };

  const positions = new Map<string, { id: string; count: number; members: string[] }>();
  for (const seed of TEAMS) {
    const team = await system.collection("serving_teams").create({
      name: seed.name,
      description: seed.description,
      reminderDays: 2,
      showNames: true,
      autoOffer: seed.name !== "Kids",
      // Welcome's members may put themselves into open places (a signup sheet).
      allowSignup: seed.name === "Welcome",
      status: "active",
    });
    const ids = new Map<string, string>();
    for (const [sort, position] of seed.positions.entries()) {
      const record = await system.collection("serving_positions").create({
        team: team.id,
        name: position.name,
        requiresBackgroundCheck: position.requiresBackgroundCheck ?? false,
        sort,
      });
      ids.set(position.name, record.id);
      positions.set(`${seed.name}/${position.name}`, { id: record.id, count: position.count, members: [] });
    }
    for (const [first, names] of Object.entries(seed.members)) {
      await system.collection("serving_members").create({
        team: team.id,
        person: personId(first),
        role: seed.leaders.includes(first) ? "leader" : "member",
        positions: names.map((name) => ids.get(name)!),
        status: "active",
      });
      for (const name of names) positions.get(`${seed.name}/${name}`)!.members.push(personId(first));
    }
    for (const first of seed.leaders.filter((leader) => !(leader in seed.members)))
      await system
        .collection("serving_members")
        .create({ team: team.id, person: personId(first), role: "leader", positions: [], status: "active" });
  }

  // Room leaders' background checks (one expires in a month, for the conflicts a leader sees).
  const inMonths = (months: number) =>
    `${Temporal.Now.plainDateISO(ZONE).add({ months }).toString()} 00:00:00.000Z`;
  await system.collection("serving_clearances").create({
    person: personId("Hannah"),
    kind: "background_check",
    passedOn: inMonths(-11),
    expiresOn: inMonths(13),
  });
  await system.collection("serving_clearances").create({
    person: personId("Priya"),
    kind: "background_check",
    passedOn: inMonths(-23),
    expiresOn: inMonths(1),
  });

  // A quarter of Sunday plans: the first four published and asked, the rest drafts to fill; each serves
  // that Sunday's worship (its 9:00 occurrence).
  const days = sundays();
  const worship = await system
    .collection("events")
    .getFirstListItem<{ id: string }>('slug = "sunday-worship"', { fields: "id" })
    .catch(() => null);
  for (const [week, day] of days.entries()) {
    const plan = await system.collection("serving_plans").create({
      title: "Sunday services",
      date: `${day} 00:00:00.000Z`,
      times: [
        { kind: "rehearsal", label: "Rehearsal", startsAt: at(day, "07:45"), endsAt: at(day, "08:40") },
        {
          kind: "service",
          label: "Traditional worship",
          startsAt: at(day, "09:00"),
          endsAt: at(day, "10:15"),
        },
        {
          kind: "service",
          label: "Contemporary worship",
          startsAt: at(day, "11:00"),
          endsAt: at(day, "12:15"),
        },
      ],
      notes:
        week === 0
          ? "## Order of service\n\n1. Welcome and announcements\n2. Songs: *Great Is Thy Faithfulness*, *Cornerstone*\n3. Scripture: John 4:1–42\n4. Sermon: Living Water\n5. Communion\n6. Sending song"
          : "",
      status: week < 4 ? "published" : "draft",
      ...(worship ? { event: worship.id, occurrenceStart: at(day, "09:00") } : {}),
    });
    const onPlan = new Set<string>();
    for (const [key, position] of positions) {
      const need = await system
        .collection("serving_needs")
        .create({ plan: plan.id, position: position.id, count: position.count });
      if (week >= 4) continue;
      // Asked in turn, so everyone serves about as often, and nobody twice on one plan; the first two
      // weeks answered.
      const candidates = position.members.filter((person) => !onPlan.has(person));
      for (let place = 0; place < Math.min(position.count, candidates.length); place++) {
        const person = candidates[(week * position.count + place) % candidates.length]!;
        if (onPlan.has(person)) continue;
        onPlan.add(person);
        // Mark (the first greeter) is asked for the coming Sunday and has not answered yet.
        const mark = key === "Welcome/Greeter" && person === personId("Mark");
        const status = mark && week === 0 ? "pending" : week < 2 ? "accepted" : "pending";
        await system
          .collection("serving_requests")
          .create({ need: need.id, person, status, source: "manual" });
      }
    }
  }
  // Blockouts: a family holiday, and one every first Sunday.
  await system.collection("serving_blockouts").create({
    person: personId("Denise"),
    startsOn: `${days[5]} 00:00:00.000Z`,
    endsOn: `${Temporal.PlainDate.from(days[6]!).add({ days: 1 }).toString()} 00:00:00.000Z`,
    repeat: "none",
    reason: "Family holiday",
  });
  await system.collection("serving_blockouts").create({
    person: personId("Noah"),
    startsOn: `${days.find((day) => Temporal.PlainDate.from(day).day <= 7)} 00:00:00.000Z`,
    endsOn: `${days.find((day) => Temporal.PlainDate.from(day).day <= 7)} 00:00:00.000Z`,
    repeat: "monthly",
    reason: "Visits my parents",
  });
  await system.collection("serving_preferences").create({
    person: personId("Sofía"),
    maxPerMonth: 2,
    preferredTimes: ["11:00"],
    household: "together",
  });
}
