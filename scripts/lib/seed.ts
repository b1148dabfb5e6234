import type PocketBase from "pocketbase";
import { createAccount, findUser, roleIds } from "./accounts.ts";
import { seedContent } from "./seed-content.ts";
import { seedPeople } from "./seed-people.ts";
import { seedPrayer } from "./seed-prayer.ts";

export { ensureAdministrator } from "./accounts.ts";

export const DEMO_PASSWORD = "grace-demo-2026";
export const DEMO_ACCOUNTS = [
  {
    email: "admin@grace.example",
    firstName: "Alice",
    lastName: "Admin",
    role: "Administrator",
    what: "settings, users and roles",
  },
  {
    email: "pastor@grace.example",
    firstName: "Paul",
    lastName: "Pastor",
    role: "Pastor",
    what: "pastoral staff",
  },
  { email: "editor@grace.example", firstName: "Erin", lastName: "Editor", role: "Editor", what: "content" },
  {
    email: "member@grace.example",
    firstName: "Mark",
    lastName: "Member",
    role: null,
    what: "an active member",
  },
  {
    email: "treasurer@grace.example",
    firstName: "Tess",
    lastName: "Treasurer",
    role: "Treasurer",
    what: "giving: funds, batches, gifts, reports",
  },
] as const;

/**
 * The demo church "Grace Community Church": settings and one account per persona. Runs once: a
 * second start finds the demo administrator and changes nothing.
 */
export async function seedDemo(
  system: PocketBase,
  /** Told as each part begins: the first seed takes about a minute, and `npm start` says what it is doing. */
  onStep: (step: string, index: number, total: number) => void = () => {},
): Promise<"seeded" | "already-seeded"> {
  if (await findUser(system, DEMO_ACCOUNTS[0].email)) return "already-seeded";
  const steps = [
    "settings and accounts",
    "pages and news",
    "people and households",
    "prayer wall",
    "sermons (encoding their audio)",
    "events",
    "groups",
    "serving teams and plans",
    "child check-in",
    "giving",
  ];
  let done = 0;
  const step = () => onStep(steps[done]!, ++done, steps.length);
  step();
  const settings = (await system.collection("settings").getFullList())[0]!;
  await system.collection("settings").update(settings.id, {
    churchName: "Grace Community Church",
    tagline: "A family of faith in the heart of Springfield",
    brandColor: "#2f5d8a",
    timezone: "America/Chicago",
    locale: "en",
    address: "1200 Maple Avenue\nSpringfield, IL 62704",
    phone: "+1 217 555 0142",
    email: "office@grace.example",
    serviceTimes: [
      { day: "sunday", time: "09:00", label: "Traditional worship" },
      { day: "sunday", time: "11:00", label: "Contemporary worship" },
      { day: "wednesday", time: "18:30", label: "Midweek prayer" },
    ],
    socialLinks: {
      facebook: "https://facebook.com/gracecommunity",
      youtube: "https://youtube.com/@gracecommunity",
    },
    allowSignup: true,
  });
  const roles = await roleIds(system);
  for (const account of DEMO_ACCOUNTS) await createAccount(system, account, DEMO_PASSWORD, roles);
  const editor = await findUser(system, "editor@grace.example");
  step();
  await seedContent(system, editor!.id, "Erin Editor");
  step();
  await seedPeople(system, DEMO_PASSWORD);
  step();
  await seedPrayer(system, 60);
  step();
  // Loaded only for the demo: it encodes MP3s (a devDependency) and crops images with sharp.
  const { seedSermons } = await import("./seed-sermons.ts");
  await seedSermons(system);
  step();
  const { seedEvents } = await import("./seed-events.ts");
  await seedEvents(system);
  step();
  const { seedGroups } = await import("./seed-groups.ts");
  await seedGroups(system);
  step();
  const { seedServing } = await import("./seed-serving.ts");
  await seedServing(system);
  step();
  const { seedCheckin } = await import("./seed-checkin.ts");
  await seedCheckin(system);
  step();
  const { seedGiving } = await import("./seed-giving.ts");
  await seedGiving(system);
  return "seeded";
}
