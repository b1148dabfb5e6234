import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";

/**
 * Demo groups (issue 15): six groups (two hidden), their leaders and members, two pending join
 * requests and a chat history. Mark Member (member@grace.example) is in no public group, so the e2e
 * journey can ask to join the Tuesday Bible Study, which Paul Pastor (pastor@grace.example) leads.
 */
interface SeedGroup {
  name: string;
  slug: string;
  type: "small_group" | "class" | "ministry" | "team";
  description: string;
  schedule: string;
  meetingDay: string;
  area: string;
  address?: string;
  locationDisplay: "hidden" | "approximate" | "exact";
  visibility: "public" | "members" | "hidden";
  joinPolicy: "open" | "request" | "closed";
  capacity?: number;
  rosterVisibility: "leaders" | "members";
  leaders: string[];
  members: string[];
  requests?: Array<[string, string]>;
  chat?: Array<[string, string]>;
}

const GROUPS: SeedGroup[] = [
  {
    name: "Tuesday Night Bible Study",
    slug: "tuesday-bible-study",
    type: "small_group",
    description:
      "We read through a book of the Bible together, a chapter a week, with **coffee and honest questions**.\n\nThis term: the Gospel of Mark. Bring a Bible if you have one; we have spares.",
    schedule: "Tuesdays at 7:00 PM",
    meetingDay: "tuesday",
    area: "Near the church (south Springfield)",
    address: "1202 Maple Avenue, Springfield",
    locationDisplay: "exact",
    visibility: "public",
    joinPolicy: "request",
    capacity: 12,
    rosterVisibility: "members",
    leaders: ["Paul Pastor"],
    members: ["Chidi Okafor", "Ngozi Okafor", "Luis García", "Denise Johnson"],
    requests: [["Grace Bennett", "We just moved here and would love to join a Bible study."]],
    chat: [
      [
        "Paul Pastor",
        "Welcome back everyone! This week we read **Mark 4**, the parables of the sower and the mustard seed.",
      ],
      ["Chidi Okafor", "Looking forward to it. I'll bring the coffee."],
      ["Luis García", "Running 10 minutes late tonight, start without me!"],
      ["Denise Johnson", "Notes from last week are here: https://example.org/mark-3-notes"],
      ["Paul Pastor", "Thanks Denise. See you all at *7 sharp*."],
    ],
  },
  {
    name: "Young Adults",
    slug: "young-adults",
    type: "small_group",
    description:
      "Twenties and thirties: dinner, a short talk and good conversation. New faces welcome every week.",
    schedule: "Thursdays at 6:30 PM",
    meetingDay: "thursday",
    area: "Downtown Springfield",
    locationDisplay: "approximate",
    visibility: "public",
    joinPolicy: "open",
    rosterVisibility: "members",
    leaders: ["Minh Nguyen"],
    members: ["Hannah Lee", "Daniel Kim"],
  },
  {
    name: "Newcomers Class",
    slug: "newcomers-class",
    type: "class",
    description:
      "Four Sundays that introduce Grace Community Church: what we believe, how we are organised and how to get involved.",
    schedule: "Sundays at 12:30 PM, after the 11:00 AM service",
    meetingDay: "sunday",
    area: "Fellowship hall",
    locationDisplay: "approximate",
    visibility: "public",
    joinPolicy: "open",
    capacity: 20,
    rosterVisibility: "leaders",
    leaders: ["Alice Admin"],
    members: ["Noah Bennett"],
  },
  {
    name: "Worship Team",
    slug: "worship-team",
    type: "team",
    description: "Singers and musicians who lead the Sunday services. Rehearsals on Thursday evenings.",
    schedule: "Thursdays at 7:30 PM (rehearsal)",
    meetingDay: "thursday",
    area: "Sanctuary",
    locationDisplay: "approximate",
    visibility: "members",
    joinPolicy: "request",
    rosterVisibility: "members",
    leaders: ["Erin Editor"],
    members: ["Tommy Nguyen", "Lan Nguyen"],
    requests: [["Hannah Lee", "I play the cello and would love to help on Sundays."]],
    chat: [["Erin Editor", "Set list for Sunday is up on the board. Please learn the new bridge!"]],
  },
  {
    name: "Prayer Ministry",
    slug: "prayer-ministry",
    type: "ministry",
    description: "The people who pray for the requests shared with the pastoral team. Confidential.",
    schedule: "First Monday of the month, 6:00 PM",
    meetingDay: "monday",
    area: "Church office",
    locationDisplay: "hidden",
    visibility: "hidden",
    joinPolicy: "closed",
    rosterVisibility: "members",
    leaders: ["Paul Pastor"],
    members: ["Helga Schmidt", "Ruth Abernathy"],
  },
  {
    name: "Elders and Deacons",
    slug: "elders-deacons",
    type: "ministry",
    description: "The church's elders and deacons.",
    schedule: "Second Tuesday of the month, 7:30 PM",
    meetingDay: "tuesday",
    area: "Church office",
    locationDisplay: "hidden",
    visibility: "hidden",
    joinPolicy: "closed",
    rosterVisibility: "leaders",
    leaders: ["Paul Pastor"],
    members: ["Tommy Nguyen", "Chidi Okafor", "Mark Member"],
  },
];

export async function seedGroups(system: PocketBase): Promise<void> {
  const people = await system
    .collection("people")
    .getFullList<{ id: string; firstName: string; lastName: string; preferredName: string }>({
      fields: "id,firstName,lastName,preferredName",
    });
  const personId = (name: string) => {
    const found = people.find(
      (p) =>
        `${p.preferredName || p.firstName} ${p.lastName}` === name || `${p.firstName} ${p.lastName}` === name,
    );
    if (!found) throw new Error(`seed-groups: no person named ${name}`);
    return found.id;
  };
  const now = Date.now();
  for (const seed of GROUPS) {
    const { leaders, members, requests, chat, address, ...fields } = seed;
    const group = await system
      .collection("groups")
      .create({ ...fields, capacity: fields.capacity ?? 0, chatEnabled: true, status: "active" });
    if (address) await system.collection("group_addresses").create({ group: group.id, address });
    for (const name of leaders)
      await system
        .collection("group_members")
        .create({ group: group.id, person: personId(name), role: "leader", status: "active" });
    for (const name of members)
      await system
        .collection("group_members")
        .create({ group: group.id, person: personId(name), role: "member", status: "active" });
    for (const [name, message] of requests ?? [])
      await system
        .collection("group_join_requests")
        .create({ group: group.id, person: personId(name), message, status: "pending" });
    for (const [name, body] of chat ?? []) {
      await system
        .collection("group_messages")
        .create({ group: group.id, author: personId(name), authorName: name, body, clientKey: randomUUID() });
    }
  }
  // The study's next picnic is its own event (events' ownerGroup).
  const study = await system
    .collection("groups")
    .getFirstListItem(system.filter("slug = {:s}", { s: "tuesday-bible-study" }));
  const start = new Date(now + 10 * 86_400_000);
  start.setUTCHours(17, 0, 0, 0);
  await system.collection("events").create({
    title: "Bible Study Picnic",
    slug: "bible-study-picnic",
    summary: "The Tuesday study's end-of-term picnic in Washington Park.",
    description: "Bring a dish to share. Families welcome.",
    timezone: "America/Chicago",
    visibility: "public",
    status: "published",
    startsAt: start.toISOString().replace("T", " "),
    endsAt: new Date(start.getTime() + 3 * 3_600_000).toISOString().replace("T", " "),
    registrationMode: "none",
    ownerGroup: study.id,
    locationName: "Washington Park",
  });
  // A prayer request asked of the study (its members only, never on the wall).
  const asked = new Date(now - 26 * 3_600_000);
  const request = await system.collection("prayer_requests").create({
    body: "Please pray for my brother, who starts chemotherapy next week. Thank you all for being such good friends.",
    visibility: "members",
    anonymous: false,
    authorName: "Chidi Okafor",
    status: "approved",
    prayedCount: 0,
    flagCount: 0,
    approvedAt: asked.toISOString().replace("T", " "),
    expiresAt: new Date(now + 60 * 86_400_000).toISOString().replace("T", " "),
    group: study.id,
  });
  await system
    .collection("prayer_request_private")
    .create({ request: request.id, person: personId("Chidi Okafor"), submitterName: "Chidi Okafor" });
}
