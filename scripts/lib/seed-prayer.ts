import type PocketBase from "pocketbase";
import { toPocketBaseDate } from "../../gateway/src/pocketbase/dates.ts";

interface SeedRequest {
  body: string;
  visibility: "public" | "members" | "pastoral";
  /** A demo login (who asked), or a visitor's name and email. */
  login?: string;
  visitor?: { name: string; email: string };
  anonymous?: boolean;
  status: "pending" | "approved" | "answered";
  hoursAgo: number;
  prayedBy?: number;
  answerNote?: string;
}

// A lived-in wall: requests from members and visitors, one anonymous, one answered with a praise
// report, one members-only, and two waiting for moderation (one of them pastoral).
const REQUESTS: SeedRequest[] = [
  {
    body: "Please pray for my mother, Ruth, who has surgery on Thursday morning. We are trusting God for a good recovery.",
    visibility: "public",
    login: "member@grace.example",
    status: "approved",
    hoursAgo: 5,
    prayedBy: 7,
  },
  {
    body: "Pray for safe travels as our family drives across the country to see my father this weekend.",
    visibility: "public",
    visitor: { name: "Grace Lee", email: "grace.lee@example.com" },
    status: "approved",
    hoursAgo: 20,
    prayedBy: 3,
  },
  {
    body: "I lost my job last week and I'm anxious about paying rent. Please pray for provision and peace.",
    visibility: "public",
    login: "editor@grace.example",
    anonymous: true,
    status: "approved",
    hoursAgo: 30,
    prayedBy: 12,
  },
  {
    body: "Our small group is starting again this month. Pray that new people feel welcome and find real friendship.",
    visibility: "members",
    login: "pastor@grace.example",
    status: "answered",
    hoursAgo: 240,
    prayedBy: 9,
    answerNote: "Six new people came to the first evening. Thank you for praying!",
  },
  {
    body: "Please pray for the youth camp volunteers as they prepare for next summer.",
    visibility: "members",
    login: "admin@grace.example",
    status: "approved",
    hoursAgo: 50,
    prayedBy: 4,
  },
  {
    body: "Please pray for my marriage. We are going through a hard season and need wisdom.",
    visibility: "public",
    visitor: { name: "", email: "hopeful@example.com" },
    anonymous: true,
    status: "pending",
    hoursAgo: 2,
  },
  {
    body: "Something I only want the pastors to know about. Please call me this week if you can.",
    visibility: "pastoral",
    login: "member@grace.example",
    status: "pending",
    hoursAgo: 1,
  },
];

/** The demo prayer wall (system job, part of the one-time demo seed). */
export async function seedPrayer(system: PocketBase, expiryDays: number): Promise<void> {
  const users = new Map<string, { id: string; name: string; person: string }>();
  for (const user of await system
    .collection("users")
    .getFullList<{ id: string; email: string; name: string; person: string }>()) {
    users.set(user.email, user);
  }
  for (const seed of REQUESTS) {
    const user = seed.login ? users.get(seed.login) : undefined;
    const created = new Date(Date.now() - seed.hoursAgo * 3600_000);
    const approved = seed.status !== "pending";
    const request = await system.collection("prayer_requests").create({
      body: seed.body,
      visibility: seed.visibility,
      anonymous: seed.anonymous ?? false,
      authorName: seed.anonymous ? "" : (user?.name ?? seed.visitor?.name ?? ""),
      status: seed.status,
      prayedCount: 0,
      flagCount: 0,
      answerNote: seed.answerNote ?? "",
      approvedAt: approved ? toPocketBaseDate(created) : "",
      answeredAt:
        seed.status === "answered" ? toPocketBaseDate(new Date(created.getTime() + 48 * 3600_000)) : "",
      expiresAt: approved ? toPocketBaseDate(new Date(created.getTime() + expiryDays * 24 * 3600_000)) : "",
    });
    await system.collection("prayer_request_private").create({
      request: request.id,
      user: user?.id ?? "",
      person: user?.person ?? "",
      submitterName: user?.name ?? seed.visitor?.name ?? "",
      submitterEmail: seed.visitor?.email ?? "",
    });
    // Past days' "I prayed" marks from visitors' devices (the hook keeps prayedCount).
    for (let n = 0; n < (seed.prayedBy ?? 0); n++) {
      const day = new Date(created.getTime() - n * 24 * 3600_000).toISOString().slice(0, 10);
      await system
        .collection("prayer_marks")
        .create({ request: request.id, deviceKey: `seed${String(n).padStart(60, "0")}`, day });
    }
  }
}
