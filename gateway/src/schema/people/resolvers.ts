import type { GatewayContext } from "../../context.ts";
import type { PersonRecord } from "../../pocketbase/records.ts";
import { formatPhone } from "../../validation/phone.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { contactPerson } from "./contact-relay.ts";
import {
  addEmail,
  addPhone,
  removeAddress,
  removeEmail,
  removePhone,
  setAddress,
  updateEmail,
  updatePhone,
} from "./contact-rows.ts";
import {
  createHousehold,
  inviteToHousehold,
  revokeHouseholdInvitation,
  setHouseholdPhoto,
  updateHousehold,
} from "./household-mutations.ts";
import { directory, households, isDirectoryCard, people, peopleCsv } from "./lists.ts";
import { loadersOf } from "./loaders.ts";
import {
  dateOnly,
  displayName,
  householdPhotoUrl,
  personPhotoUrl,
  toAgeGroup,
  toHouseholdRole,
  toMembershipStatus,
  toVisibility,
} from "./mappers.ts";
import { createPerson, setPersonPhoto, updatePerson } from "./person-mutations.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull } from "../../pocketbase/dates.ts";
import { householdCan, personCan } from "../../access/people.ts";

/**
 * Profiles, households, contact rows and the directory (PRODUCT.md §2–§5). Every read runs with the
 * caller's token through the request's loaders (loaders.ts): PocketBase's rules decide which people
 * and rows appear, and related reads are batched. Staff-only work (approval, merge, anonymise) is in
 * staff-resolvers.ts.
 */

/** Rows that belong to a person are batched per household when possible; the loaders need to know it. */
function personLoaders(ctx: GatewayContext, p: PersonRecord) {
  const loaders = loadersOf(ctx);
  loaders.remember([p]);
  return loaders;
}

export const peopleResolvers: Resolvers = {
  Query: {
    // A person or household the rules hide is null, as for pages and posts (never reveal which).
    person: (_, { id }, ctx) => loadersOf(ctx).person.load(id),
    household: (_, { id }, ctx) => loadersOf(ctx).household.load(id),
    directory: (_, args, ctx) => directory(ctx, args),
    people: (_, args, ctx) => people(ctx, args),
    households: (_, args, ctx) => households(ctx, args),
    peopleCsv: (_, args, ctx) => peopleCsv(ctx, args),
  },

  Mutation: {
    updatePerson: (_, { id, input }, ctx) => updatePerson(ctx, id, input),
    setPersonPhoto: (_, { id, file }, ctx) => setPersonPhoto(ctx, id, file),
    createPerson: (_, { input }, ctx) => createPerson(ctx, input),
    addEmail: (_, { personId, input }, ctx) => addEmail(ctx, personId, input),
    updateEmail: (_, { id, input }, ctx) => updateEmail(ctx, id, input),
    removeEmail: (_, { id }, ctx) => removeEmail(ctx, id),
    addPhone: (_, { personId, input }, ctx) => addPhone(ctx, personId, input),
    updatePhone: (_, { id, input }, ctx) => updatePhone(ctx, id, input),
    removePhone: (_, { id }, ctx) => removePhone(ctx, id),
    setAddress: (_, { householdId, input }, ctx) => setAddress(ctx, householdId, input),
    removeAddress: (_, { householdId }, ctx) => removeAddress(ctx, householdId),
    createHousehold: (_, { input }, ctx) => createHousehold(ctx, input),
    updateHousehold: (_, { id, input }, ctx) => updateHousehold(ctx, id, input),
    setHouseholdPhoto: (_, { id, file }, ctx) => setHouseholdPhoto(ctx, id, file),
    inviteToHousehold: (_, { householdId, email, name }, ctx) =>
      inviteToHousehold(ctx, householdId, email, name),
    revokeHouseholdInvitation: (_, { id }, ctx) => revokeHouseholdInvitation(ctx, id),
    contactPerson: (_, { personId, message }, ctx) => contactPerson(ctx, personId, message),
  },

  Person: {
    preferredName: (p) => p.preferredName || null,
    displayName: (p) => displayName(p),
    ageGroup: (p) => toAgeGroup(p.ageGroup),
    householdRole: (p) => toHouseholdRole(p.householdRole),
    membershipStatus: (p) => toMembershipStatus(p.membershipStatus),
    recordStatus: (p) => p.recordStatus || "pending",
    photoUrl: (p, { size }) => personPhotoUrl(p, size ?? "CARD"),
    household: (p, _, ctx) => (p.household ? loadersOf(ctx).household.load(p.household) : null),
    emails: (p, _, ctx) => personLoaders(ctx, p).emails.load(p.id),
    phones: (p, _, ctx) => personLoaders(ctx, p).phones.load(p.id),
    async birthday(p, _, ctx) {
      const row = await personLoaders(ctx, p).birthday.load(p.id);
      return row ? { month: row.month, day: row.day, visibility: toVisibility(row.visibility) } : null;
    },
    // From person_private: its rules show it to the person, their household and staff only.
    birthDate: async (p, _, ctx) => dateOnly((await personLoaders(ctx, p).privateRow.load(p.id))?.birthDate),
    directoryOptOut: (p) => !!p.directoryOptOut,
    inDirectory: (p) => !!p.inDirectory,
    deletionRequestedAt: (p) => fromPocketBaseDateOrNull(p.deletionRequestedAt),
    anonymizedAt: (p) => fromPocketBaseDateOrNull(p.anonymizedAt),
    mergedInto: (p, _, ctx) => (p.mergedInto ? loadersOf(ctx).person.load(p.mergedInto) : null),
    user: (p, _, ctx) => personLoaders(ctx, p).user.load(p.id),
    // staff-resolvers.ts fills this in for people managers; everyone else gets no suggestions.
    matchSuggestions: () => [],
    canEdit: async (p, _, ctx) => personCan(await ctx.viewer(), p).edit,
    can: async (p, _, ctx) => personCan(await ctx.viewer(), p),
    created: (p) => fromPocketBaseDate(p.created),
    updated: (p) => fromPocketBaseDate(p.updated),
  },

  Household: {
    photoUrl: (h, { size }) => householdPhotoUrl(h, size ?? "CARD"),
    address: (h, _, ctx) => loadersOf(ctx).address.load(h.id),
    async members(h, _, ctx) {
      const members = await loadersOf(ctx).members.load(h.id);
      return isDirectoryCard(h) ? members.filter((p) => p.inDirectory) : members;
    },
    directoryOptOut: (h) => !!h.directoryOptOut,
    inDirectory: (h) => !!h.inDirectory,
    invitations: (h, _, ctx) => loadersOf(ctx).invitations.load(h.id),
    canEdit: async (h, _, ctx) => householdCan(await ctx.viewer(), h).edit,
    can: async (h, _, ctx) => householdCan(await ctx.viewer(), h),
  },

  PersonEmail: {
    isPrimary: (e) => !!e.isPrimary,
    visibility: (e) => toVisibility(e.visibility),
  },

  PersonPhone: {
    formatted: (n) => formatPhone(n.number),
    kind: (n) => n.kind || null,
    isPrimary: (n) => !!n.isPrimary,
    visibility: (n) => toVisibility(n.visibility),
  },

  Address: {
    street2: (a) => a.street2 || null,
    region: (a) => a.region || null,
    postalCode: (a) => a.postalCode || null,
    visibility: (a) => toVisibility(a.visibility),
  },

  HouseholdInvitation: {
    expiresAt: (i) => fromPocketBaseDate(i.expiresAt),
    created: (i) => fromPocketBaseDate(i.created),
  },
};
