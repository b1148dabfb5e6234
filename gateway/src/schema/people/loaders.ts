import DataLoader from "dataloader";
import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type {
  AddressRecord,
  HouseholdInvitationRecord,
  HouseholdRecord,
  PersonBirthdayRecord,
  PersonEmailRecord,
  PersonPhoneRecord,
  PersonPrivateRecord,
  PersonRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { byAgeThenFirstName, primaryFirst } from "./mappers.ts";
import { FILTER_CHARS, orChains } from "../../pocketbase/filters.ts";

/**
 * Per-request batching of the people module's related reads (QUALITY P2: no N+1). Every loader reads
 * with the caller's token, so PocketBase's rules filter the rows: a row the caller may not see is
 * simply absent. One PocketBase call per related collection per batch, whatever the page size.
 * Filters are packed into OR-chains PocketBase accepts (pocketbase/filters.ts).
 */

/** PocketBase's largest page: a chain's rows come back in one call. */
const PAGE = 1_000;

/** Every row matching any clause (plus an optional fixed condition), one call per chain, read as the caller. */
async function listWhere<T>(
  pb: PocketBase,
  collection: string,
  clauses: string[],
  options: { where?: string; sort?: string; expand?: string } = {},
): Promise<T[]> {
  const chains = orChains(clauses, FILTER_CHARS - (options.where?.length ?? 0));
  const pages = await Promise.all(
    chains.map((chain) =>
      pbCall(() =>
        pb.collection(collection).getFullList<T>({
          batch: PAGE,
          filter: options.where ? `${options.where} && (${chain})` : chain,
          ...(options.sort ? { sort: options.sort } : {}),
          ...(options.expand ? { expand: options.expand } : {}),
        }),
      ),
    ),
  );
  return pages.flat();
}

const idClauses = (pb: PocketBase, field: string, ids: readonly string[]) =>
  [...new Set(ids)].map((id) => pb.filter(`${field} = {:id}`, { id }));

function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

export interface PeopleLoaders {
  person: DataLoader<string, PersonRecord | null>;
  household: DataLoader<string, HouseholdRecord | null>;
  /** The people of a household the caller may see, adults first. */
  members: DataLoader<string, PersonRecord[]>;
  address: DataLoader<string, AddressRecord | null>;
  /** Pending invitations of a household. */
  invitations: DataLoader<string, HouseholdInvitationRecord[]>;
  /** Keyed by person id: primary first. */
  emails: DataLoader<string, PersonEmailRecord[]>;
  phones: DataLoader<string, PersonPhoneRecord[]>;
  birthday: DataLoader<string, PersonBirthdayRecord | null>;
  privateRow: DataLoader<string, PersonPrivateRecord | null>;
  user: DataLoader<string, UserRecord | null>;
  /** Note which household each person belongs to (lets person-row batches ask per household). */
  remember(people: PersonRecord[]): PersonRecord[];
  /** Drop what this request cached about a person or household after writing it. */
  forgetPerson(id: string): void;
  forgetHousehold(id: string): void;
}

const byContext = new WeakMap<GatewayContext, PeopleLoaders>();

/** The request's loaders, created on first use (keyed by the context, so they live as long as the request). */
export function loadersOf(ctx: GatewayContext): PeopleLoaders {
  let loaders = byContext.get(ctx);
  if (!loaders) {
    loaders = createLoaders(ctx);
    byContext.set(ctx, loaders);
  }
  return loaders;
}

function createLoaders(ctx: GatewayContext): PeopleLoaders {
  // ctx.pb is read at batch time: sign-in within a request points it at a new token.
  const pb = () => ctx.pb;
  const householdOf = new Map<string, string>();

  /**
   * Clauses for rows belonging to `personIds`. People whose household is known and who share it with
   * another requested person are asked for as one `person.household = …` clause: a directory page of
   * many households then fits one chain however many people each household has. Rows of people not
   * asked for are dropped by the caller of this function.
   */
  function personClauses(personIds: readonly string[]): string[] {
    const byHousehold = groupBy([...new Set(personIds)], (id) => householdOf.get(id) ?? "");
    const clauses: string[] = [];
    for (const [household, ids] of byHousehold) {
      if (household && ids.length > 1) clauses.push(pb().filter("person.household = {:h}", { h: household }));
      else clauses.push(...idClauses(pb(), "person", ids));
    }
    return clauses;
  }

  function personRows<T extends { person: string }>(collection: string, sortRows?: (a: T, b: T) => number) {
    return new DataLoader<string, T[]>(async (personIds) => {
      const rows = await listWhere<T>(pb(), collection, personClauses(personIds));
      const groups = groupBy(rows, (r) => r.person);
      return personIds.map((id) => {
        const list = groups.get(id) ?? [];
        return sortRows ? [...list].sort(sortRows) : list;
      });
    });
  }

  function single<T>(many: DataLoader<string, T[]>) {
    return new DataLoader<string, T | null>(async (ids) =>
      (await many.loadMany(ids)).map((rows) => (rows instanceof Error ? rows : (rows[0] ?? null))),
    );
  }

  const emails = personRows<PersonEmailRecord>("person_emails", primaryFirst);
  const phones = personRows<PersonPhoneRecord>("person_phones", primaryFirst);
  const birthdays = personRows<PersonBirthdayRecord>("person_birthdays");
  const privateRows = personRows<PersonPrivateRecord>("person_private");

  const users = new DataLoader<string, UserRecord[]>(async (personIds) => {
    const rows = await listWhere<UserRecord>(pb(), "users", idClauses(pb(), "person", personIds), {
      expand: "roles",
    });
    const groups = groupBy(rows, (u) => u.person);
    return personIds.map((id) => groups.get(id) ?? []);
  });

  const loaders: PeopleLoaders = {
    person: new DataLoader(async (ids) => {
      const rows = loaders.remember(
        await listWhere<PersonRecord>(pb(), "people", idClauses(pb(), "id", ids)),
      );
      const byId = new Map(rows.map((p) => [p.id, p]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    household: new DataLoader(async (ids) => {
      const rows = await listWhere<HouseholdRecord>(pb(), "households", idClauses(pb(), "id", ids));
      const byId = new Map(rows.map((h) => [h.id, h]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    members: new DataLoader(async (householdIds) => {
      const rows = loaders.remember(
        await listWhere<PersonRecord>(pb(), "people", idClauses(pb(), "household", householdIds)),
      );
      const groups = groupBy(rows, (p) => p.household);
      for (const person of rows) loaders.person.prime(person.id, person);
      return householdIds.map((id) => [...(groups.get(id) ?? [])].sort(byAgeThenFirstName));
    }),
    address: new DataLoader(async (householdIds) => {
      const rows = await listWhere<AddressRecord>(
        pb(),
        "addresses",
        idClauses(pb(), "household", householdIds),
      );
      const byHousehold = new Map(rows.map((a) => [a.household, a]));
      return householdIds.map((id) => byHousehold.get(id) ?? null);
    }),
    invitations: new DataLoader(async (householdIds) => {
      const rows = await listWhere<HouseholdInvitationRecord>(
        pb(),
        "household_invitations",
        idClauses(pb(), "household", householdIds),
        {
          where: 'status = "pending"',
          sort: "-created",
        },
      );
      const groups = groupBy(rows, (i) => i.household);
      return householdIds.map((id) => groups.get(id) ?? []);
    }),
    emails,
    phones,
    birthday: single(birthdays),
    privateRow: single(privateRows),
    user: single(users),
    remember(people) {
      for (const p of people) householdOf.set(p.id, p.household);
      return people;
    },
    forgetPerson(id) {
      for (const loader of [
        loaders.person,
        emails,
        phones,
        birthdays,
        privateRows,
        users,
        loaders.birthday,
        loaders.privateRow,
        loaders.user,
      ]) {
        (loader as DataLoader<string, unknown>).clear(id);
      }
      householdOf.delete(id);
    },
    forgetHousehold(id) {
      for (const loader of [loaders.household, loaders.members, loaders.address, loaders.invitations])
        (loader as DataLoader<string, unknown>).clear(id);
    },
  };
  return loaders;
}
