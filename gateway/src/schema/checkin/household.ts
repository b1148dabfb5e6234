import type { GatewayContext } from "../../context.ts";
import { forbidden, pbCall } from "../../errors.ts";
import type { PersonCareRecord, PersonRecord, PickupAuthorizationRecord } from "../../pocketbase/records.ts";
import { requireViewer } from "../../access/guards.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { Validator } from "../../validation/validate.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import type { Resolvers } from "../__generated__/types.ts";
import { displayName } from "../people/mappers.ts";
import { anyOf } from "../../pocketbase/filters.ts";

/**
 * What a household keeps for check-in (/me/checkins): its children's care notes and its pickup list.
 * Read and written with the caller's token: PocketBase's rules (1732620000_checkin.js) let the
 * household's active adults (and operators) do it, and nobody else.
 */

/**
 * The household whose check-in side the caller keeps: theirs, when they are an active adult in it (as
 * the rules say), else null. From their own person record, which they always read.
 */
async function myHousehold(ctx: GatewayContext): Promise<string | null> {
  const viewer = await requireViewer(ctx);
  if (!viewer.person) return null;
  const me = await pbCall(() =>
    ctx.pb
      .collection("people")
      .getOne<PersonRecord>(viewer.person, { fields: "household,ageGroup,recordStatus" }),
  );
  return me.household && me.ageGroup === "adult" && me.recordStatus === "active" ? me.household : null;
}

const careOf = (
  person: Pick<PersonRecord, "id" | "firstName" | "lastName" | "preferredName">,
  care?: PersonCareRecord,
) => ({
  personId: person.id,
  name: displayName(person),
  allergies: care?.allergies ?? "",
  medicalNotes: care?.medicalNotes ?? "",
});

/** What a household's QR code carries (a check-in station's search reads it: families.ts). */
export const householdQrText = (householdId: string) => `flock:household:${householdId}`;

export const householdResolvers: Resolvers = {
  Query: {
    async myHouseholdCheckin(_, __, ctx) {
      const household = await myHousehold(ctx);
      if (!household) return null;
      // The household's people (never empty: the caller is one of them); their care notes and the
      // pickup list, often empty, are read by the system for this household only (an empty filtered
      // read from the church's IP is throttled: reads.ts), which the caller keeps by the rules.
      const people = await pbCall(() =>
        ctx.pb.collection("people").getFullList<PersonRecord>({
          filter: ctx.pb.filter('household = {:household} && recordStatus != "archived"', { household }),
          sort: "firstName",
        }),
      );
      const children = people.filter((p) => p.ageGroup !== "adult");
      const system = await ctx.system.get();
      const [care, pickups] = await Promise.all([
        children.length
          ? system.collection("person_care").getFullList<PersonCareRecord>({
              filter: anyOf(
                system,
                "person",
                children.map((c) => c.id),
              ),
            })
          : Promise.resolve([]),
        system.collection("pickup_authorizations").getFullList<PickupAuthorizationRecord>({
          filter: system.filter("household = {:household}", { household }),
          sort: "status,name",
        }),
      ]);
      return {
        qrText: householdQrText(household),
        children: children.map((child) =>
          careOf(
            child,
            care.find((c) => c.person === child.id),
          ),
        ),
        pickups,
      };
    },
  },
  Mutation: {
    async setCareNotes(_, { personId, allergies, medicalNotes }, ctx) {
      await requireViewer(ctx);
      const v = new Validator();
      const fields = {
        allergies: v.text("allergies", allergies, { max: CHECKIN_LIMITS.allergiesMax }),
        medicalNotes: v.text("medicalNotes", medicalNotes, { max: CHECKIN_LIMITS.medicalNotesMax }),
      };
      v.done();
      // The child must be someone the caller reads (their household's); PocketBase decides the write.
      const person = await pbCall(() => ctx.pb.collection("people").getOne<PersonRecord>(personId));
      // Whether a row exists yet (often not: a system read, see above); the write is the caller's.
      const system = await ctx.system.get();
      const existing = await system.collection("person_care").getList<PersonCareRecord>(1, 1, {
        filter: system.filter("person = {:person}", { person: personId }),
        fields: "id",
        skipTotal: true,
      });
      const row = existing.items[0];
      const saved = await writeAsCaller(() =>
        row
          ? ctx.pb.collection("person_care").update<PersonCareRecord>(row.id, fields)
          : ctx.pb.collection("person_care").create<PersonCareRecord>({ person: personId, ...fields }),
      );
      return careOf(person, saved);
    },
    async addPickupPerson(_, { input }, ctx) {
      const household = await myHousehold(ctx);
      if (!household) throw forbidden("Your account has no household.");
      const v = new Validator();
      const fields = {
        name: v.text("name", input.name, { required: true, max: CHECKIN_LIMITS.pickupNameMax }),
        relationship: v.text("relationship", input.relationship, {
          max: CHECKIN_LIMITS.pickupRelationshipMax,
        }),
        notes: v.text("notes", input.notes, { max: CHECKIN_LIMITS.pickupNotesMax }),
        status: input.status,
      };
      v.done();
      return writeAsCaller(() =>
        ctx.pb
          .collection("pickup_authorizations")
          .create<PickupAuthorizationRecord>({ household, ...fields }),
      );
    },
    async removePickupPerson(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("pickup_authorizations").delete(id));
      return true;
    },
  },
};
