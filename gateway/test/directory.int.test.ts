/**
 * The member directory (PRODUCT.md §2, §3): active members only, listed households by name, each
 * person's details as they shared them, children never shown, search by household or person name,
 * keyset pages — and QUALITY P2: the PocketBase calls for a page do not grow with its size.
 */
import { randomInt } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { ViewerCache } from "../src/session/viewer-cache.ts";
import {
  countPocketBaseCalls,
  createUser,
  errorCode,
  GqlClient,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
} from "./helpers.ts";
import {
  DirectoryHouseholdMembersDocument,
  DirectoryListDocument,
  DirectoryPageDocument,
  type DirectoryListQuery,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let su: PocketBase;

// Digits only: a hex tag once began with "bea", and the search for "Bea" then found every household.
const tag = () => String(randomInt(1_000_000_000, 10_000_000_000));
const as = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });

// The operations are in ./operations/directory.graphql (typed by npm run codegen).
const DIRECTORY = DirectoryListDocument;
const DIRECTORY_PAGE = DirectoryPageDocument;

type DirectoryResult = DirectoryListQuery;

/** A login whose active, listed person belongs to `household`. */
async function listedLogin(
  household: string,
  fields: Record<string, unknown>,
  options: { person?: "active" | "pending" } = {},
) {
  const user = await createUser({ person: options.person ?? "active" });
  await su
    .collection("people")
    .update(user.personId!, { membershipStatus: "member", household, householdRole: "head", ...fields });
  return user as TestUser & { personId: string };
}

const person = (fields: Record<string, unknown>) =>
  su
    .collection("people")
    .create({ recordStatus: "active", membershipStatus: "member", householdRole: "head", ...fields });

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
});
afterAll(() => gateway.close());

describe("what the directory shows", () => {
  const t = tag();
  const phone = "+12025550111";
  let viewer: TestUser;
  let privateEmail: string;
  let sharedEmail: string;

  beforeAll(async () => {
    const alpha = (await su.collection("households").create({ name: `${t} Alpha` })).id;
    const beta = (await su.collection("households").create({ name: `${t} Beta` })).id;
    const optedOut = (await su.collection("households").create({ name: `${t} Gamma`, directoryOptOut: true }))
      .id;

    const al = await person({
      firstName: "Albert",
      lastName: "Alpha",
      preferredName: "Al",
      household: alpha,
    });
    privateEmail = uniqueEmail("al-private");
    sharedEmail = uniqueEmail("al-shared");
    await su
      .collection("person_emails")
      .create({ person: al.id, email: privateEmail, isPrimary: true, visibility: "private" });
    await su.collection("person_emails").create({ person: al.id, email: sharedEmail, visibility: "members" });
    await su
      .collection("person_phones")
      .create({ person: al.id, number: phone, isPrimary: true, visibility: "members" });
    await su
      .collection("person_phones")
      .create({ person: al.id, number: "+12025550112", visibility: "leaders" });
    await su.collection("person_private").create({ person: al.id, birthDate: "1970-07-04" });
    await su.collection("addresses").create({
      household: alpha,
      street1: "1 Elm St",
      city: "Springfield",
      country: "US",
      visibility: "members",
    });
    // A child (by birth date), a spouse who opted out, and a visitor: none of them is listed.
    const child = await person({
      firstName: `Kiddo${t}`,
      lastName: "Alpha",
      household: alpha,
      householdRole: "child",
    });
    await su
      .collection("person_emails")
      .create({ person: child.id, email: uniqueEmail("kid"), visibility: "members" });
    await person({
      firstName: "Olive",
      lastName: "Alpha",
      household: alpha,
      householdRole: "spouse",
      directoryOptOut: true,
    });
    await person({
      firstName: "Vince",
      lastName: "Alpha",
      household: alpha,
      householdRole: "other",
      membershipStatus: "visitor",
    });
    await person({ firstName: "Gus", lastName: "Gamma", household: optedOut });

    viewer = await listedLogin(beta, { firstName: "Bea", lastName: "Beta" });
  });

  it("lists the listed households by name, with each person's shared details only", async () => {
    const result = await as(viewer).execute(DIRECTORY, { search: t });
    expect(result.errors).toBeUndefined();
    const edges = result.data!.directory.edges;
    expect(edges.map((e) => e.node.name)).toEqual([`${t} Alpha`, `${t} Beta`]);
    expect(result.data!.directory.totalCount).toBe(2);
    const alpha = edges[0]!.node;
    expect(alpha.address).toEqual({ city: "Springfield", visibility: "MEMBERS" });
    expect(alpha.members).toEqual([
      {
        displayName: "Al Alpha",
        ageGroup: "ADULT",
        photoUrl: null,
        birthDate: null,
        birthday: { month: 7, day: 4 },
        emails: [{ email: sharedEmail }],
        phones: [{ number: phone }],
      },
    ]);
    expect(JSON.stringify(result)).not.toContain(privateEmail);
    expect(JSON.stringify(result)).not.toContain("Kiddo");
  });

  it("shows listed people only on its cards, even to staff and to the card's own household", async () => {
    const pastor = await createUser({ roles: ["Pastor"] });
    const pastorHousehold = (await su.collection("households").create({ name: `${t} Pastor` })).id;
    await su.collection("people").update(pastor.personId!, {
      firstName: "Pia",
      lastName: "Pastor",
      membershipStatus: "member",
      household: pastorHousehold,
      householdRole: "head",
    });
    await person({
      firstName: "Pipkin",
      lastName: "Pastor",
      household: pastorHousehold,
      householdRole: "child",
    });
    const result = await as(pastor).execute(DIRECTORY, { search: t });
    const cards = Object.fromEntries(
      result.data!.directory.edges.map((e) => [e.node.name, e.node.members.map((m) => m.displayName)]),
    );
    expect(cards).toEqual({
      [`${t} Alpha`]: ["Al Alpha"],
      [`${t} Beta`]: ["Bea Beta"],
      [`${t} Pastor`]: ["Pia Pastor"],
    });
    // Outside the directory the household shows everyone the rules allow.
    const household = await as(pastor).execute(DirectoryHouseholdMembersDocument, { id: pastorHousehold });
    expect(household.data!.household!.members.map((m) => m.displayName)).toEqual([
      "Pia Pastor",
      "Pipkin Pastor",
    ]);
  });

  it("searches by household name and by the names of listed people only", async () => {
    const names = async (search: string) =>
      ((await as(viewer).execute(DIRECTORY, { search })).data?.directory.edges ?? []).map((e) => e.node.name);
    expect(await names(`${t} alp`)).toEqual([`${t} Alpha`]);
    expect(await names(`Albert ${t}`)).toEqual([`${t} Alpha`]);
    expect(await names(`${t} Bea`)).toEqual([`${t} Beta`]);
    expect(await names(`${t} Albert Bea`)).toEqual([]); // every word must match
    // A child's name finds nothing: the back-relation runs under the viewer's rules.
    expect(await names(`Kiddo${t}`)).toEqual([]);
    expect(await names(`Gus ${t}`)).toEqual([]);
  });

  it("pages by name with keyset cursors", async () => {
    const all = (await as(viewer).execute(DIRECTORY, { search: t })).data!.directory.edges.map(
      (e) => e.node.name,
    );
    expect(all.length).toBeGreaterThanOrEqual(2);
    const paged: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < all.length; page++) {
      const result: { data: DirectoryResult | null } = await as(viewer).execute(DIRECTORY, {
        search: t,
        first: 1,
        after,
      });
      const { edges, pageInfo } = result.data!.directory;
      paged.push(...edges.map((e) => e.node.name));
      expect(pageInfo.hasNextPage).toBe(page < all.length - 1);
      after = pageInfo.endCursor;
    }
    expect(paged).toEqual(all);
    expect(errorCode(await as(viewer).request(DIRECTORY, { after: "not-a-cursor" }))).toBe("BAD_USER_INPUT");
  });

  it("is closed to pending sign-ups, people without a person and visitors", async () => {
    const household = (await su.collection("households").create({ name: `${t} Pending` })).id;
    const pending = await listedLogin(household, { firstName: "Penny" }, { person: "pending" });
    expect(errorCode(await as(pending).request(DIRECTORY, {}))).toBe("FORBIDDEN");
    expect(errorCode(await as(await createUser({ person: "none" })).request(DIRECTORY, {}))).toBe(
      "FORBIDDEN",
    );
    expect(errorCode(await as(null).request(DIRECTORY, {}))).toBe("UNAUTHENTICATED");
  });
});

describe("QUALITY P2: no N+1 on a directory page", () => {
  const t = tag();
  const HOUSEHOLDS = 55;
  let viewer: TestUser;

  beforeAll(async () => {
    // Households of two or three listed adults (more people on a page of 50 than one id chain holds),
    // each with the details the query reads, plus a child that must stay hidden.
    const created = await Promise.all(
      Array.from({ length: HOUSEHOLDS }, async (_, i) => {
        const household = (
          await su.collection("households").create({ name: `${t} ${String(i).padStart(2, "0")}` })
        ).id;
        await su.collection("addresses").create({
          household,
          street1: `${i} Oak St`,
          city: "Springfield",
          country: "US",
          visibility: "members",
        });
        const adults = await Promise.all(
          Array.from({ length: 2 + (i % 2) }, (_, n) =>
            person({
              firstName: `Adult${n}`,
              lastName: `House${i}`,
              household,
              householdRole: n ? "spouse" : "head",
            }),
          ),
        );
        await Promise.all(
          adults.flatMap((adult, n) => [
            su.collection("person_emails").create({
              person: adult.id,
              email: uniqueEmail(`p2-${i}-${n}`),
              isPrimary: true,
              visibility: "members",
            }),
            su.collection("person_phones").create({
              person: adult.id,
              number: `+1202555${String(1000 + i * 3 + n)}`,
              isPrimary: true,
              visibility: "members",
            }),
            su
              .collection("person_private")
              .create({ person: adult.id, birthDate: `19${60 + (i % 30)}-0${1 + n}-1${n}` }),
          ]),
        );
        await person({ firstName: "Child", lastName: `House${i}`, household, householdRole: "child" });
        return household;
      }),
    );
    expect(created).toHaveLength(HOUSEHOLDS);
    const own = (await su.collection("households").create({ name: `${t} viewer` })).id;
    viewer = await listedLogin(own, { firstName: "Vera", lastName: "Viewer" });
    // The viewer's session is remembered for the whole test (its 10 s default could lapse between the
    // two counted requests on a slow machine and add one auth-refresh call to one of them).
    gateway.services.viewerCache = new ViewerCache(60 * 60 * 1000);
  });

  it("page sizes 5 and 50 cost the same PocketBase calls: ≤ 1 + the related collections", async () => {
    const client = as(viewer);
    await client.request(DIRECTORY_PAGE, { first: 1, search: t }); // warm up: the viewer's session is looked up once

    const small = await countPocketBaseCalls(() => client.execute(DIRECTORY_PAGE, { first: 5, search: t }));
    const large = await countPocketBaseCalls(() => client.execute(DIRECTORY_PAGE, { first: 50, search: t }));
    expect(small.result.errors).toBeUndefined();
    expect(large.result.errors).toBeUndefined();
    expect(small.result.data!.directory.edges).toHaveLength(5);
    const page = large.result.data!.directory.edges.map((e) => e.node);
    expect(page).toHaveLength(50);
    // The page really carries the nested data (125 people, more than one id chain of 100).
    const people = page.flatMap((h) => h.members);
    expect(people).toHaveLength(125);
    expect(
      people.every(
        (p) =>
          p.ageGroup === "ADULT" && p.emails.length === 1 && p.phones.length === 1 && p.birthday !== null,
      ),
    ).toBe(true);
    expect(page.every((h) => h.address?.city === "Springfield")).toBe(true);

    // households + people, person_emails, person_phones, person_birthdays, addresses
    const related = 5;
    expect(large.calls).toBe(small.calls);
    expect(large.calls).toBeLessThanOrEqual(1 + related);
  });
});
