import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";

/**
 * Demo giving (issue 29): five funds (General, Building and Missions are tax-deductible and offered on
 * /give; Benevolence is hidden, for gifts staff enter; Coffee & Books is not deductible) and a year of
 * gifts from the demo households, as a treasurer would have kept them: each Sunday's cash, cheques and
 * cards counted in a batch with the plate's loose cash (anonymous), the month's online gifts and bank
 * transfers in a batch of their own, every batch balanced and closed. Last Sunday's batch is still open:
 * counted (control total and count) with only part of its gifts keyed in, for the treasurer
 * (treasurer@grace.example) to finish. The Member family (Mark, member@grace.example) gives every week,
 * so /me/giving has a history; Daniel Kim started giving six weeks ago (a first-time donor) and the
 * Schmidts stopped in the summer (lapsed). A few gifts are split across funds.
 *
 * Deterministic: amounts and skipped weeks come from a seeded generator, so every demo install has the
 * same figures for the same day (e2e and screenshots may rely on them).
 */
const ZONE = "America/Chicago";

type Method = "cash" | "cheque" | "card" | "bank_transfer" | "online";

const FUNDS = [
  {
    name: "General Fund",
    description:
      "The church's ministry and running costs: staff, the building's upkeep, worship, children and youth.",
    deductible: true,
    visibility: "public",
  },
  {
    name: "Building Fund",
    description: "The new roof and the accessible entrance on Maple Avenue.",
    deductible: true,
    visibility: "public",
  },
  {
    name: "Missions",
    description:
      "Our partners in Springfield and abroad: the food pantry, the refugee welcome team, and the school in Kisumu.",
    deductible: true,
    visibility: "public",
  },
  {
    name: "Benevolence",
    description: "Help for families in need, given in confidence by the pastors and deacons.",
    deductible: true,
    visibility: "hidden",
  },
  {
    name: "Coffee & Books",
    description: "The foyer café and the bookstall (not tax-deductible: you receive something in return).",
    deductible: false,
    visibility: "public",
  },
] as const;
type FundName = (typeof FUNDS)[number]["name"];

interface Giver {
  /** An adult of the demo (people seeded by seed-people.ts). */
  first: string;
  last: string;
  /** Every Sunday, every other Sunday, or once a month (the first Sunday, or `dayOfMonth` for gifts from home). */
  rhythm: "weekly" | "fortnightly" | "monthly";
  dayOfMonth?: number;
  method: Method;
  /** The usual gift in dollars; it varies a little (cash and cheques are whole dollars). */
  dollars: number;
  /** The funds and each one's share of the gift (the first takes what rounding leaves). */
  funds: Array<[FundName, number]>;
  /** The chance of missing a week (holidays, illness). */
  skips?: number;
  /** Gives only for the last so many weeks (a first-time donor), or stopped so many weeks ago (lapsed). */
  sinceWeeksAgo?: number;
  untilWeeksAgo?: number;
  /** Gives as themself, not as the household. */
  individual?: boolean;
}

const GIVERS: Giver[] = [
  {
    first: "Mark",
    last: "Member",
    rhythm: "weekly",
    method: "cheque",
    dollars: 60,
    funds: [["General Fund", 1]],
    skips: 0.06,
  },
  {
    first: "Maria",
    last: "Member",
    rhythm: "monthly",
    dayOfMonth: 5,
    method: "online",
    dollars: 25,
    funds: [["Coffee & Books", 1]],
  },
  {
    first: "Paul",
    last: "Pastor",
    rhythm: "monthly",
    dayOfMonth: 1,
    method: "bank_transfer",
    dollars: 400,
    funds: [
      ["General Fund", 0.875],
      ["Missions", 0.125],
    ],
  },
  {
    first: "Chidi",
    last: "Okafor",
    rhythm: "weekly",
    method: "cash",
    dollars: 40,
    funds: [["General Fund", 1]],
    skips: 0.1,
  },
  {
    first: "Luis",
    last: "García",
    rhythm: "fortnightly",
    method: "cheque",
    dollars: 120,
    funds: [["General Fund", 1]],
  },
  {
    first: "Thanh",
    last: "Nguyen",
    rhythm: "monthly",
    dayOfMonth: 1,
    method: "online",
    dollars: 150,
    funds: [["General Fund", 1]],
  },
  {
    first: "Denise",
    last: "Johnson",
    rhythm: "weekly",
    method: "cash",
    dollars: 20,
    funds: [["General Fund", 1]],
    skips: 0.15,
  },
  {
    first: "Betty",
    last: "Morris",
    rhythm: "monthly",
    method: "cash",
    dollars: 10,
    funds: [["Missions", 1]],
    individual: true,
  },
  {
    first: "Ruth",
    last: "Abernathy",
    rhythm: "monthly",
    method: "cheque",
    dollars: 100,
    funds: [
      ["Missions", 0.75],
      ["Benevolence", 0.25],
    ],
  },
  {
    first: "Jan",
    last: "Kowalski",
    rhythm: "monthly",
    method: "card",
    dollars: 80,
    funds: [["General Fund", 1]],
  },
  {
    first: "Grace",
    last: "Bennett",
    rhythm: "weekly",
    method: "online",
    dollars: 30,
    funds: [["General Fund", 1]],
    skips: 0.05,
  },
  {
    first: "Daniel",
    last: "Kim",
    rhythm: "weekly",
    method: "online",
    dollars: 25,
    funds: [["General Fund", 1]],
    sinceWeeksAgo: 6,
  },
  {
    first: "Helga",
    last: "Schmidt",
    rhythm: "monthly",
    method: "cheque",
    dollars: 50,
    funds: [["General Fund", 1]],
    untilWeeksAgo: 20,
  },
  {
    first: "Tunde",
    last: "Adeyemi",
    rhythm: "weekly",
    method: "card",
    dollars: 45,
    funds: [
      ["General Fund", 0.8],
      ["Building Fund", 0.2],
    ],
    skips: 0.1,
  },
  {
    first: "Funmi",
    last: "Adeyemi",
    rhythm: "monthly",
    dayOfMonth: 15,
    method: "online",
    dollars: 50,
    funds: [["Building Fund", 1]],
  },
  {
    first: "Hannah",
    last: "Lee",
    rhythm: "monthly",
    method: "cash",
    dollars: 15,
    funds: [["Coffee & Books", 1]],
    skips: 0.4,
  },
];

/** mulberry32: a small seeded generator (the same sequence on every install). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SeedGift {
  person: string;
  individual: boolean;
  date: string;
  amountCents: number;
  method: Method;
  chequeNumber: string;
  splits: Array<{ fund: string; amountCents: number }>;
  source: "manual" | "online";
}

interface SeedBatch {
  name: string;
  depositDate: string;
  gifts: SeedGift[];
}

const pbDay = (day: Temporal.PlainDate | string) => `${day.toString()} 00:00:00.000Z`;
const monthName = (day: Temporal.PlainDate) =>
  new Date(Date.UTC(day.year, day.month - 1, 1)).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

/** A gift's amount to its funds by their shares, in whole cents that add up to it (the first fund takes the rest). */
function splitsOf(amountCents: number, funds: Array<[string, number]>) {
  const rest = funds
    .slice(1)
    .map(([fund, share]) => ({ fund, amountCents: Math.round(amountCents * share) }));
  return [
    { fund: funds[0]![0], amountCents: amountCents - rest.reduce((sum, s) => sum + s.amountCents, 0) },
    ...rest,
  ];
}

export async function seedGiving(system: PocketBase): Promise<void> {
  const fundIds = new Map<string, string>();
  for (const [i, fund] of FUNDS.entries()) {
    const record = await system.collection("funds").create({ ...fund, sort: (i + 1) * 10 });
    fundIds.set(fund.name, record.id);
  }
  const people = await system
    .collection("people")
    .getFullList<{ id: string; firstName: string; lastName: string }>({ fields: "id,firstName,lastName" });
  const personId = (first: string, last: string) => {
    const found = people.find((p) => p.firstName === first && p.lastName === last);
    if (!found) throw new Error(`seed-giving: no person named ${first} ${last}`);
    return found.id;
  };

  const random = generator(29);
  const today = Temporal.Now.plainDateISO(ZONE);
  // Last Sunday (today, on a Sunday): its batch stays open. The year of closed ones ends the week before.
  const lastSunday = today.subtract({ days: today.dayOfWeek % 7 });
  const sundays = Array.from({ length: 52 }, (_, i) => lastSunday.subtract({ weeks: 52 - i }));
  const firstDay = sundays[0]!;

  const sundayBatches = new Map<string, SeedBatch>(
    [...sundays, lastSunday].map((sunday) => [
      sunday.toString(),
      {
        name: `Sunday offering, ${sunday.toString()}`,
        depositDate: sunday.add({ days: 1 }).toString(),
        gifts: [],
      },
    ]),
  );
  const monthBatches = new Map<string, SeedBatch>();
  const monthBatchOf = (day: Temporal.PlainDate) => {
    const key = day.toString().slice(0, 7);
    let batch = monthBatches.get(key);
    if (!batch) {
      const lastOfMonth = day.with({ day: day.daysInMonth });
      batch = {
        name: `Online gifts and transfers, ${monthName(day)}`,
        depositDate: (Temporal.PlainDate.compare(lastOfMonth, today) > 0 ? today : lastOfMonth).toString(),
        gifts: [],
      };
      monthBatches.set(key, batch);
    }
    return batch;
  };

  let chequeNumber = 1000;
  const give = (giver: Giver, day: Temporal.PlainDate) => {
    const weeksAgo = Math.floor(day.until(today).days / 7);
    if (giver.sinceWeeksAgo !== undefined && weeksAgo >= giver.sinceWeeksAgo) return;
    if (giver.untilWeeksAgo !== undefined && weeksAgo < giver.untilWeeksAgo) return;
    if (random() < (giver.skips ?? 0)) return;
    // ±15 %, whole dollars for cash and cheques.
    const dollars = giver.dollars * (0.85 + random() * 0.3);
    const amountCents = ["cash", "cheque"].includes(giver.method)
      ? Math.max(1, Math.round(dollars)) * 100
      : Math.round(dollars * 100);
    const gift: SeedGift = {
      person: personId(giver.first, giver.last),
      individual: !!giver.individual,
      date: pbDay(day),
      amountCents,
      method: giver.method,
      chequeNumber: giver.method === "cheque" ? String(chequeNumber++) : "",
      splits: splitsOf(
        amountCents,
        giver.funds.map(([fund, share]) => [fundIds.get(fund)!, share]),
      ),
      source: giver.method === "online" ? "online" : "manual",
    };
    const inPerson = ["cash", "cheque", "card"].includes(giver.method);
    (inPerson ? sundayBatches.get(day.toString())! : monthBatchOf(day)).gifts.push(gift);
  };

  for (const [week, sunday] of [...sundays, lastSunday].entries()) {
    for (const giver of GIVERS) {
      if (giver.rhythm === "weekly") give(giver, sunday);
      else if (giver.rhythm === "fortnightly" && week % 2 === 0) give(giver, sunday);
      else if (giver.rhythm === "monthly" && !giver.dayOfMonth && sunday.day <= 7) give(giver, sunday);
    }
    // The plate's loose cash: anonymous, to the General Fund.
    const loose = Math.round(40 + random() * 100) * 100;
    sundayBatches.get(sunday.toString())!.gifts.push({
      person: "",
      individual: false,
      date: pbDay(sunday),
      amountCents: loose,
      method: "cash",
      chequeNumber: "",
      splits: [{ fund: fundIds.get("General Fund")!, amountCents: loose }],
      source: "manual",
    });
  }
  // Gifts from home on their day of the month, from the first day of the year to today.
  for (let day = firstDay; Temporal.PlainDate.compare(day, today) <= 0; day = day.add({ days: 1 }))
    for (const giver of GIVERS)
      if (giver.rhythm === "monthly" && giver.dayOfMonth === day.day) give(giver, day);

  const open = sundayBatches.get(lastSunday.toString())!;
  sundayBatches.delete(lastSunday.toString());
  // Counted, then keyed in, then closed once the gifts match the counted figures (the hook checks, as for
  // a treasurer). Plain requests, four batches at a time: PocketBase's batch API (off in Flock, so turned
  // on for a seed) cost it twice the CPU here, measured (the hook's work per gift dominates either way).
  const write = async (batch: SeedBatch, keyed = batch.gifts.length) => {
    const record = await system.collection("donation_batches").create({
      name: batch.name,
      depositDate: pbDay(batch.depositDate),
      controlTotalCents: batch.gifts.reduce((sum, gift) => sum + gift.amountCents, 0),
      controlCount: batch.gifts.length,
    });
    for (const gift of batch.gifts.slice(0, keyed))
      await system.collection("donations").create({ ...gift, batch: record.id });
    if (keyed === batch.gifts.length)
      await system.collection("donation_batches").update(record.id, { status: "closed" });
  };
  const closed = [...sundayBatches.values(), ...monthBatches.values()];
  for (let i = 0; i < closed.length; i += 4)
    await Promise.all(closed.slice(i, i + 4).map((batch) => write(batch)));
  // Last Sunday: counted, about half keyed in so far.
  await write(open, Math.ceil(open.gifts.length / 2));

  await seedCampaign(system, fundIds.get("Building Fund")!, personId, today.year);
}

/** The demo households' pledges toward the roof: the Member family's, the Adeyemis' and the Garcías'. */
const ROOF_PLEDGES: Array<[first: string, last: string, dollars: number]> = [
  ["Mark", "Member", 2_400],
  ["Tunde", "Adeyemi", 6_000],
  ["Luis", "García", 1_200],
];

/**
 * One campaign this year, "New roof", counting the Building Fund's gifts toward $50,000 and showing its
 * progress on /give, with a few households' pledges (the hook sets each one's household).
 */
async function seedCampaign(
  system: PocketBase,
  buildingFund: string,
  personId: (first: string, last: string) => string,
  year: number,
): Promise<void> {
  const campaign = await system.collection("pledge_campaigns").create({
    name: "New roof",
    description: "The sanctuary roof is forty years old. Help us replace it before next winter.",
    fund: buildingFund,
    goalCents: 50_000_00,
    startsOn: pbDay(`${year}-01-01`),
    endsOn: pbDay(`${year}-12-31`),
    showProgress: true,
    status: "active",
  });
  for (const [first, last, dollars] of ROOF_PLEDGES)
    await system
      .collection("pledges")
      .create({ campaign: campaign.id, person: personId(first, last), amountCents: dollars * 100 });
}
