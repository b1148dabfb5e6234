import type PocketBase from "pocketbase";
import { isLocale } from "@flock/shared/i18n/format";
import { pbCall } from "../../errors.ts";
import { orChains } from "../../pocketbase/filters.ts";
import { pocketBaseDay, todayIn } from "../../pocketbase/dates.ts";
import type {
  AddressRecord,
  DonationRecord,
  FundRecord,
  HouseholdRecord,
  PersonRecord,
  SettingsRecord,
} from "../../pocketbase/records.ts";
import { displayName } from "../people/mappers.ts";
import { embeddableImage, type StatementBrand, type StatementDonor } from "./statement-pdf.ts";
import {
  unitKey,
  type GivingUnit,
  type StatementFund,
  type StatementGift,
  type StatementPeriod,
} from "./statements.ts";

/*
 * What statements read. The gifts always with the caller's client, so PocketBase's rules decide which a
 * member or a treasurer sees. The funds, names and addresses on them with the system's: a member's gift
 * may be to a hidden fund (not listed to members, yet their statement must name it and know whether it
 * is deductible), and finance need not read people records (as giving's donor names, resolvers.ts).
 */

const GIFT_FIELDS = "id,person,givingUnit,date,amountCents,method,chequeNumber,splits";

/** How many units one read names (their clauses fit PocketBase's filter length). */
export const UNITS_PER_READ = 50;

/** The filter of gifts inside a period (its first and last day included). */
export const periodFilter = (pb: PocketBase, period: StatementPeriod) =>
  pb.filter("date >= {:from} && date <= {:to}", {
    from: pocketBaseDay(period.from),
    to: `${period.to} 23:59:59.999Z`,
  });

/** A unit's gifts as one filter clause: its household's, or the person's own given individually. */
const unitClause = (pb: PocketBase, unit: GivingUnit) =>
  unit.kind === "household"
    ? pb.filter("givingUnit = {:id}", { id: unit.id })
    : pb.filter('(givingUnit = "" && person = {:id})', { id: unit.id });

const asGift = (row: DonationRecord): StatementGift => ({
  id: row.id,
  person: row.person,
  givingUnit: row.givingUnit,
  date: row.date.slice(0, 10),
  amountCents: row.amountCents,
  method: row.method,
  chequeNumber: row.chequeNumber,
  splits: row.splits,
});

/** The gifts of some units in a period, read with `pb` (the caller's: the rules decide what is seen). */
export async function readUnitsGifts(
  pb: PocketBase,
  units: readonly GivingUnit[],
  period: StatementPeriod,
): Promise<StatementGift[]> {
  const gifts: StatementGift[] = [];
  for (const chain of orChains(units.map((unit) => unitClause(pb, unit)))) {
    const rows = await pbCall(() =>
      pb.collection("donations").getFullList<DonationRecord>({
        filter: `${periodFilter(pb, period)} && (${chain})`,
        fields: GIFT_FIELDS,
        sort: "date,id",
        batch: 1000,
      }),
    );
    gifts.push(...rows.map(asGift));
  }
  return gifts;
}

/**
 * Every gift of a period with a donor, for a run of all donors' statements. Read by the system: the run
 * is finance's (viewGiving, checked by the gateway and by the run's own create rule), and the donations
 * rule gives finance every gift, so this is the set the treasurer's token reads — without PocketBase
 * evaluating the rule's role lookups for each of 50,000 rows (most of a run's time when it did).
 */
export async function readPeriodGifts(system: PocketBase, period: StatementPeriod): Promise<StatementGift[]> {
  const rows = await pbCall(() =>
    system.collection("donations").getFullList<DonationRecord>({
      filter: `${periodFilter(system, period)} && person != ""`,
      fields: GIFT_FIELDS,
      batch: 1000,
    }),
  );
  return rows.map(asGift);
}

/** Every fund by id (a church has a handful; read by the system, see above). */
export async function readFunds(system: PocketBase): Promise<Map<string, StatementFund>> {
  const funds = await pbCall(() =>
    system.collection("funds").getFullList<FundRecord>({ fields: "id,name,deductible", batch: 500 }),
  );
  return new Map(funds.map((fund) => [fund.id, fund]));
}

/** A postal address as the lines of an envelope's window. */
export function addressLines(
  address: Pick<AddressRecord, "street1" | "street2" | "city" | "region" | "postalCode" | "country"> | null,
) {
  if (!address) return [];
  const place = [address.city, [address.region, address.postalCode].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return [address.street1, address.street2, place, address.country].map((l) => l.trim()).filter(Boolean);
}

/** Rows of `collection` whose `field` is one of `ids`, read in filters PocketBase accepts. */
async function rowsWhere<T>(
  system: PocketBase,
  collection: string,
  field: string,
  ids: readonly string[],
  fields: string,
): Promise<T[]> {
  const rows: T[] = [];
  const clauses = [...new Set(ids)].map((id) => system.filter(`${field} = {:id}`, { id }));
  for (const chain of orChains(clauses))
    rows.push(
      ...(await pbCall(() =>
        system.collection(collection).getFullList<T>({ filter: chain, fields, batch: 500 }),
      )),
    );
  return rows;
}

/**
 * Each unit's name and postal address (system reads): a household's name and its address; a person
 * giving individually by their name, at their household's address. A unit no longer found (a household
 * removed since) is named by nothing rather than left out: its gifts still happened.
 */
export async function readDonors(
  system: PocketBase,
  units: readonly GivingUnit[],
): Promise<Map<string, StatementDonor>> {
  const people = await rowsWhere<PersonRecord>(
    system,
    "people",
    "id",
    units.filter((u) => u.kind === "person").map((u) => u.id),
    "id,firstName,lastName,preferredName,household",
  );
  const householdIds = [
    ...units.filter((u) => u.kind === "household").map((u) => u.id),
    ...people.map((p) => p.household).filter(Boolean),
  ];
  const households = await rowsWhere<HouseholdRecord>(system, "households", "id", householdIds, "id,name");
  const addresses = await rowsWhere<AddressRecord>(
    system,
    "addresses",
    "household",
    householdIds,
    "household,street1,street2,city,region,postalCode,country,created",
  );
  const addressOf = (household: string) =>
    addressLines(
      addresses
        .filter((a) => a.household === household)
        .sort((a, b) => a.created.localeCompare(b.created))[0] ?? null,
    );
  const donors = new Map<string, StatementDonor>();
  for (const unit of units) {
    if (unit.kind === "household") {
      const household = households.find((h) => h.id === unit.id);
      donors.set(unitKey(unit), { name: household?.name ?? "", addressLines: addressOf(unit.id) });
    } else {
      const person = people.find((p) => p.id === unit.id);
      donors.set(unitKey(unit), {
        name: person ? displayName(person) : "",
        addressLines: person?.household ? addressOf(person.household) : [],
      });
    }
  }
  return donors;
}

/** The church's part of every statement: name, address, logo (PNG or JPEG only), language, currency, legal text. */
export async function readBrand(pbUrl: string, settings: SettingsRecord): Promise<StatementBrand> {
  let logo: Uint8Array | null = null;
  if (settings.logo) {
    // The logo is public (the site's header shows it): read as anyone, at the header's size.
    const url = `${pbUrl}/api/files/${settings.collectionId}/${settings.id}/${encodeURIComponent(settings.logo)}?thumb=0x96`;
    const response = await fetch(url).catch(() => null);
    if (response?.ok) logo = new Uint8Array(await response.arrayBuffer());
    if (!embeddableImage(logo)) logo = null;
  }
  return {
    churchName: settings.churchName,
    churchAddress: settings.address ?? "",
    logo,
    locale: isLocale(settings.locale) ? settings.locale : "en",
    currency: settings.currency || "USD",
    legalText: settings.statementText ?? "",
    issuedOn: todayIn(settings.timezone || "UTC"),
  };
}
