import type PocketBase from "pocketbase";
import { toPocketBaseDate } from "../../gateway/src/pocketbase/dates.ts";

/**
 * A large church for the bench's scale and Sunday scenarios (QUALITY F4, P3): households with their
 * people, contact rows with mixed visibility, member logins, published posts and prayer requests, on
 * top of the demo church. A system job, written through PocketBase's REST API (so the model hooks
 * derive ageGroup and inDirectory as on every other write path), a few requests at a time.
 */
export interface ScaleShape {
  households: number;
  people: number;
  /** Adults of those households who get a login (member role: none, active person). */
  members: number;
  posts: number;
  prayerRequests: number;
}

export const SCALE_SHAPES = {
  /** The issue's "large church": 2,000 people / 700 households, 500 posts, 300 prayer requests. */
  scale: { households: 700, people: 2000, members: 20, posts: 500, prayerRequests: 300 },
  /** Sunday morning: 200 signed-in members in a mid-sized church. */
  sunday: { households: 150, people: 420, members: 200, posts: 60, prayerRequests: 80 },
} satisfies Record<string, ScaleShape>;

export interface ScaleSeedResult {
  /** Emails of the member logins (password: the demo password). */
  memberEmails: string[];
  memberIds: string[];
  /** Slugs of published public posts (for post-page reads). */
  postSlugs: string[];
  seconds: number;
}

const FIRST = [
  "James",
  "Mary",
  "John",
  "Patricia",
  "Robert",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Carlos",
  "Lucía",
  "Wei",
  "Aisha",
  "Kwame",
  "Yuki",
  "Olga",
  "Rahul",
  "Fatima",
  "Noah",
  "Emma",
  "Liam",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Miller",
  "Davis",
  "Martínez",
  "Hernández",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Chen",
  "Kim",
  "Patel",
  "Okafor",
  "Novak",
];
const VIS = ["members", "members", "members", "private"] as const;

/** Runs `work` over `items` with at most `parallel` in flight. */
export async function pool<T, R>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}

export async function seedScale(
  system: PocketBase,
  shape: ScaleShape,
  password: string,
  parallel = 6,
): Promise<ScaleSeedResult> {
  const started = Date.now();
  const tag = Math.random().toString(36).slice(2, 7);

  // Households and their people: sizes spread so that the totals come out as asked.
  const sizes = Array.from(
    { length: shape.households },
    (_, i) =>
      Math.floor(((i + 1) * shape.people) / shape.households) -
      Math.floor((i * shape.people) / shape.households),
  );
  const adults: { personId: string; name: string }[] = [];
  await pool(sizes, parallel, async (size, h) => {
    const last = `${LAST[h % LAST.length]}${h >= LAST.length ? ` ${Math.floor(h / LAST.length)}` : ""}`;
    const household = await system
      .collection("households")
      .create({ name: `The ${last} household`, directoryOptOut: h % 25 === 24 });
    if (h % 10 < 7) {
      await system.collection("addresses").create({
        household: household.id,
        street1: `${100 + h} Maple Street`,
        city: "Springfield",
        region: "IL",
        postalCode: "62704",
        country: "US",
        visibility: VIS[h % VIS.length],
      });
    }
    for (let p = 0; p < size; p++) {
      const child = p >= 2;
      const first = FIRST[(h * 7 + p * 3) % FIRST.length]!;
      const person = await system.collection("people").create({
        firstName: first,
        lastName: last,
        household: household.id,
        householdRole: p === 0 ? "head" : p === 1 ? "spouse" : "child",
        membershipStatus: (h + p) % 9 === 0 ? "regular_attender" : "member",
        recordStatus: "active",
      });
      if (child) continue;
      adults.push({ personId: person.id, name: `${first} ${last}` });
      const slug = `${first}.${last}.${h}.${p}`
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^a-z0-9.]/g, "");
      if ((h + p) % 5 !== 4)
        await system.collection("person_emails").create({
          person: person.id,
          email: `${slug}@example.com`,
          isPrimary: true,
          visibility: VIS[(h + p) % VIS.length],
        });
      if ((h + p) % 3 !== 2)
        await system.collection("person_phones").create({
          person: person.id,
          number: `+1217555${String((h * 5 + p) % 10_000).padStart(4, "0")}`,
          kind: "mobile",
          isPrimary: true,
          visibility: VIS[(h + p + 1) % VIS.length],
        });
    }
  });

  // Member logins for the first adults (spread over the households).
  const step = Math.max(1, Math.floor(adults.length / Math.max(1, shape.members)));
  const logins = adults.filter((_, i) => i % step === 0).slice(0, shape.members);
  const members = await pool(logins, parallel, async (adult, i) => {
    const email = `member${i}.${tag}@scale.example`;
    const user = await system.collection("users").create({
      email,
      password,
      passwordConfirm: password,
      name: adult.name,
      verified: true,
      person: adult.personId,
      roles: [],
      status: "active",
    });
    return { email, id: user.id };
  });
  const memberEmails = members.map((m) => m.email);
  const memberIds = members.map((m) => m.id);

  // Published posts: four in five public, the rest for members; a few drafts for the editors.
  const author = (
    await system.collection("users").getList(1, 1, { filter: 'email = "editor@grace.example"' })
  ).items[0];
  const postSlugs: string[] = [];
  await pool(
    Array.from({ length: shape.posts }, (_, i) => i),
    parallel,
    async (i) => {
      const slug = `scale-${tag}-${i}`;
      const status = i % 50 === 49 ? "draft" : "published";
      const audience = i % 5 === 4 ? "members" : "public";
      await system.collection("posts").create({
        title: `Parish notice ${i}: ${FIRST[i % FIRST.length]}'s update`,
        slug,
        summary: "News from the life of the church this week.",
        body: `## Notice ${i}\n\nThis week we gathered, prayed and shared a meal. **Everyone** is welcome.\n\n- Sunday service\n- Midweek prayer\n`,
        status,
        publishedAt:
          status === "published" ? toPocketBaseDate(new Date(Date.now() - (i + 10) * 3_600_000)) : "",
        pinned: false,
        audience,
        author: author?.id ?? "",
        authorName: "Erin Editor",
        revision: 1,
        updatedBy: author?.id ?? "",
      });
      if (status === "published" && audience === "public") postSlugs.push(slug);
    },
  );

  // Prayer requests on the wall, with who asked kept in the private row.
  await pool(
    Array.from({ length: shape.prayerRequests }, (_, i) => i),
    parallel,
    async (i) => {
      const created = new Date(Date.now() - (i + 1) * 1_800_000);
      const request = await system.collection("prayer_requests").create({
        body: `Please pray for our family this week (request ${i}); we are grateful for this church.`,
        visibility: i % 4 === 3 ? "members" : "public",
        anonymous: i % 6 === 5,
        authorName: i % 6 === 5 ? "" : adults[i % adults.length]!.name,
        status: "approved",
        prayedCount: 0,
        flagCount: 0,
        approvedAt: toPocketBaseDate(created),
        expiresAt: toPocketBaseDate(new Date(created.getTime() + 60 * 24 * 3_600_000)),
      });
      await system.collection("prayer_request_private").create({
        request: request.id,
        person: adults[i % adults.length]!.personId,
        submitterName: adults[i % adults.length]!.name,
      });
    },
  );

  return { memberEmails, memberIds, postSlugs, seconds: (Date.now() - started) / 1000 };
}
